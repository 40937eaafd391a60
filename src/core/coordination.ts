/**
 * @module core/coordination
 * Work that one instance at a time should do. The sweeper takes this lease before a sweep:
 * on the embedded default the data-dir lock already makes the process the only one, so the
 * lease is free; on PostgreSQL it is an advisory lock, and an instance that does not get it
 * skips that sweep (another one is doing it). Correctness does not rest on it — every step
 * of a sweep is conditional and idempotent — it keeps instances from doubling the work.
 */

export interface SweepLease {
  /** Run `work` if no other instance holds the lease; null when it was skipped. */
  runExclusive<T>(work: () => Promise<T>): Promise<T | null>;
}

/** The lease of a process that is alone on its storage (the embedded default). */
export const SOLE_INSTANCE: SweepLease = { runExclusive: (work) => work() };
