/**
 * @module client/lib/timer
 * The presenter's clock: elapsed time (pausable) and, from pdfpc data, a countdown to the
 * talk's duration or end time, with a warning in the last minutes.
 */
import type { TimerSettings } from "../../../src/deck/sidecar/types.ts";

/** Minutes before the end when the countdown turns amber, unless pdfpc says otherwise. */
const DEFAULT_LAST_MINUTES = 5;

export class TalkTimer {
  private startedAt: number | null = null;
  private accumulated = 0;

  constructor(private readonly now: () => number = () => Date.now()) {}

  get running(): boolean {
    return this.startedAt !== null;
  }

  start(): void {
    if (this.startedAt === null) this.startedAt = this.now();
  }

  pause(): void {
    if (this.startedAt !== null) {
      this.accumulated += this.now() - this.startedAt;
      this.startedAt = null;
    }
  }

  toggle(): void {
    if (this.running) this.pause();
    else this.start();
  }

  reset(): void {
    this.accumulated = 0;
    this.startedAt = this.startedAt === null ? null : this.now();
  }

  elapsedSeconds(): number {
    return (this.accumulated + (this.startedAt === null ? 0 : this.now() - this.startedAt)) / 1000;
  }
}

export interface Countdown {
  remainingSeconds: number;
  state: "ok" | "warn" | "over";
}

/** The countdown for these settings, or null when the deck gives no duration or end time. */
export function countdown(settings: TimerSettings, elapsedSeconds: number, now: Date = new Date()): Countdown | null {
  let remaining: number | null = null;
  if (settings.durationMinutes && settings.durationMinutes > 0) remaining = settings.durationMinutes * 60 - elapsedSeconds;
  else if (settings.endTime) {
    const m = /^(\d{1,2}):(\d{2})$/.exec(settings.endTime);
    if (m) {
      const end = new Date(now);
      end.setHours(Number(m[1]), Number(m[2]), 0, 0);
      remaining = (end.getTime() - now.getTime()) / 1000;
    }
  }
  if (remaining === null) return null;
  const last = (settings.lastMinutes ?? DEFAULT_LAST_MINUTES) * 60;
  return { remainingSeconds: remaining, state: remaining < 0 ? "over" : remaining <= last ? "warn" : "ok" };
}
