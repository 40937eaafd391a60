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
 * A job must end (`finish` or `drop`, both answered) before its descriptor is closed.
 */
import { startThread } from "../threads.ts";

/** A job is told of new bytes at most this often (fewer messages; the rest waits for `finish`). */
const ADVANCE_BYTES = 256 * 1024;

export type DigestRequest =
  | { op: "advance" | "finish"; id: number; fd: number; to: number }
  | { op: "drop"; id: number };

export type DigestReply = { id: number; sha256: string } | { id: number; error: string } | { id: number; dropped: true };

interface Waiter {
  resolve(sha256: string): void;
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
      else waiter.resolve("sha256" in reply ? reply.sha256 : "");
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
      if (this.worker !== worker) return Promise.reject(new Error("the SHA-256 thread stopped"));
      return new Promise<T>((resolve, reject) => {
        this.waiting.set(id, { resolve: (value) => resolve(map(value)), reject });
        worker.postMessage(request);
      });
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
}

const thread = new DigestThread();

/** Start hashing the file open at `fd` as it is written (see the module comment). */
export function digestAsWritten(fd: number): FileDigestJob {
  return thread.begin(fd);
}
