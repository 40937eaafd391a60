/**
 * @module client/presenter/views/times-view
 * Rehearsal (pdfpc keeps only the countdown): the time spent on each slide in this run,
 * next to the previous run's, as a table the presenter can read between runs and export as
 * CSV to pace the next one.
 */
import { h, replace } from "../../lib/dom.ts";
import { formatClock } from "../../lib/format.ts";
import type { DeckLayout } from "../deck-layout.ts";

export interface TimeRow {
  label: string;
  seconds: number;
  previous: number | null;
}

export function timeRows(layout: DeckLayout, current: Record<number, number>, previous: Record<number, number> | null): TimeRow[] {
  return layout.slides.map((slide, i) => ({ label: slide.label, seconds: current[i] ?? 0, previous: previous ? (previous[i] ?? 0) : null }));
}

/** CSV for a spreadsheet: one row per slide, seconds with one decimal (RFC 4180 quoting). */
export function timesCsv(rows: readonly TimeRow[]): string {
  const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const lines = ["slide,label,seconds,previous_run_seconds", ...rows.map((r, i) => [String(i + 1), quote(r.label), r.seconds.toFixed(1), r.previous === null ? "" : r.previous.toFixed(1)].join(","))];
  return lines.join("\r\n") + "\r\n";
}

export function renderTimes(table: HTMLElement, summary: HTMLElement, rows: readonly TimeRow[]): void {
  const total = rows.reduce((t, r) => t + r.seconds, 0);
  const hasPrevious = rows.some((r) => r.previous !== null);
  const head = h("tr", {}, h("th", { scope: "col" }, "Slide"), h("th", { scope: "col" }, "This run"), hasPrevious ? h("th", { scope: "col" }, "Previous run") : null);
  const body = rows.map((r) =>
    h("tr", {}, h("th", { scope: "row" }, r.label), h("td", {}, formatClock(Math.round(r.seconds))), hasPrevious ? h("td", {}, r.previous === null ? "—" : formatClock(Math.round(r.previous))) : null),
  );
  replace(table, h("thead", {}, head), h("tbody", {}, ...body));
  replace(summary, total > 0 ? `${formatClock(Math.round(total))} in total over ${rows.filter((r) => r.seconds > 0).length} slides.` : "No time recorded yet: the clock counts while the timer runs.");
}
