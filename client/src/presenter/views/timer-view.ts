/**
 * @module client/presenter/views/timer-view
 * The clocks: elapsed (waiting, running or paused), the pdfpc countdown when the deck has a
 * duration or end time, and the wall clock. Each is a `role="timer"` with its own name. After
 * the presenter window was closed for long, a notice that the timer went on without that time.
 */
import { h, setData, setText } from "../../lib/dom.ts";
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
  setText(els.elapsed, formatClock(elapsed));
  setData(els.elapsed, "status", timer.status);
  setText(els.toggle, timer.status === "running" ? "Pause" : timer.status === "paused" ? "Resume" : "Start");
  const cd = countdown(settings, elapsed, new Date(now));
  if (els.countdownBox.hidden !== !cd) els.countdownBox.hidden = !cd;
  if (cd) {
    // Counting down, a started second is still there: 29:59.5 left reads 30:00, as on any countdown.
    setText(els.countdown, formatClock(Math.ceil(cd.remainingSeconds)));
    setData(els.countdownBox, "state", cd.state);
  }
  setText(els.wallclock, new Date(now).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" }));
}

/** "8 min", "2 h 5 min", "3 days": how long a deck was closed, as the offer says it. */
export function formatAway(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  return `${Math.round(hours / 24)} days`;
}

/**
 * The notice after a long gap (lib/timer restoreTimer): the timer is running again, from what
 * it showed when the presenter window was last seen, and the notice says so — informative, never
 * in the way: the talk goes on whether or not it is read. *Reset to 0:00* starts a new run (at
 * the next slide change), *OK* puts the notice away; it also goes once the timer changes in any
 * way (a key, the toolbar).
 */
export class TimerAwayView {
  private box: HTMLElement | null = null;
  /** The restored timer the notice is about; any other timer means the speaker acted on it. */
  private about: TimerState | null = null;

  constructor(
    private readonly pane: HTMLElement,
    private readonly reset: () => void,
  ) {}

  show(awayMs: number, timer: TimerState): void {
    this.hide();
    this.about = timer;
    const from = formatClock(timer.accumulatedMs / 1000);
    this.box = h(
      "div",
      { class: "timer-away", id: "timer-away", role: "status", "aria-labelledby": "timer-away-text" },
      h("p", { id: "timer-away-text" }, `This deck was closed for ${formatAway(awayMs)}: the timer goes on from ${from}, without that time.`),
      h("div", { class: "timer-away-actions" },
        h("button", { type: "button", class: "btn btn-small", id: "timer-away-ok", onclick: () => this.hide() }, "OK"),
        h("button", { type: "button", class: "btn btn-small", id: "timer-restart", onclick: () => this.reset() }, "Reset to 0:00"),
      ),
    );
    this.pane.append(this.box);
  }

  /** The timer changed: a notice about another timer is gone. */
  update(timer: TimerState): void {
    if (this.about && timer !== this.about) this.hide();
  }

  hide(): void {
    this.box?.remove();
    this.box = null;
    this.about = null;
  }
}
