/**
 * @module client/record/pace
 * Rehearse and pace. A talk's plan is seconds per slide; the presenter shows where the talk
 * stands against it. There is one notion of slide times — seconds by slide index, the deck's
 * grouping of pages into slides — whether they were booked by the presenter's running timer
 * (presenter/state.ts SlideTimes: this run and the previous one) or cut from a recording's
 * timeline (./rehearsal.ts): a rehearsal is a recording of kind "rehearsal", and its times
 * become the next talk's plan.
 *
 * The plan is the last rehearsal's times (else the previous run's, the timer's run before its
 * last reset); or the talk's length from pdfpc (its duration, or up to its end time) spread by
 * that rehearsal's proportions — evenly over the talk's slides when there is none. During the
 * talk: ahead or behind by how much, the slide the plan is on now, and the slides where the
 * rehearsal ran long. The rules are stated in docs/presenting/presenter.md (Rehearsal and
 * pace). Pure data and functions, no DOM: the presenter's views draw them, and a recording's
 * player can too.
 */
import type { TimerSettings } from "../../../src/deck/sidecar/types.ts";
import { formatClock } from "../lib/format.ts";
import { countdown } from "../lib/timer.ts";
import { isHidden, type DeckLayout } from "../presenter/deck-layout.ts";
import type { PaceChoice } from "../presenter/state.ts";

/** The choices, in the panel's order. */
const CHOICES: readonly PaceChoice[] = ["rehearsal", "duration", "off"];

/** A stored choice read back; anything else (an older record, none) is the default, the rehearsal. */
export function parsePaceChoice(value: unknown): PaceChoice {
  return CHOICES.includes(value as PaceChoice) ? (value as PaceChoice) : "rehearsal";
}

/** Where a plan's times come from. */
export type PlanSource = "rehearsal" | "previous-run" | "duration";

export interface Plan {
  source: PlanSource;
  /** Seconds per slide, by slide index (0-based); a slide the plan gives no time has 0. */
  perSlide: number[];
  /** The sum of `perSlide`. */
  total: number;
  /** A duration plan: whose proportions spread it ("even": no run to take them from). */
  spreadBy?: "rehearsal" | "previous-run" | "even";
}

/**
 * Slide times as the one shape the pace reads: seconds by slide index, `slideCount` long.
 * From the timer's booked times (a record by slide index) or a recording's `timePerSlide`
 * (a map by slide index, milliseconds: pass `unit` 1/1000). Slides the deck no longer has
 * are dropped; damaged figures read as 0.
 */
export function slideSeconds(times: Readonly<Record<number, number>> | ReadonlyMap<number, number>, slideCount: number, unit = 1): number[] {
  const out = new Array<number>(Math.max(0, slideCount)).fill(0);
  const entries = times instanceof Map ? [...times] : Object.entries(times).map(([k, v]) => [Number(k), v] as const);
  for (const [slide, value] of entries) {
    if (Number.isInteger(slide) && slide >= 0 && slide < out.length && Number.isFinite(value) && value > 0) out[slide] = value * unit;
  }
  return out;
}

const sum = (values: readonly number[]) => values.reduce((t, v) => t + v, 0);

/** A run's times as a plan; null when the run spent no time at all (nothing to pace by). */
export function planFromRun(source: "rehearsal" | "previous-run", perSlide: readonly number[] | null): Plan | null {
  if (!perSlide) return null;
  const total = sum(perSlide);
  return total > 0 ? { source, perSlide: perSlide.slice(), total } : null;
}

/**
 * The slides of the talk, by index: up to pdfpc's end slide (those after it are backup) and
 * not hidden in pdfpc (every page of the slide hidden). An even spread covers these.
 */
export function talkSlides(layout: DeckLayout): number[] {
  const last = layout.endSlide ?? layout.slides.length - 1;
  const out: number[] = [];
  layout.slides.forEach((slide, i) => {
    if (i > last) return;
    for (let p = slide.first; p <= slide.last; p++) if (!isHidden(layout, p)) return void out.push(i);
  });
  return out;
}

/**
 * The talk's length spread over its slides: by the proportions of `basis` (a run's plan: each
 * slide gets the share of the talk that the run spent on it), or evenly over `talk` (the
 * talk's slides) without one. Null when there is no time to spread or no slide to spread it on.
 */
export function planFromBudget(budget: number, basis: Plan | null, talk: readonly number[], slideCount: number): Plan | null {
  if (!(budget > 0)) return null;
  const perSlide = new Array<number>(slideCount).fill(0);
  if (basis) {
    basis.perSlide.forEach((seconds, i) => {
      if (i < slideCount) perSlide[i] = (budget * seconds) / basis.total;
    });
    return { source: "duration", perSlide, total: sum(perSlide), spreadBy: basis.source === "duration" ? "even" : basis.source };
  }
  const slides = talk.filter((i) => i >= 0 && i < slideCount);
  if (!slides.length) return null;
  for (const i of slides) perSlide[i] = budget / slides.length;
  return { source: "duration", perSlide, total: budget, spreadBy: "even" };
}

/**
 * The seconds the talk has, from pdfpc's data as the timer applies it: the duration, or — with
 * an end time only — the time already talked plus the time left until the end. Null when the
 * deck (and the speaker) say neither, or the end time has passed before the talk began.
 */
export function talkBudget(settings: TimerSettings, elapsed: number, now: Date): number | null {
  const cd = countdown(settings, elapsed, now);
  if (!cd) return null;
  const budget = elapsed + cd.remainingSeconds;
  return budget > 0 ? budget : null;
}

