/**
 * @module pdf/worker/reader-budget
 * What each owner (pdf/worker/owner: an address key) has spent of the PDF readers' time: a
 * token bucket of milliseconds of worker time. Jobs take their reader time from it; it comes
 * back at a steady rate. An owner with less than `refuseBelowMs` of it left is refused until
 * `reopenMs` is left again, so an address looping files that run long (to the deadline, or
 * just under it) is refused after a few, whatever their number — a budget of time, not a count
 * of files. (A threshold rather than an empty bucket: time comes back while files run, so two
 * files stopped at the deadline in a row never quite empty a bucket of two deadlines.)
 *
 * Pure bookkeeping with the clock passed in (`now`, ms of performance.now()), so the arithmetic
 * is tested without processes; the pool (pdf/worker/pool) adds the time of jobs running now.
 */

export interface ReaderBudgetOptions {
  /** Reader time an owner has when it has spent none (ms; Infinity: never refused). */
  capacityMs: number;
  /** Reader time given back per second (ms/s). */
  refillMsPerSecond: number;
  /** An owner with less than this left is refused (ms). */
  refuseBelowMs: number;
  /** A refused owner is served again once this much is left (ms). */
  reopenMs: number;
  /** How long an owner whose job had to be stopped is remembered as slow (ms). */
  slowMemoryMs: number;
}

interface Entry {
  /** Spent at `at`, before what has come back since. */
  spent: number;
  at: number;
  /** A refused owner is served again from this moment (0: not refused). */
  refusedUntil: number;
  /** A job of this owner was stopped (at a bound, or to give its reader back) until this long ago. */
  slowUntil: number;
}

/** Owners remembered at most (one small entry each; beyond it the least recently charged go). */
const MAX_OWNERS = 10_000;

export class ReaderBudget {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: ReaderBudgetOptions) {}

  /** Reader time `owner` has spent and not yet got back (ms). */
  spent(owner: string, now: number): number {
    const entry = this.entries.get(owner);
    return entry ? this.decayed(entry, now) : 0;
  }

  /** How much longer `owner` is remembered as slow (ms; 0: not): a job of it was stopped within the last `slowMemoryMs`, so its next files are expected to be slow too. */
  slowFor(owner: string, now: number): number {
    return Math.max(0, (this.entries.get(owner)?.slowUntil ?? 0) - now);
  }

  /**
   * Take `ms` of reader time from `owner`'s budget; `stopped`: the job was stopped before it
   * ended (the owner is slow for `slowMemoryMs`). Returns true when this charge left less than
   * `refuseBelowMs`: the owner is refused from now until `reopenMs` is left (its waiting files
   * should go too).
   */
  charge(owner: string, ms: number, now: number, stopped = false): boolean {
    const entry = this.entries.get(owner) ?? { spent: 0, at: now, refusedUntil: 0, slowUntil: 0 };
    entry.spent = this.decayed(entry, now) + Math.max(0, ms);
    entry.at = now;
    if (stopped) entry.slowUntil = now + this.options.slowMemoryMs;
    // Re-inserted last: the map's first entries are the least recently charged.
    this.entries.delete(owner);
    this.entries.set(owner, entry);
    while (this.entries.size > MAX_OWNERS) this.entries.delete(this.entries.keys().next().value as string);
    if (!this.spentOut(entry.spent)) return false;
    const already = now < entry.refusedUntil;
    // Time spent while refused (a job that was already running) makes the wait longer.
    entry.refusedUntil = Math.max(entry.refusedUntil, now + this.untilReopen(entry.spent));
    return !already;
  }

  /**
   * How long `owner` is refused from `now` (ms; 0: it is served). `runningMs` is the time its
   * jobs running now have taken so far: spent too, though not yet charged.
   */
  refusedFor(owner: string, now: number, runningMs = 0): number {
    const entry = this.entries.get(owner);
    if (entry && now < entry.refusedUntil) return entry.refusedUntil - now;
    const spent = (entry ? this.decayed(entry, now) : 0) + runningMs;
    return this.spentOut(spent) ? Math.max(1, this.untilReopen(spent)) : 0;
  }

  private decayed(entry: Entry, now: number): number {
    return Math.max(0, entry.spent - ((now - entry.at) / 1000) * this.options.refillMsPerSecond);
  }

  /** Less than `refuseBelowMs` left after spending `spent`. */
  private spentOut(spent: number): boolean {
    return this.options.capacityMs - spent < this.options.refuseBelowMs;
  }

  /** Time until `reopenMs` is left again, having spent `spent`. */
  private untilReopen(spent: number): number {
    const level = Math.max(0, this.options.capacityMs - this.options.reopenMs);
    return (Math.max(0, spent - level) / this.options.refillMsPerSecond) * 1000;
  }
}
