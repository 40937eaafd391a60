/**
 * @module client/live/viewer/reaction-batch
 * A viewer's taps on the reaction bar go out as `react {counts}` batches, never one
 * message per tap: taps are summed and sent at most every MIN_GAP_MS, within a budget that
 * stays under the server's viewer budget (src/live/socket-policy.ts: 2 messages/s, burst 10)
 * so a viewer tapping away never has an ask or a vote refused as RATE_LIMITED. The clock and
 * the timer are injected (tests drive them by hand).
 */
import { LIVE_REACTIONS, MAX_REACTION_BATCH, type LiveReactionCountsT, type LiveReactionT } from "../../../../src/shared/live-audience-protocol.ts";

/** At most 4 `react` messages a second while someone taps. */
export const MIN_GAP_MS = 250;
/** Sustained `react` messages per second: leaves half the server's 2/s for asks, votes and pings. */
export const REACT_RATE = 1;
/** Messages that may go in a row before the rate applies (the server's burst is 10). */
export const REACT_BURST = 4;

export interface BatchDeps {
  now(): number;
  /** Run `fn` after `ms`; returns a cancel. */
  later(fn: () => void, ms: number): () => void;
  /** Send one batch; false when it could not go (the socket is down): those taps are dropped. */
  send(counts: LiveReactionCountsT): boolean;
}

export class ReactionBatch {
  private pending: LiveReactionCountsT = {};
  private lastSent = -Infinity;
  private tokens = REACT_BURST;
  private refilledAt: number;
  private cancel: (() => void) | null = null;

  constructor(private readonly deps: BatchDeps) {
    this.refilledAt = deps.now();
  }

  /** One tap. Taps past MAX_REACTION_BATCH of one reaction before the next send are dropped (one message carries at most that). */
  tap(emoji: LiveReactionT): void {
    if (!LIVE_REACTIONS.includes(emoji)) return;
    this.pending[emoji] = Math.min((this.pending[emoji] ?? 0) + 1, MAX_REACTION_BATCH);
    this.schedule();
  }

  /** Taps waiting to go. */
  get waiting(): number {
    return Object.values(this.pending).reduce((a, b) => a + (b ?? 0), 0);
  }

  /** Forget waiting taps and the timer (the page leaves the talk). */
  stop(): void {
    this.cancel?.();
    this.cancel = null;
    this.pending = {};
  }

  private refill(now: number): void {
    this.tokens = Math.min(REACT_BURST, this.tokens + ((now - this.refilledAt) / 1000) * REACT_RATE);
    this.refilledAt = now;
  }

  /** When the next batch may go, from now: 0 means at once. */
  private wait(now: number): number {
    this.refill(now);
    const gap = Math.max(0, this.lastSent + MIN_GAP_MS - now);
    const budget = this.tokens >= 1 ? 0 : ((1 - this.tokens) / REACT_RATE) * 1000;
    return Math.ceil(Math.max(gap, budget));
  }

  private schedule(): void {
    if (this.cancel) return;
    const ms = this.wait(this.deps.now());
    if (ms === 0) return this.flush();
    this.cancel = this.deps.later(() => {
      this.cancel = null;
      this.flush();
    }, ms);
  }

  private flush(): void {
    if (this.waiting === 0) return;
    const now = this.deps.now();
    if (this.wait(now) > 0) return this.schedule();
    const counts = this.pending;
    this.pending = {};
    this.tokens -= 1;
    this.lastSent = now;
    this.deps.send(counts);
  }
}
