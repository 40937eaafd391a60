/**
 * @module client/lib/timer
 * The presenter's clock as plain data. Like pdfpc, the elapsed timer waits on the title
 * slide while the room fills and starts at the first slide change (or an explicit start);
 * it can be paused and reset. It counts in wall-clock milliseconds; the presenter window says it
 * is there (a heartbeat, kept with the saved timer), and `restoreTimer` gives a reopened window
 * the one rule for the time it was closed: a timer that was running keeps running, always; a
 * gap of up to PRESENCE_GRACE_MS (a reload, a crash, a window closed by mistake) is counted as
 * talk time — the room's clock went on — and a longer one is not: the timer goes on from where
 * the window was last seen (the speaker is told, and may reset it). From pdfpc data, a countdown
 * to the talk's duration or end time, with a warning in the last minutes.
 */
import type { TimerSettings } from "../../../src/deck/sidecar/types.ts";

/** Minutes before the end when the countdown turns amber, unless pdfpc says otherwise. */
const DEFAULT_LAST_MINUTES = 5;

export interface TimerState {
  /** idle: not started yet (or reset); running; paused. */
  status: "idle" | "running" | "paused";
  /** Wall-clock ms (Date.now) when the current running stretch began; null unless running. */
  startedAt: number | null;
  /** Ms counted in earlier running stretches. */
  accumulatedMs: number;
}

export const IDLE_TIMER: TimerState = { status: "idle", startedAt: null, accumulatedMs: 0 };

export function startTimer(timer: TimerState, now: number): TimerState {
  return timer.status === "running" ? timer : { status: "running", startedAt: now, accumulatedMs: timer.accumulatedMs };
}

export function pauseTimer(timer: TimerState, now: number): TimerState {
  if (timer.status !== "running" || timer.startedAt === null) return timer;
  return { status: "paused", startedAt: null, accumulatedMs: timer.accumulatedMs + Math.max(0, now - timer.startedAt) };
}

/** Pause a running timer; resume a paused or idle one. */
export function toggleTimer(timer: TimerState, now: number): TimerState {
  return timer.status === "running" ? pauseTimer(timer, now) : startTimer(timer, now);
}

/** Back to zero and idle: it starts again at the next slide change, as after loading. */
export function resetTimer(): TimerState {
  return IDLE_TIMER;
}

export function elapsedSeconds(timer: TimerState, now: number): number {
  const running = timer.status === "running" && timer.startedAt !== null ? Math.max(0, now - timer.startedAt) : 0;
  return (timer.accumulatedMs + running) / 1000;
}

/**
 * How long a presenter window may be closed with that time still counted as the talk's: a
 * reload, a crash and reopening it, a window closed by mistake. Longer than a background tab's
 * throttled heartbeat (browsers slow a hidden tab's timers to one a minute) plus the time to
 * reopen the window; a gap longer than this is a break, not the talk.
 */
export const PRESENCE_GRACE_MS = 2 * 60_000;

/** How often an open presenter window with a running timer says it is still there: at most this much is lost at a crash. */
export const PRESENCE_BEAT_MS = 5000;

export interface RestoredTimer {
  timer: TimerState;
  /** Set when the window was gone longer than the grace (that time left out): how long, for the notice. */
  awayMs: number | null;
}

/**
 * A saved timer as a newly opened presenter window takes it over. `seenAt` is when the last
 * window with this timer was last known open (its last save). A running timer keeps running,
 * whatever the gap: within the grace the gap is counted (the timer is as it was); after a longer
 * gap the gap is left out — the timer goes on from what it showed when the window was last
 * seen — and `awayMs` says how long, for the notice. A record without `seenAt` only knows when
 * the stretch began: it is treated as seen then.
 */
export function restoreTimer(saved: TimerState, seenAt: number | undefined, now: number, graceMs = PRESENCE_GRACE_MS): RestoredTimer {
  if (saved.status !== "running" || saved.startedAt === null) return { timer: saved, awayMs: null };
  const seen = Number.isFinite(seenAt) ? Math.max(seenAt!, saved.startedAt) : saved.startedAt;
  const away = now - seen;
  // A clock set back (away < 0) says nothing about a gap: the timer runs on.
  if (away <= graceMs) return { timer: saved, awayMs: null };
  return { timer: startTimer(pauseTimer(saved, seen), now), awayMs: away };
}

/** A stored timer from an older or damaged record reads as idle rather than failing. */
export function parseTimer(value: unknown): TimerState {
  const t = value as Partial<TimerState> | null | undefined;
  if (!t || typeof t !== "object") return IDLE_TIMER;
  const accumulatedMs = Number.isFinite(t.accumulatedMs) && t.accumulatedMs! >= 0 ? t.accumulatedMs! : 0;
  if (t.status === "running" && Number.isFinite(t.startedAt)) return { status: "running", startedAt: t.startedAt!, accumulatedMs };
  if (t.status === "paused") return { status: "paused", startedAt: null, accumulatedMs };
  return accumulatedMs > 0 ? { status: "paused", startedAt: null, accumulatedMs } : IDLE_TIMER;
}

export interface Countdown {
  remainingSeconds: number;
  state: "ok" | "warn" | "over";
}

/** The countdown for these settings, or null when the deck gives no duration or end time. */
export function countdown(settings: TimerSettings, elapsed: number, now: Date = new Date()): Countdown | null {
  let remaining: number | null = null;
  if (settings.durationMinutes && settings.durationMinutes > 0) remaining = settings.durationMinutes * 60 - elapsed;
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
