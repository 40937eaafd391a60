/**
 * @module client/presenter/views/times-view
 * Rehearsal and pace (pdfpc keeps only the countdown): the time spent on each slide in this
 * run, next to the plan it is paced by (../../record/pace.ts) and the previous run's, as a
 * table the presenter can read between runs and after the talk, and export as CSV. The
 * chart beside it is ./pace-chart-view.ts.
 */
import { h, replace } from "../../lib/dom.ts";
import { csvFile, csvRow } from "../../lib/csv.ts";
import { formatClock } from "../../lib/format.ts";
import { planSourceText, slideSeconds, type Plan } from "../../record/pace.ts";
import type { DeckLayout } from "../deck-layout.ts";

export interface TimeRow {
  label: string;
  /** This run's seconds on the slide. */
  seconds: number;
  /** The plan's seconds for it; null without a plan. */
  planned: number | null;
  /** The previous run's; null when there was none. */
  previous: number | null;
  /** The last rehearsal ran long on this slide (../../record/pace.ts longSlides). */
  long: boolean;
}

const NO_SLIDES: ReadonlySet<number> = new Set();

export function timeRows(layout: DeckLayout, current: Record<number, number>, previous: Record<number, number> | null, plan: Plan | null = null, long: ReadonlySet<number> = NO_SLIDES): TimeRow[] {
  const count = layout.slides.length;
  const actual = slideSeconds(current, count);
  const before = previous ? slideSeconds(previous, count) : null;
  return layout.slides.map((slide, i) => ({ label: slide.label, seconds: actual[i]!, planned: plan ? (plan.perSlide[i] ?? 0) : null, previous: before ? before[i]! : null, long: long.has(i) }));
}

/** Seconds as the CSV writes them: one decimal, empty when there is no figure. */
const seconds = (value: number | null) => (value === null ? "" : value.toFixed(1));

/**
 * CSV for a spreadsheet: one row per slide — its number and label, the plan's seconds, this
 * run's, the previous run's, and whether the rehearsal ran long there. Seconds with one
 * decimal; labels (the PDF's text) quoted per RFC 4180 and defused against formulas.
 */
export function timesCsv(rows: readonly TimeRow[]): string {
  return csvFile([
    csvRow(["slide", "label", "planned_seconds", "actual_seconds", "previous_run_seconds", "ran_long_in_rehearsal"]),
    ...rows.map((r, i) => csvRow([i + 1, r.label, seconds(r.planned), seconds(r.seconds), seconds(r.previous), r.long ? "yes" : ""])),
  ]);
}

/** "12:30 this run against 10:00 planned (the last rehearsal), over 9 slides." */
export function timesSummary(rows: readonly TimeRow[], plan: Plan | null): string {
  const total = rows.reduce((t, r) => t + r.seconds, 0);
  const planned = plan ? ` against ${formatClock(Math.round(plan.total))} planned (${planSourceText(plan)})` : "";
  if (total <= 0) return plan ? `Nothing this run yet; ${formatClock(Math.round(plan.total))} planned (${planSourceText(plan)}). The clock counts while the timer runs.` : "No time recorded yet: the clock counts while the timer runs.";
  return `${formatClock(Math.round(total))} this run${planned}, over ${rows.filter((r) => r.seconds > 0).length} slides.`;
}

const clock = (value: number | null) => (value === null ? "—" : formatClock(Math.round(value)));

/**
 * The table: a row per slide with the plan's time, this run's and — when the plan is not
 * already the previous run — the previous run's. A slide the rehearsal ran long on says so.
 */
export function renderTimes(table: HTMLElement, summary: HTMLElement, rows: readonly TimeRow[], plan: Plan | null): void {
  const hasPlan = plan !== null;
  const hasPrevious = rows.some((r) => r.previous !== null) && plan?.source !== "previous-run";
  const head = h("tr", {}, h("th", { scope: "col" }, "Slide"), hasPlan ? h("th", { scope: "col" }, "Planned") : null, h("th", { scope: "col" }, "This run"), hasPrevious ? h("th", { scope: "col" }, "Previous run") : null);
  const body = rows.map((r) =>
    h(
      "tr",
      { class: r.long ? "is-long" : null },
      h("th", { scope: "row" }, r.label, r.long ? h("span", { class: "long-mark" }, " ran long in rehearsal") : null),
      hasPlan ? h("td", {}, clock(r.planned)) : null,
      h("td", { class: hasPlan && r.planned !== null && Math.round(r.seconds) > Math.round(r.planned) && r.seconds > 0 ? "is-over" : null }, formatClock(Math.round(r.seconds))),
      hasPrevious ? h("td", {}, clock(r.previous)) : null,
    ),
  );
  replace(table, h("thead", {}, head), h("tbody", {}, ...body));
  replace(summary, timesSummary(rows, plan));
}
