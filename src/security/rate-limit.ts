/**
 * @module security/rate-limit
 * The anonymous upload limit: `limitPerMinute` uploads (present + check, REST or MCP) per
 * client address per one-minute window, counted in a `RateLimitStore` — this process's
 * memory on the embedded default, the shared database when several instances serve.
 * Shared by the handoffs and the live join guard.
 */
import { AppError } from "../base/errors.ts";
import type { RateDecision, RateLimitStore } from "../core/rate-limit.ts";

export class RateLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly limitPerMinute: number,
    private readonly clock: () => number,
  ) {}

  hit(key: string): Promise<RateDecision> {
    if (this.limitPerMinute <= 0) return Promise.resolve({ allowed: true, retryAfter: 0 });
    return this.store.hit(key, this.clock(), this.limitPerMinute);
  }

  /**
   * Count one anonymous upload (present or check, over REST or MCP) from `address`; over the
   * limit, RATE_LIMITED with Retry-After.
   */
  async admit(address: string): Promise<void> {
    const decision = await this.hit(address);
    if (!decision.allowed) {
      throw new AppError(
        "RATE_LIMITED",
        `Too many anonymous uploads from this address; retry in ${decision.retryAfter} s, or send an access token.`,
        { headers: { "retry-after": String(decision.retryAfter) } },
      );
    }
  }

  /** Forget finished windows (called by the sweeper). */
  async prune(now: number): Promise<number> {
    return (await this.store.prune?.(now - 60_000)) ?? 0;
  }
}
