import { describe, expect, jest, test } from "bun:test";
import { BufferPool } from "../../src/upload/buffer-pool.ts";

describe("BufferPool", () => {
  test("a buffer given back is the next one taken; a new one is made when none is spare", () => {
    const pool = new BufferPool(1024, 4);
    const first = pool.take();
    expect(first.byteLength).toBe(1024);
    pool.give(first);
    expect(pool.spares).toBe(1);
    expect(pool.take()).toBe(first);
    expect(pool.spares).toBe(0);
    expect(pool.take()).not.toBe(first);
  });

  test("at most maxSpare are kept; a buffer of another size or a detached one is not kept", () => {
    const pool = new BufferPool(1024, 2);
    const buffers = [pool.take(), pool.take(), pool.take()];
    for (const buffer of buffers) pool.give(buffer);
    expect(pool.spares).toBe(2);
    pool.give(new ArrayBuffer(512));
    const lent = pool.take();
    lent.transfer(0); // lent to a thread that never gave it back
    pool.give(lent);
    expect(pool.spares).toBe(1);
  });

  // Fake timers: the quiet spell is counted on a clock the test moves, so a loaded machine
  // cannot stretch a 50 ms sleep past the pool's 80 ms spell.
  test("spares are dropped after a quiet spell, kept while buffers keep coming back", () => {
    jest.useFakeTimers();
    try {
      const pool = new BufferPool(1024, 8, 80);
      pool.give(pool.take());
      pool.give(new ArrayBuffer(1024));
      jest.advanceTimersByTime(50);
      pool.give(new ArrayBuffer(1024)); // activity: the spell starts again
      jest.advanceTimersByTime(50);
      expect(pool.spares).toBe(3);
      jest.advanceTimersByTime(80);
      expect(pool.spares).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
