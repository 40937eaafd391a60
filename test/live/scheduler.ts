/**
 * A manual `Scheduler` for the live hub (src/live/scheduler.ts): nothing runs until the test
 * advances it, so a test of the presenter's grace fires the grace period when it says so
 * instead of sleeping through a short one.
 */
import type { Scheduler, Timer } from "../../src/live/scheduler.ts";

interface Pending {
  at: number;
  every: number | null;
  run: () => void;
  cancelled: boolean;
}

export class ManualScheduler implements Scheduler {
  private now = 0;
  private pending: Pending[] = [];

  after(ms: number, run: () => void): Timer {
    return this.add({ at: this.now + ms, every: null, run, cancelled: false });
  }

  every(ms: number, run: () => void): Timer {
    return this.add({ at: this.now + ms, every: ms, run, cancelled: false });
  }

  /** Move time on by `ms`, running what falls due on the way, in time order. */
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = this.pending.filter((p) => !p.cancelled && p.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.now = due.at;
      if (due.every !== null) due.at += Math.max(1, due.every);
      else due.cancelled = true;
      due.run();
    }
    this.pending = this.pending.filter((p) => !p.cancelled);
    this.now = until;
  }

  private add(entry: Pending): Timer {
    this.pending.push(entry);
    return { cancel: () => void (entry.cancelled = true) };
  }
}
