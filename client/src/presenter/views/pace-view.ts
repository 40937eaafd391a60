/**
 * @module client/presenter/views/pace-view
 * The pace during the talk, on the presenter's screen only (never the projector): a line under
 * the clocks — "1:20 behind · you should be on slide 7", "0:45 ahead · …", "On pace", or
 * before the talk starts the plan's length and where it comes from — and, beside the slide
 * counter, a marker on a slide the last rehearsal ran long on. The figures are
 * ../../record/pace.ts's.
 */
import { h, replace } from "../../lib/dom.ts";
import { formatClock } from "../../lib/format.ts";
import { elapsedSeconds, type TimerState } from "../../lib/timer.ts";
import { paceAt, paceText, planSourceText, type Plan } from "../../record/pace.ts";
import { slideIndexOf, type DeckLayout } from "../../model/deck-layout.ts";

export interface PaceLine {
  /** "plan" before the talk starts; then where the talk stands. */
  status: "plan" | "ahead" | "behind" | "on";
  text: string;
}

/** The line for this moment: the plan until the timer first runs, then the pace. */
export function paceLine(plan: Plan, timer: TimerState, slide: number, now: number, labelOf: (slide: number) => string): PaceLine {
  const elapsed = elapsedSeconds(timer, now);
  if (timer.status === "idle" && elapsed === 0) return { status: "plan", text: `${formatClock(Math.round(plan.total))} planned · ${planSourceText(plan)}` };
  const pace = paceAt(plan, slide, elapsed);
  return { status: pace.status, text: paceText(pace, labelOf) };
}

export interface PaceEls {
  box: HTMLElement;
  value: HTMLElement;
  /** Beside the counter: the current slide ran long in the rehearsal. */
  long: HTMLElement;
}

export interface PaceView {
  plan: Plan | null;
  /** The rehearsal's seconds per slide (the run the long slides come from), or null. */
  rehearsal: readonly number[] | null;
  long: ReadonlySet<number>;
}

export function renderPace(els: PaceEls, view: PaceView, layout: DeckLayout, timer: TimerState, page: number, now = Date.now()): void {
  const slide = slideIndexOf(layout, page);
  const labelOf = (i: number) => layout.slides[i]?.label ?? String(i + 1);
  // `hidden` is written only when it changes: this runs with every tick of the clocks.
  if (els.box.hidden !== !view.plan) els.box.hidden = !view.plan;
  if (view.plan) {
    const line = paceLine(view.plan, timer, slide, now, labelOf);
    // The figure first; what follows " · " is left out on a phone's narrow clock pane (CSS).
    const cut = line.text.indexOf(" · ");
    if (els.value.textContent !== line.text) replace(els.value, ...(cut < 0 ? [line.text] : [line.text.slice(0, cut), h("span", { class: "pace-more" }, line.text.slice(cut))]));
    els.box.dataset.pace = line.status;
    els.box.title = `Paced by ${planSourceText(view.plan)}: ${formatClock(Math.round(view.plan.total))} in all. Slide times (Shift+T) chooses the plan.`;
  }
  const long = view.long.has(slide) && view.rehearsal ? view.rehearsal[slide] : undefined;
  if (els.long.hidden !== (long === undefined)) els.long.hidden = long === undefined;
  const text = long === undefined ? "" : `Ran long in rehearsal: ${formatClock(Math.round(long))}`;
  // "in rehearsal" is left out on a phone's narrow footer (CSS): "Ran long: 2:00".
  if (els.long.textContent !== text) replace(els.long, ...(long === undefined ? [] : ["Ran long", h("span", { class: "counter-long-more" }, " in rehearsal"), `: ${formatClock(Math.round(long))}`]));
}
