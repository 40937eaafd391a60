/**
 * @module core/rate-limit
 * The anonymous upload rate limit's counter: a fixed one-minute window per client address.
 * In memory for the embedded default (one process serves the data dir); in PostgreSQL when
 * several instances share a database, so a client cannot multiply its allowance by the
 * number of instances behind the load balancer.
 */

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets (for Retry-After). */
  retryAfter: number;
}

export interface RateLimitStore {
  /** Count one hit for `key` at `now` against `limitPerMinute` (≤ 0: no limit). */
  hit(key: string, now: number, limitPerMinute: number): Promise<RateDecision>;
  /** Forget windows that ended before `before` (the sweeper calls it); returns how many. */
  prune?(before: number): Promise<number>;
}

/** Length of one rate-limit window. */
export const RATE_WINDOW_MS = 60_000;
