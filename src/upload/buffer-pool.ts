/**
 * @module upload/buffer-pool
 * Reused buffers of one size for the upload path. A buffer written before is already backed by
 * memory; a fresh one pays a page fault per 4 KiB on its first writes — and on a VM that hands
 * freed memory back to its host (free page reporting, as on the machines these figures come
 * from), every fresh megabyte cost ~2.5 ms of faults against ~0.3 ms to fill a reused one.
 * Spares are kept while uploads keep coming and dropped after a quiet spell, so a burst of
 * uploads does not hold its buffers for good.
 */

/** Spares are dropped when no buffer has been given back for this long. */
const IDLE_MS = 10_000;

export class BufferPool {
  private readonly spare: ArrayBuffer[] = [];
  private idle: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly size: number,
    /** Spares kept at most (the pool's memory bound when idle: size × maxSpare). */
    private readonly maxSpare: number,
    /** Spares go after this long with no buffer given back. */
    private readonly idleMs = IDLE_MS,
  ) {}

  /** A buffer of `size` bytes: a spare if there is one. Its contents are stale. */
  take(): ArrayBuffer {
    return this.spare.pop() ?? new ArrayBuffer(this.size);
  }

  /** Done with `buffer`: kept for the next `take()` while there is room. */
  give(buffer: ArrayBuffer): void {
    // A detached buffer (lent to a thread that never gave it back) has no bytes left.
    if (buffer.byteLength !== this.size || this.spare.length >= this.maxSpare) return;
    this.spare.push(buffer);
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      this.spare.length = 0;
    }, this.idleMs);
    this.idle.unref?.();
  }

  /** Spares held now (tests). */
  get spares(): number {
    return this.spare.length;
  }
}
