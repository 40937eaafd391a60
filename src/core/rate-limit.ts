/**
 * @module core/rate-limit
 * The anonymous upload rate limit's counter: a fixed one-minute window per client address —
 * and what an address did that a later refusal must honour (`remember`: the live talks an
 * address opened, which a block for guessing codes leaves open to it, live/join-guard).
 * In memory for the embedded default (one process serves the data dir); in PostgreSQL when
 * several instances share a database, so a client cannot multiply its allowance by the
 * number of instances behind the load balancer, and what one instance remembers the others
 * know.
 */

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets (for Retry-After). */
  retryAfter: number;
}

export interface RateLimitStore {
  /** Count one hit for `key` at `now` against `limitPerMinute` (≤ 0: no limit). */
  hit(key: string, now: number, limitPerMinute: number): Promise<RateDecision>;
  /** Remember `key`, at `now`, until `until` (ms since the epoch); remembered already, the later end stays. */
  remember(key: string, now: number, until: number): Promise<void>;
  /** Whether `key` is remembered at `now`. */
  remembers(key: string, now: number): Promise<boolean>;
  /** Forget windows, and memories, that ended before `before` (the sweeper calls it); returns how many. */
  prune?(before: number): Promise<number>;
}

/** Length of one rate-limit window. */
export const RATE_WINDOW_MS = 60_000;
