/**
 * @module handoff/rate-limit
 * A fixed-window counter per client address for anonymous uploads. In memory: one process
 * serves one machine; several instances would need a shared counter.
 */

const WINDOW_MS = 60_000;
/** Forget idle addresses once the table grows past this, so memory stays bounded. */
const MAX_TRACKED = 10_000;

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets (for Retry-After). */
  retryAfter: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limitPerMinute: number,
    private readonly clock: () => number,
  ) {}

  hit(key: string): RateDecision {
    if (this.limitPerMinute <= 0) return { allowed: true, retryAfter: 0 };
    const now = this.clock();
    let window = this.windows.get(key);
    if (!window || now - window.start >= WINDOW_MS) {
      if (this.windows.size >= MAX_TRACKED) this.prune(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    const retryAfter = Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
    return { allowed: window.count <= this.limitPerMinute, retryAfter };
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (now - window.start >= WINDOW_MS) this.windows.delete(key);
    // Everyone is active: drop the oldest rather than grow without bound.
    if (this.windows.size >= MAX_TRACKED) this.windows.delete(this.windows.keys().next().value!);
  }
}
