/**
 * @module client/live/connection/backoff
 * How long a live socket waits before its next reconnect: exponential from 250 ms, capped at
 * 10 s, with "full jitter" (a random wait up to the bound) so hundreds of viewers who lost the
 * same server do not all knock again in the same millisecond when it comes back.
 */

/** First retry bound: a server restart on the same port is usually back within this. */
export const BACKOFF_BASE_MS = 250;
/** Longest wait between tries: a viewer never waits longer than this after the server returns. */
export const BACKOFF_MAX_MS = 10_000;

/** The wait before retry number `attempt` (0 = the first retry); `random` in [0, 1). */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const bound = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, Math.min(attempt, 16)));
  // Never 0: a server refusing at once must not be hammered in a tight loop.
  return Math.max(BACKOFF_BASE_MS / 2, Math.floor(random() * bound));
}
