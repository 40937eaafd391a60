/**
 * @module live/token-bucket
 * A per-socket message budget: `rate` tokens a second up to `burst`; each message takes one.
 * Pointer moves arrive at the display's frame rate, so the presenter's bucket is generous.
 */

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    private readonly now: () => number = performance.now.bind(performance),
  ) {
    this.tokens = burst;
    this.last = this.now();
  }

  /** Take one token; false when the budget is spent (the message is refused). */
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
