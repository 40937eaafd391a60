/**
 * @module upload/digest-thread
 * SHA-256 of an upload off the event loop. Hashing costs 1–2 ms of CPU per MB: on the thread
 * that serves requests, that was the largest single cost of an upload (bench/upload.ts, 32
 * concurrent 1 MB presents: the event loop's CPU per upload fell from ~4.9 to ~3.5 ms without
 * it). So one worker thread hashes every upload, reading each file back from the page cache
 * behind its writer while the rest still arrives: the receiving thread only tells it how far
 * the file is written, and the digest is ready moments after the last byte.
 *
 * Nothing is copied between the threads and nothing queues in memory: a message is a file
 * descriptor and a length, and the thread reads at its own pace through one 1 MiB buffer.
 *
 * An upload received whole in memory (upload/receive) is hashed from its buffer instead: the
 * buffer is transferred to the thread and back, so the bytes are neither copied nor read again.
 * (Writing it on this thread too was slower at 32 concurrent uploads: one thread for every
 * upload's write and hash became the bottleneck; Bun's I/O threads write it instead.)
 *
 * A job must end (`finish` or `drop`, both answered) before its descriptor is closed.
 */
import { startThread } from "../binary/threads.ts";

/** A job is told of new bytes at most this often (fewer messages; the rest waits for `finish`). */
const ADVANCE_BYTES = 256 * 1024;

export type DigestRequest =
  | { op: "advance" | "finish"; id: number; fd: number; to: number }
  | { op: "drop"; id: number }
  | { op: "bytes"; id: number; buffer: ArrayBuffer; offset: number; length: number };

type DigestDone = { id: number; sha256: string; buffer?: ArrayBuffer };

export type DigestReply = DigestDone | { id: number; error: string } | { id: number; dropped: true };

interface Waiter {
  resolve(reply: DigestDone): void;
  reject(error: Error): void;
}

export interface FileDigestJob {
  /** The first `written` bytes of the file are on disk (or in the page cache): hash them when convenient. */
  advance(written: number): void;
  /** The file is complete at `bytes`: its SHA-256 (lowercase hex) once hashed. */
  finish(bytes: number): Promise<string>;
  /** Forget the job (the upload failed); resolves once the thread will not read the file again. */
  drop(): Promise<void>;
}

class DigestThread {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiter>();
  private nextId = 1;

  private start(): Worker {
    // It holds one 1 MiB buffer and a hash state per upload, nothing else.
    const worker = startThread("upload/digest-worker.ts");
    worker.onmessage = (event: MessageEvent<DigestReply>) => {
      const reply = event.data;
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if ("error" in reply) waiter.reject(new Error(`SHA-256 of the upload failed: ${reply.error}`));
      else waiter.resolve("sha256" in reply ? reply : { id: reply.id, sha256: "" });
    };
    worker.onerror = (event) => this.lost(worker, new Error(`the SHA-256 thread failed: ${event.message}`));
    worker.addEventListener("close", () => this.lost(worker, new Error("the SHA-256 thread stopped")));
    return worker;
  }

  /** Every job of a thread that died fails; the next job starts a new thread. */
  private lost(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }

  begin(fd: number): FileDigestJob {
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    let told = 0;
    let ended = false;
    const ask = <T>(request: DigestRequest, map: (value: string) => T): Promise<T> => {
      ended = true;
      return this.ask(worker, request).then((reply) => map(reply.sha256));
    };
    return {
      advance: (written) => {
        if (ended || written - told < ADVANCE_BYTES || this.worker !== worker) return;
        told = written;
        worker.postMessage({ op: "advance", id, fd, to: written } satisfies DigestRequest);
      },
      finish: (bytes) => ask({ op: "finish", id, fd, to: bytes }, (sha256) => sha256),
      drop: () => {
        // Never told anything, or the thread is gone: it holds nothing of this file.
        if (ended) return Promise.resolve();
        if (told === 0 || this.worker !== worker) {
          ended = true;
          return Promise.resolve();
        }
        return ask({ op: "drop", id }, () => undefined).catch(() => undefined);
      },
    };
  }

  /** Send `request` to `worker` (transferring `transfer`) and wait for its reply. */
  private ask(worker: Worker, request: DigestRequest, transfer: Bun.Transferable[] = []): Promise<DigestDone> {
    if (this.worker !== worker) return Promise.reject(new Error("the SHA-256 thread stopped"));
    return new Promise((resolve, reject) => {
      this.waiting.set(request.id, { resolve, reject });
      worker.postMessage(request, transfer);
    });
  }

  /** See `digestBytes`. */
  async digestBytes(bytes: Uint8Array<ArrayBuffer>): Promise<{ sha256: string; buffer: ArrayBuffer }> {
    const worker = (this.worker ??= this.start());
    const request: DigestRequest = { op: "bytes", id: this.nextId++, buffer: bytes.buffer, offset: bytes.byteOffset, length: bytes.byteLength };
    const reply = await this.ask(worker, request, [bytes.buffer]);
    if (!reply.buffer) throw new Error("the SHA-256 thread kept the buffer");
    return { sha256: reply.sha256, buffer: reply.buffer };
  }
}

const thread = new DigestThread();

/** Start hashing the file open at `fd` as it is written (see the module comment). */
export function digestAsWritten(fd: number): FileDigestJob {
  return thread.begin(fd);
}

/**
 * The SHA-256 of `bytes` on the thread, without a copy: their buffer is detached until this
 * settles and comes back as `buffer` (lost if the thread fails: allocate a new one then).
 */
export function digestBytes(bytes: Uint8Array<ArrayBuffer>): Promise<{ sha256: string; buffer: ArrayBuffer }> {
  return thread.digestBytes(bytes);
}
