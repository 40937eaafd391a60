/**
 * The recent rate of a request body (upload/recent-rate): bytes over the last seconds, not the
 * average since the start, so a burst stops counting once it is older than the window. The
 * clock is passed in: no waiting.
 */
import { describe, expect, test } from "bun:test";
import { RATE_WINDOW_MS, RecentRate } from "../../src/upload/recent-rate.ts";

describe("RecentRate", () => {
  test("a steady body's rate is its rate, whatever the window", () => {
    const rate = new RecentRate(20_000, 0);
    // 4 KB/s in 800-byte chunks every 200 ms, for 30 s.
    for (let t = 200; t <= 30_000; t += 200) rate.add(800, t);
    expect(rate.perSecond(RATE_WINDOW_MS, 30_000)).toBeGreaterThanOrEqual(4000);
    // The window's first bucket counts whole: at most one bucket (250 ms) more than the rate.
    expect(rate.perSecond(RATE_WINDOW_MS, 30_000)).toBeLessThanOrEqual(4000 * 1.025 + 1);
    expect(rate.perSecond(20_000, 30_000)).toBeCloseTo(4000, -2);
  });

  test("600 KB at once, then a byte a second: fast within the window, a trickle once the burst has left it", () => {
    const rate = new RecentRate(20_000, 0);
    const seen = new Map<number, { window: number; long: number }>();
    rate.add(600 * 1024, 500);
    for (let t = 1000; t <= 40_000; t += 100) {
      if (t % 1000 === 0) rate.add(1, t);
      seen.set(t, { window: rate.perSecond(RATE_WINDOW_MS, t), long: rate.perSecond(20_000, t) });
    }
    // At 5 s the burst is in the window: fast.
    expect(seen.get(5000)!.window).toBeGreaterThan(100_000);
    // At 10.7 s it still is (its bucket is counted whole, a quarter of a second at most).
    expect(seen.get(10_700)!.window).toBeGreaterThan(50_000);
    // From 11 s on, the last 10 s brought ten bytes: a byte a second. (The average since the
    // start was still over 15 KB/s at 40 s, and stays over 2 KB/s for five minutes.)
    expect(seen.get(11_000)!.window).toBeLessThanOrEqual(1.1);
    expect(seen.get(40_000)!.window).toBeLessThanOrEqual(1.1);
    // A longer window keeps the burst longer: 20 s.
    expect(seen.get(20_000)!.long).toBeGreaterThan(20_000);
    expect(seen.get(21_000)!.long).toBeLessThanOrEqual(1.1);
  });

  test("since the start when the body is younger than the window", () => {
    const rate = new RecentRate(10_000, 1000);
    rate.add(3000, 1500);
    expect(rate.perSecond(RATE_WINDOW_MS, 3000)).toBe(1500);
    expect(rate.perSecond(RATE_WINDOW_MS, 1000)).toBe(0);
  });

  test("nothing for longer than the whole span: zero, and the buckets are reused cleanly", () => {
    const rate = new RecentRate(10_000, 0);
    rate.add(50_000, 100);
    expect(rate.bytesWithin(10_000, 9000)).toBe(50_000);
    expect(rate.bytesWithin(10_000, 60_000)).toBe(0);
    rate.add(10, 60_000);
    expect(rate.bytesWithin(10_000, 60_100)).toBe(10);
    // Bucket numbers wrapped around the ring many times: nothing old is counted again.
    for (let t = 60_250; t < 75_000; t += 250) rate.add(1, t);
    expect(rate.bytesWithin(10_000, 75_000)).toBeLessThanOrEqual(42);
  });

  test("a long span costs no more buckets, at a coarser edge", () => {
    const rate = new RecentRate(3_600_000, 0);
    rate.add(1000, 10);
    expect(rate.bytesWithin(3_600_000, 3_000_000)).toBe(1000);
    expect(rate.bytesWithin(60_000, 3_000_000)).toBe(0);
  });
});
