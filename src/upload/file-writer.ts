/**
 * @module upload/file-writer
 * Write an upload's chunks to its file without letting a slow disk stall the event loop, and
 * without paying for that when the disk is fast.
 *
 * Measured both ways (bench/upload.ts, bench/availability.ts):
 * - synchronous writes are a copy into the page cache, the fastest path — until the kernel
 *   throttles dirty pages, when one `writeSync` blocked the loop for 10–80 ms and every
 *   request waited behind it;
 * - writes on Bun's I/O threads never block the loop, but under many concurrent uploads they
 *   queue behind the same threads' fsyncs: 32 concurrent 1 MB uploads ran 35 % slower.
 * So chunks are written synchronously while the disk keeps up, and after a synchronous write
 * slower than SLOW_WRITE_MS every upload of the process writes on the I/O threads for the next
 * PRESSURE_MS. Every write carries its file position, so the two kinds may interleave.
 *
 * On the I/O threads, chunks are copied into a few reused blocks rather than queued as they
 * are: a chunk that waits for the disk survives a young-generation collection and then
 * lingers until a full one (queueing the chunks themselves grew a 200 MB upload's process by
 * 200 MB). Blocks are kept for the next upload (up to SPARE_BLOCKS), since a fresh block costs
 * its page faults on every first write into it.
 */
import { write, writeSync } from "node:fs";
import { BufferPool } from "./buffer-pool.ts";

/** Bytes per asynchronous disk write: large enough to keep syscalls few, small enough to reuse. */
const BLOCK_BYTES = 256 * 1024;
/** Blocks per upload: the most that waits for the disk (1 MiB per upload, ×64 uploads at most). */
const BLOCKS = 4;
/** A synchronous write of one chunk slower than this means the kernel is throttling writes. */
const SLOW_WRITE_MS = 4;
/** After a slow write, writes go to the I/O threads for this long (the throttling passes in seconds). */
const PRESSURE_MS = 5_000;
/** Free blocks the process keeps for later uploads (4 MiB). */
const SPARE_BLOCKS = 16;

/** Until when the process's uploads write asynchronously (performance.now() ms). */
let pressureUntil = 0;
/** Blocks of finished uploads, for the next ones. */
const blocks = new BufferPool(BLOCK_BYTES, SPARE_BLOCKS);

/** Write all of `data` at `position` of `fd`, on the I/O threads. */
export function writeAllAt(fd: number, data: Uint8Array, position: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const from = (offset: number) =>
      write(fd, data, offset, data.length - offset, position + offset, (error, written) => {
        if (error) reject(error);
        else if (offset + written < data.length) from(offset + written);
        else resolve();
      });
    from(0);
  });
}

export class FileWriter {
  private readonly free: Uint8Array<ArrayBuffer>[] = [];
  private created = 0;
  /** The block being filled; null until a byte needs one (so a flush never allocates). */
  private current: Uint8Array<ArrayBuffer> | null = null;
  private filled = 0;
  /** File position of the current block's first byte. */
  private blockStart = 0;
  /** Bytes accepted so far: the file position of the next byte. */
  private position = 0;
  private tail: Promise<void> = Promise.resolve();
  /** File positions of the blocks queued for the I/O threads and not yet written, in order. */
  private readonly pendingStarts: number[] = [];
  private readonly waiting: Array<() => void> = [];
  /** The first write error, if any; later writes are skipped. */
  failure: unknown = null;

  /** `underPressure` decides, per chunk, to write on the I/O threads (tests force both ways). */
  constructor(
    private readonly fd: number,
    private readonly underPressure: () => boolean = () => performance.now() < pressureUntil,
  ) {}

  /**
   * Resolves once `bytes` (at most one block) can be taken by `write` without waiting: call it
   * before feeding a chunk of that size in. This is where a slow disk holds the reader back.
   */
  async room(bytes: number): Promise<void> {
    while (!this.hasRoom(bytes)) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** Whether `write` can take `bytes` (at most one block) now; else await `room(bytes)` first. */
  hasRoom(bytes: number): boolean {
    return this.failure !== null || !this.needsBlock(bytes) || this.free.length > 0 || this.created < BLOCKS;
  }

  /** Whether taking `bytes` (at most one block) would start a block. */
  private needsBlock(bytes: number): boolean {
    return this.current === null || BLOCK_BYTES - this.filled < bytes;
  }

  /** Take `chunk`: written at once while the disk keeps up, else queued for the I/O threads. */
  write(chunk: Uint8Array): void {
    if (this.failure) return;
    if (this.underPressure()) this.enqueue(chunk);
    else this.writeNow(chunk);
  }

  /** Blocks this writer has allocated: never more than BLOCKS (its memory bound). */
  get blocksAllocated(): number {
    return this.created;
  }

  /** Resolves once everything taken so far is written (or failed: see `failure`). */
  drained(): Promise<void> {
    if (this.filled > 0) this.flush();
    return this.tail;
  }

  private writeNow(chunk: Uint8Array): void {
    // Bytes already copied into a block keep their positions; they follow on the I/O threads.
    if (this.filled > 0) this.flush();
    const started = performance.now();
    try {
      for (let offset = 0; offset < chunk.length; ) offset += writeSync(this.fd, chunk, offset, chunk.length - offset, this.position + offset);
    } catch (error) {
      this.failure ??= error;
      return;
    }
    this.position += chunk.length;
    this.blockStart = this.position;
    const took = performance.now() - started;
    if (took > SLOW_WRITE_MS) pressureUntil = performance.now() + PRESSURE_MS;
  }

  private enqueue(chunk: Uint8Array): void {
    for (let offset = 0; offset < chunk.length; ) {
      // `room()` made sure a block is free, or may still be made.
      this.current ??= this.free.pop() ?? this.newBlock();
      const n = Math.min(chunk.length - offset, BLOCK_BYTES - this.filled);
      this.current.set(chunk.subarray(offset, offset + n), this.filled);
      this.filled += n;
      offset += n;
      this.position += n;
      if (this.filled === BLOCK_BYTES) this.flush();
    }
  }

  private newBlock(): Uint8Array<ArrayBuffer> {
    this.created++;
    return new Uint8Array(blocks.take());
  }

  /**
   * Bytes from the file's start that are written (in the page cache, at least), with nothing
   * missing before them: what another reader of the file may read.
   */
  get settled(): number {
    return this.pendingStarts[0] ?? (this.current ? this.blockStart : this.position);
  }

  /** Done with this writer (after `drained()`): its blocks go to the next upload. */
  release(): void {
    for (const block of this.free.splice(0)) blocks.give(block.buffer);
  }

  private flush(): void {
    const block = this.current!;
    const length = this.filled;
    const at = this.blockStart;
    this.pendingStarts.push(at);
    this.tail = this.tail.then(async () => {
      try {
        if (!this.failure) await writeAllAt(this.fd, block.subarray(0, length), at);
      } catch (error) {
        this.failure ??= error;
      } finally {
        this.pendingStarts.shift();
        this.free.push(block);
        this.waiting.shift()?.();
      }
    });
    // The next block is taken when a byte needs it: a flush never allocates, so at most
    // BLOCKS exist however the writes alternate between the two kinds.
    this.current = null;
    this.filled = 0;
    this.blockStart = this.position;
  }
}
