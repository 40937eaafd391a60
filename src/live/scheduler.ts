/**
 * @module live/scheduler
 * The timers of live talks behind a port: the join deadline, the presenter's grace, the
 * counts, the pointer save, the presence and "last seen" heartbeats. The server runs them on
 * the system's timers; a test drives a manual scheduler instead (test/live/scheduler.ts), so it
 * fires the grace period when it says so rather than sleeping through it.
 */

/** A scheduled run; `cancel` is idempotent and safe after it ran. */
export interface Timer {
  cancel(): void;
}

export interface Scheduler {
  /** Run `run` once, `ms` from now. */
  after(ms: number, run: () => void): Timer;
  /** Run `run` every `ms` until cancelled. */
  every(ms: number, run: () => void): Timer;
}

export const systemScheduler: Scheduler = {
  after(ms, run) {
    const id = setTimeout(run, ms);
    return { cancel: () => clearTimeout(id) };
  },
  every(ms, run) {
    const id = setInterval(run, ms);
    return { cancel: () => clearInterval(id) };
  },
};
