/**
 * @module store/memory-rate-limit
 * The anonymous rate limit's windows, and the keys remembered for a time, in this process's
 * memory: the embedded default, where the data-dir lock makes one process the only server of
 * its data.
 */
import { RATE_WINDOW_MS, type RateDecision, type RateLimitStore } from "../core/rate-limit.ts";

/** Forget idle addresses once the table grows past this, so memory stays bounded. */
const MAX_TRACKED = 10_000;

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { start: number; count: number }>();
  /** Key → until when it is remembered; the least recently remembered first. */
  private readonly memories = new Map<string, number>();

  async hit(key: string, now: number, limitPerMinute: number): Promise<RateDecision> {
    if (limitPerMinute <= 0) return { allowed: true, retryAfter: 0 };
    let window = this.windows.get(key);
    if (!window || now - window.start >= RATE_WINDOW_MS) {
      if (this.windows.size >= MAX_TRACKED) this.evict(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    const retryAfter = Math.max(1, Math.ceil((window.start + RATE_WINDOW_MS - now) / 1000));
    return { allowed: window.count <= limitPerMinute, retryAfter };
  }

  async remember(key: string, now: number, until: number): Promise<void> {
    const end = Math.max(until, this.memories.get(key) ?? until);
    // Most recently remembered last: the first key is the one to forget.
    this.memories.delete(key);
    if (this.memories.size >= MAX_TRACKED) this.forget(now);
    this.memories.set(key, end);
  }

  async remembers(key: string, now: number): Promise<boolean> {
    return (this.memories.get(key) ?? -Infinity) > now;
  }

  /** Room for one more memory: the ended ones go, else the least recently remembered. */
  private forget(now: number): void {
    for (const [key, until] of this.memories) if (until <= now) this.memories.delete(key);
    if (this.memories.size >= MAX_TRACKED) this.memories.delete(this.memories.keys().next().value!);
  }

  private evict(now: number): void {
    for (const [key, window] of this.windows) if (now - window.start >= RATE_WINDOW_MS) this.windows.delete(key);
    // Everyone is active: drop the oldest rather than grow without bound.
    if (this.windows.size >= MAX_TRACKED) this.windows.delete(this.windows.keys().next().value!);
  }
}
