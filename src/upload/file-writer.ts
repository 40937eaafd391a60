/**
 * @module upload/file-writer
 * Write a stream of chunks to a file descriptor off the event loop (Bun's I/O threads), in
 * order, with a bounded backlog. Synchronous writes blocked the loop for 10–80 ms at a time
 * when the kernel throttled dirty pages during a 100 MB upload (bench/availability.ts), and
 * every request waited behind them; here only this upload waits, and only for its own disk.
 */
import { write } from "node:fs";

/** Bytes queued for the disk before the reader pauses: enough to keep the disk busy, bounded memory. */
export const MAX_BACKLOG_BYTES = 8 * 1024 * 1024;

function writeAll(fd: number, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const from = (offset: number) =>
      write(fd, chunk, offset, chunk.length - offset, null, (error, written) => {
        if (error) reject(error);
        else if (offset + written < chunk.length) from(offset + written);
        else resolve();
      });
    from(0);
  });
}

export class FileWriter {
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;
  /** The first write error, if any; later writes are skipped. */
  failure: unknown = null;

  constructor(private readonly fd: number) {}

  /** Queue `chunk` (kept by reference: the caller must not reuse it). */
  write(chunk: Uint8Array): void {
    if (this.failure) return;
    this.pending += chunk.length;
    this.tail = this.tail.then(async () => {
      if (this.failure) return;
      try {
        await writeAll(this.fd, chunk);
      } catch (error) {
        this.failure ??= error;
      } finally {
        this.pending -= chunk.length;
      }
    });
  }

  /** More than MAX_BACKLOG_BYTES queued: the reader should wait for `drained()`. */
  get backlogged(): boolean {
    return this.pending > MAX_BACKLOG_BYTES;
  }

  /** Resolves once every queued write has finished (or failed: see `failure`). */
  drained(): Promise<void> {
    return this.tail;
  }
}
