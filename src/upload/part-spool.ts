/**
 * @module upload/part-spool
 * A second file part of an upload — the notes file beside the PDF — written to a
 * temp file of its own, in order, on the I/O threads. It needs neither the PDF part's
 * synchronous fast path nor its hashing: a notes file is read once by a PDF worker and then
 * discarded. Memory stays bounded: at most MAX_PENDING_BYTES of it wait for the disk, and the
 * reader of the body waits (`room()`) past that, as it does for the PDF part.
 */
import { closeSync, open } from "node:fs";
import type { ScratchFile } from "../core/blobs.ts";
import { writeAllAt } from "./file-writer.ts";

/** Bytes of a part that may wait for the disk before the body's reader is held back. */
const MAX_PENDING_BYTES = 1024 * 1024;

/**
 * Create `path` (it must not exist) on the I/O threads; resolves to its descriptor, open for
 * reading too.
 */
export function openNew(path: string): Promise<number> {
  return new Promise((resolve, reject) => open(path, "wx+", (error, fd) => (error ? reject(error) : resolve(fd))));
}

export class PartSpool {
  private fd = -1;
  private closed = false;
  private position = 0;
  private pending = 0;
  private tail: Promise<void>;
  private readonly waiting: Array<() => void> = [];
  /** The first failure (create or write); later writes are skipped. */
  failure: unknown = null;

  constructor(readonly temp: ScratchFile) {
    // Made at once, opened on the I/O threads; the first write waits for the open.
    this.tail = openNew(temp.path).then(
      (fd) => {
        this.fd = fd;
      },
      (error) => {
        this.failure ??= error;
      },
    );
  }

  /** Bytes taken so far. */
  get bytes(): number {
    return this.position;
  }

  /** Whether `write` may be called now without growing past the pending bound. */
  hasRoom(): boolean {
    return this.failure !== null || this.pending < MAX_PENDING_BYTES;
  }

  /** Resolves once `hasRoom()`. */
  async room(): Promise<void> {
    while (!this.hasRoom()) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /**
   * Queue `chunk` for the file. `copy: false` only for bytes that stay untouched until
   * `finish()` has resolved (a whole body's buffer); a streamed chunk is copied.
   */
  write(chunk: Uint8Array, options: { copy: boolean } = { copy: true }): void {
    if (this.failure || this.closed) return;
    const data = options.copy ? Buffer.from(chunk) : chunk;
    const at = this.position;
    this.position += data.length;
    this.pending += data.length;
    this.tail = this.tail.then(async () => {
      try {
        if (!this.failure) await writeAllAt(this.fd, data, at);
      } catch (error) {
        this.failure ??= error;
      } finally {
        this.pending -= data.length;
        this.waiting.shift()?.();
      }
    });
  }

  /** Every write has ended and the file is closed; throws the first failure. */
  async finish(): Promise<void> {
    await this.tail;
    this.close();
    if (this.failure) throw this.failure;
  }

  /** Wait for the writes in flight, close and remove the file (idempotent). */
  async discard(): Promise<void> {
    await this.tail;
    this.close();
    await this.temp.discard();
  }

  private close(): void {
    this.closed = true;
    if (this.fd !== -1) {
      const fd = this.fd;
      this.fd = -1;
      closeSync(fd);
    }
  }
}
