/**
 * @module client/presenter/navigation
 * Moving through the talk, shared by every action that changes the page: the clamp, the
 * timer that starts at the first slide change (pdfpc), the history that jumps leave behind
 * (pdfpc's Shift+Backspace back and Shift+Space forward), and the rehearsal clock that books
 * the time spent on the slide being left.
 */
import { elapsedSeconds, startTimer, type TimerState } from "../lib/timer.ts";
import { clampPage, slideIndexOf, type DeckLayout } from "../model/deck-layout.ts";
import { NO_OVERLAYS, type PresenterState, type SlideTimes } from "./state.ts";

export interface NavContext {
  layout: DeckLayout;
  now: number;
}

/** Pages kept in the history: a talk's worth of jumps. */
const HISTORY_LIMIT = 50;

/** Seconds are booked to the hundredth: finer than anyone paces a talk. */
const round2 = (v: number) => Math.round(v * 100) / 100;

/**
 * Book the running-timer time since the last mark to the slide of the marked page, and mark
 * `page` now. A paused or idle timer books nothing (its elapsed time does not move).
 */
export function markSlideTime(times: SlideTimes, layout: DeckLayout, page: number, timer: TimerState, now: number): SlideTimes {
  const elapsed = elapsedSeconds(timer, now);
  const mark = times.mark;
  if (!mark) return { ...times, mark: { page, elapsed } };
  const spent = elapsed - mark.elapsed;
  const slide = slideIndexOf(layout, mark.page);
  const current = spent > 0 ? { ...times.current, [slide]: round2((times.current[slide] ?? 0) + spent) } : times.current;
  return { ...times, current, mark: { page, elapsed } };
}

/**
 * Move to `page`. Leaving the page drops its media state (the new page reports its own), its
 * pointer, live stroke and zoom; the first move of the talk starts an idle timer, as in
 * pdfpc. A `jump` (anything but a step) leaves the page behind in the history and, as in a
 * browser, forgets the forward history (a new branch).
 */
export function goTo(state: PresenterState, context: NavContext, page: number, options: { jump?: boolean } = {}): PresenterState {
  const target = clampPage(context.layout, page);
  const base = { ...state, entry: "", notice: null, entryTool: null, entryAt: null };
  if (target === state.page) return base;
  const timer = state.timer.status === "idle" ? startTimer(state.timer, context.now) : state.timer;
  const history = options.jump ? [...state.history, state.page].slice(-HISTORY_LIMIT) : state.history;
  const future = options.jump && state.future.length ? [] : state.future;
  const overlays = state.overlays === NO_OVERLAYS ? state.overlays : { ...NO_OVERLAYS, inkHidden: state.overlays.inkHidden };
  const slideTimes = markSlideTime(state.slideTimes, context.layout, target, timer, context.now);
  return { ...base, page: target, media: {}, timer, history, future, overlays, zoomSelect: false, slideTimes };
}

/**
 * Back to the page the last jump left (pdfpc's histBack); the page left now goes on the
 * forward history. Nothing when there is none.
 */
export function historyBack(state: PresenterState, context: NavContext): PresenterState {
  const history = state.history.slice();
  let page = history.pop();
  // A page the deck no longer has, or the page we are on, is skipped.
  while (page !== undefined && (page === state.page || page > context.layout.pageCount)) page = history.pop();
  if (page === undefined) return { ...state, history, notice: "No earlier page in the history." };
  const future = [...state.future, state.page].slice(-HISTORY_LIMIT);
  return { ...goTo(state, context, page), history, future };
}

/**
 * Forward again to the page the last Back left (pdfpc's histFwd); the page left now goes back
 * on the history. Nothing when no Back came before (or a new jump has since).
 */
export function historyForward(state: PresenterState, context: NavContext): PresenterState {
  const future = state.future.slice();
  let page = future.pop();
  while (page !== undefined && (page === state.page || page > context.layout.pageCount)) page = future.pop();
  if (page === undefined) return { ...state, future, notice: "No later page in the history." };
  const history = [...state.history, state.page].slice(-HISTORY_LIMIT);
  return { ...goTo(state, context, page), history, future };
}

/** Per-slide seconds of this run including the slide being shown now (the table's figures). */
export function slideTimesNow(state: PresenterState, layout: DeckLayout, now: number): Record<number, number> {
  return markSlideTime(state.slideTimes, layout, state.page, state.timer, now).current;
}

function parseTimes(value: unknown): Record<number, number> | null {
  if (!value || typeof value !== "object") return null;
  const out: Record<number, number> = {};
  for (const [k, v] of Object.entries(value)) if (/^\d+$/.test(k) && Number.isFinite(v) && (v as number) >= 0) out[Number(k)] = v as number;
  return out;
}

/** Slide times read back from storage (an old or damaged record reads as none). */
export function parseSlideTimes(value: unknown): SlideTimes {
  const v = value as Partial<SlideTimes> | null;
  const mark = v?.mark && Number.isFinite(v.mark.page) && Number.isFinite(v.mark.elapsed) ? { page: v.mark.page, elapsed: v.mark.elapsed } : null;
  return { current: parseTimes(v?.current) ?? {}, previous: parseTimes(v?.previous), mark };
}
