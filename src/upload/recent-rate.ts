/**
 * @module upload/recent-rate
 * How fast a request body has been arriving lately: bytes over a sliding window of the last
 * seconds, counted in small time buckets. The upload rules judge this rate, not the average since
 * the start: with the average, B bytes sent up front bought B / (2 KiB/s) seconds of trickling
 * afterwards (ten minutes for 10 MB), an upload slot held all that time. Judged over the last
 * seconds, a body that bursts and then trickles is as slow as a trickle within the window.
 *
 * The clock is passed in (ms of performance.now()), so the arithmetic is tested without waiting.
 */

/**
 * The window the upload slots judge a holder by (upload/slots), and the shortest the body's
 * minimum rate is judged over (upload/body): long enough for a phone's stall of a few seconds
 * on a poor line, short enough that a burst buys seconds, not minutes.
 */
export const RATE_WINDOW_MS = 10_000;

/** Buckets per span at least this long (ms): the window's edge is this precise. */
const MIN_BUCKET_MS = 250;
/** Buckets at most, whatever the span: a long --body-timeout costs no more memory per upload. */
const MAX_BUCKETS = 80;

export class RecentRate {
  private readonly bucketMs: number;
  private readonly counts: Float64Array;
  /** Number of the last bucket bytes were added to (buckets count from `started`). */
  private latest = 0;

  /** Judges windows up to `spanMs` long, of a body that began arriving at `started`. */
  constructor(
    spanMs: number,
    readonly started: number,
  ) {
    this.bucketMs = Math.max(MIN_BUCKET_MS, Math.ceil(spanMs / MAX_BUCKETS));
    // One more than the span needs: the window's first bucket is counted whole.
    this.counts = new Float64Array(Math.ceil(spanMs / this.bucketMs) + 1);
  }

  /** `bytes` arrived at `now`. */
  add(bytes: number, now: number): void {
    const bucket = this.bucketOf(now);
    if (bucket > this.latest) {
      // The buckets between the last one and this one got nothing: cleared for reuse.
      for (let k = Math.max(this.latest + 1, bucket - this.counts.length + 1); k <= bucket; k++) this.counts[k % this.counts.length] = 0;
      this.latest = bucket;
    }
    // A chunk stamped before the last bucket (a clock read late) counts in the last one.
    this.counts[Math.max(bucket, this.latest) % this.counts.length]! += bytes;
  }

  /** Bytes that arrived within the last `windowMs` at `now` (the bucket the window begins in counted whole). */
  bytesWithin(windowMs: number, now: number): number {
    const last = Math.min(this.bucketOf(now), this.latest);
    const first = Math.max(0, this.bucketOf(now - windowMs), this.latest - this.counts.length + 1);
    let total = 0;
    for (let k = first; k <= last; k++) total += this.counts[k % this.counts.length]!;
    return total;
  }

  /** Bytes per second over the last `windowMs`, or since the start when that is shorter. */
  perSecond(windowMs: number, now: number): number {
    const span = Math.min(windowMs, now - this.started);
    return span > 0 ? this.bytesWithin(windowMs, now) / (span / 1000) : 0;
  }

  private bucketOf(time: number): number {
    return Math.floor((time - this.started) / this.bucketMs);
  }
}
