/**
 * @module upload/file-writer
 * Write a stream of chunks to a file descriptor off the event loop (Bun's I/O threads), in
 * order, through a few reused blocks. Synchronous writes blocked the loop for 10–80 ms at a
 * time when the kernel throttled dirty pages during a 100 MB upload, and every request waited
 * behind them; here only this upload waits, and only for its own disk.
 *
 * Chunks are copied into the blocks rather than queued as they are: a chunk that waits for
 * the disk survives a young-generation collection and then lingers until a full one (queueing
 * the chunks themselves grew a 200 MB upload's process by 200 MB). The copy costs ~20 ms per
 * 100 MB; the blocks are reused, so nothing else outlives its chunk.
 */
import { write } from "node:fs";

/** Bytes per disk write: large enough to keep syscalls few, small enough to reuse. */
const BLOCK_BYTES = 256 * 1024;
/** Blocks per upload: the most that waits for the disk (1 MiB per upload, ×64 uploads at most). */
const BLOCKS = 4;

function writeAll(fd: number, data: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const from = (offset: number) =>
      write(fd, data, offset, data.length - offset, null, (error, written) => {
        if (error) reject(error);
        else if (offset + written < data.length) from(offset + written);
        else resolve();
      });
    from(0);
  });
}

export class FileWriter {
  private readonly free: Uint8Array<ArrayBuffer>[] = [];
  private created = 1;
  private current = new Uint8Array(BLOCK_BYTES);
  private filled = 0;
  private tail: Promise<void> = Promise.resolve();
  private readonly waiting: Array<() => void> = [];
  /** The first write error, if any; later writes are skipped. */
  failure: unknown = null;

  constructor(private readonly fd: number) {}

  /**
   * Resolves once `bytes` (at most one block) can be taken by `write` without waiting: call it
   * before feeding a chunk of that size in. This is where a slow disk holds the reader back.
   */
  async room(bytes: number): Promise<void> {
    while (!this.failure && BLOCK_BYTES - this.filled < bytes && this.free.length === 0 && this.created >= BLOCKS) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** Copy `chunk` in; full blocks go to the disk. */
  write(chunk: Uint8Array): void {
    if (this.failure) return;
    for (let offset = 0; offset < chunk.length; ) {
      const n = Math.min(chunk.length - offset, BLOCK_BYTES - this.filled);
      this.current.set(chunk.subarray(offset, offset + n), this.filled);
      this.filled += n;
      offset += n;
      if (this.filled === BLOCK_BYTES) this.flush();
    }
  }

  /** Resolves once everything written so far is on its way to the disk and written (or failed: see `failure`). */
  drained(): Promise<void> {
    if (this.filled > 0) this.flush();
    return this.tail;
  }

  private flush(): void {
    const block = this.current;
    const length = this.filled;
    this.tail = this.tail.then(async () => {
      try {
        if (!this.failure) await writeAll(this.fd, block.subarray(0, length));
      } catch (error) {
        this.failure ??= error;
      } finally {
        this.free.push(block);
        this.waiting.shift()?.();
      }
    });
    // `room()` made sure a block is free, or may still be made.
    const next = this.free.pop();
    if (next) this.current = next;
    else {
      this.created++;
      this.current = new Uint8Array(BLOCK_BYTES);
    }
    this.filled = 0;
  }
}
