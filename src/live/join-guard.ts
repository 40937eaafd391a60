/**
 * @module live/join-guard
 * Codes are short enough to guess (31^6 ≈ 887 million), so guessing is what is limited: every
 * lookup of an unknown code and every wrong secret counts against the address (IPv6 by its
 * /64) in the shared rate-limit store; past the limit the address is refused — any code,
 * known or not — until its window ends. Successful joins do not count: a whole audience
 * behind one conference NAT must be able to join.
 */
import { AppError } from "../errors.ts";
import { RateLimiter } from "../handoff/rate-limit.ts";
import type { RateLimitStore } from "../core/rate-limit.ts";
import { addressKey } from "../tools/address-key.ts";

/** Failed lookups or secrets per address per minute: a person mistyping never gets near it. */
export const LIVE_JOIN_FAILURES_PER_MINUTE = 30;
/** Forget blocks once the table grows past this (the window has ended for most). */
const MAX_BLOCKED = 10_000;

export class LiveJoinGuard {
  private readonly limiter: RateLimiter;
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    store: RateLimitStore,
    private readonly clock: () => number,
    limitPerMinute = LIVE_JOIN_FAILURES_PER_MINUTE,
  ) {
    this.limiter = new RateLimiter(store, limitPerMinute, clock);
  }

  /** Throw RATE_LIMITED (429, Retry-After) while `address` is blocked. */
  check(address: string): void {
    const key = addressKey(address);
    const until = this.blockedUntil.get(key);
    if (until === undefined) return;
    const now = this.clock();
    if (until <= now) {
      this.blockedUntil.delete(key);
      return;
    }
    const retryAfter = Math.max(1, Math.ceil((until - now) / 1000));
    throw new AppError("RATE_LIMITED", `Too many unknown talk codes or wrong secrets from this address; retry in ${retryAfter} s and check the code.`, {
      headers: { "retry-after": String(retryAfter) },
    });
  }

  /** Count one failed attempt (unknown code, wrong secret) from `address`. */
  async fail(address: string): Promise<void> {
    const key = addressKey(address);
    const decision = await this.limiter.hit(`live-join:${key}`);
    if (decision.allowed) return;
    if (this.blockedUntil.size >= MAX_BLOCKED) this.blockedUntil.clear();
    this.blockedUntil.set(key, this.clock() + decision.retryAfter * 1000);
  }
}
