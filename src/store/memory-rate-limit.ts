/**
 * @module store/memory-rate-limit
 * The anonymous rate limit's windows in this process's memory: the embedded default, where
 * the data-dir lock makes one process the only server of its data.
 */
import { RATE_WINDOW_MS, type RateDecision, type RateLimitStore } from "../core/rate-limit.ts";

/** Forget idle addresses once the table grows past this, so memory stays bounded. */
const MAX_TRACKED = 10_000;

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { start: number; count: number }>();

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

  private evict(now: number): void {
    for (const [key, window] of this.windows) if (now - window.start >= RATE_WINDOW_MS) this.windows.delete(key);
    // Everyone is active: drop the oldest rather than grow without bound.
    if (this.windows.size >= MAX_TRACKED) this.windows.delete(this.windows.keys().next().value!);
  }
}
