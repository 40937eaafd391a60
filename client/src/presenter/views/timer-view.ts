/**
 * @module client/presenter/views/timer-view
 * The clocks: elapsed (waiting, running or paused), the pdfpc countdown when the deck has a
 * duration or end time, and the wall clock. Each is a `role="timer"` with its own name.
 */
import { replace } from "../../lib/dom.ts";
import { formatClock } from "../../lib/format.ts";
import { countdown, elapsedSeconds, type TimerState } from "../../lib/timer.ts";
import type { TimerSettings } from "../../../../src/deck/sidecar/types.ts";

export interface TimerEls {
  elapsed: HTMLElement;
  countdownBox: HTMLElement;
  countdown: HTMLElement;
  wallclock: HTMLElement;
  toggle: HTMLButtonElement;
}

export function renderTimer(els: TimerEls, timer: TimerState, settings: TimerSettings, now = Date.now()): void {
  const elapsed = elapsedSeconds(timer, now);
  replace(els.elapsed, formatClock(elapsed));
  els.elapsed.dataset.status = timer.status;
  els.toggle.textContent = timer.status === "running" ? "Pause" : timer.status === "paused" ? "Resume" : "Start";
  const cd = countdown(settings, elapsed, new Date(now));
  els.countdownBox.hidden = !cd;
  if (cd) {
    // Counting down, a started second is still there: 29:59.5 left reads 30:00, as on any countdown.
    replace(els.countdown, formatClock(Math.ceil(cd.remainingSeconds)));
    els.countdownBox.dataset.state = cd.state;
  }
  replace(els.wallclock, new Date(now).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" }));
}