export interface PlanInputs {
  /** Seconds per slide of the deck's last rehearsal recording, if there is one. */
  rehearsal: readonly number[] | null;
  /** Seconds per slide of the previous run (the timer's run before its last reset), if any. */
  previousRun: readonly number[] | null;
  /** The talk's length in seconds from pdfpc (`talkBudget`), or null. */
  budget: number | null;
  /** The talk's slides (`talkSlides`): what an even spread covers. */
  talk: readonly number[];
  slideCount: number;
}

/**
 * The run a talk is paced by: the last rehearsal recording, else the previous run. Its
 * proportions also spread a duration plan, and its long slides are the ones marked.
 */
export function rehearsalRun(inputs: Pick<PlanInputs, "rehearsal" | "previousRun">): Plan | null {
  return planFromRun("rehearsal", inputs.rehearsal) ?? planFromRun("previous-run", inputs.previousRun);
}

/**
 * The plan in force for a choice, falling back to what exists: against the rehearsal, its
 * times (else the duration spread evenly); against the duration, the duration spread by the
 * rehearsal's proportions (else the rehearsal's own times, when the deck gives no length).
 * Null when pacing is off or there is nothing to pace by.
 */
export function choosePlan(choice: PaceChoice, inputs: PlanInputs): Plan | null {
  if (choice === "off") return null;
  const run = rehearsalRun(inputs);
  const byBudget = inputs.budget === null ? null : planFromBudget(inputs.budget, run, inputs.talk, inputs.slideCount);
  return choice === "duration" ? (byBudget ?? run) : (run ?? byBudget);
}

/** Seconds the plan gives the slides before `slide` (where the plan starts it). */
export function plannedStart(plan: Plan, slide: number): number {
  let start = 0;
  for (let i = 0; i < slide && i < plan.perSlide.length; i++) start += plan.perSlide[i]!;
  return start;
}

/**
 * The slide the plan is on `elapsed` seconds into the talk: the one whose planned stretch
 * holds that moment (slides the plan gives no time are never it). Null once the plan's time
 * is over.
 */
export function plannedSlideAt(plan: Plan, elapsed: number): number | null {
  let start = 0;
  for (let i = 0; i < plan.perSlide.length; i++) {
    const end = start + plan.perSlide[i]!;
    if (plan.perSlide[i]! > 0 && elapsed < end) return i;
    start = end;
  }
  return null;
}

export interface Pace {
  /** Behind: past the plan's end of the slide shown; ahead: before the plan's start of it. */
  status: "ahead" | "behind" | "on";
  /** How far ahead or behind, in whole seconds (0 on pace). */
  seconds: number;
  /** The slide the plan is on now (`plannedSlideAt`); null once the plan's time is over. */
  shouldBe: number | null;
}

/**
 * Where the talk stands, `elapsed` seconds in and on `slide`: the plan gives the slide a
 * stretch, from its planned start to its planned end. While the elapsed time is inside that
 * stretch the talk is on pace; past its end, behind by the time since; before its start, ahead
 * by the time until. Rounded to whole seconds, as the clocks show them: under half a second
 * either way is on pace.
 */
export function paceAt(plan: Plan, slide: number, elapsed: number): Pace {
  const start = plannedStart(plan, slide);
  const end = start + (plan.perSlide[slide] ?? 0);
  const shouldBe = plannedSlideAt(plan, elapsed);
  const behind = Math.round(elapsed - end);
  if (behind > 0) return { status: "behind", seconds: behind, shouldBe };
  const ahead = Math.round(start - elapsed);
  if (ahead > 0) return { status: "ahead", seconds: ahead, shouldBe };
  return { status: "on", seconds: 0, shouldBe };
}

/** A slide ran long when the rehearsal spent this many times its even share on it… */
const LONG_RATIO = 1.5;
/** …and at least this many seconds over that share: in a short talk, 20 s over is noise. */
const LONG_OVER_SECONDS = 30;

/**
 * The slides where a run ran long: more than half as long again as its even share (the run's
 * total over the slides it spent time on) and more than 30 s over that share.
 */
export function longSlides(perSlide: readonly number[]): Set<number> {
  const visited = perSlide.filter((s) => s > 0);
  const out = new Set<number>();
  if (!visited.length) return out;
  const share = sum(visited) / visited.length;
  perSlide.forEach((s, i) => {
    if (s > share * LONG_RATIO && s - share > LONG_OVER_SECONDS) out.add(i);
  });
  return out;
}

/** The pace line: "1:20 behind · you should be on slide 7", "0:45 ahead · …", "On pace". */
export function paceText(pace: Pace, labelOf: (slide: number) => string): string {
  if (pace.status === "on") return "On pace";
  const where = pace.shouldBe === null ? "the plan has ended" : `you should be on slide ${labelOf(pace.shouldBe)}`;
  return `${formatClock(pace.seconds)} ${pace.status} · ${where}`;
}

/** Where a plan comes from, in words: "the last rehearsal", "the talk's duration, spread evenly". */
export function planSourceText(plan: Plan): string {
  if (plan.source === "rehearsal") return "the last rehearsal";
  if (plan.source === "previous-run") return "the previous run";
  const by = plan.spreadBy === "rehearsal" ? "by the last rehearsal" : plan.spreadBy === "previous-run" ? "by the previous run" : "evenly";
  return `the talk's duration, spread ${by}`;
}
