/**
 * @module client/presenter/views/pace-chart-view
 * The picture of a run against its plan, in the *Slide times* panel: one row per slide, a
 * thin bar for the plan's time and a thick one for this run's (amber past the plan), a
 * marker where the rehearsal ran long, and a time axis. An SVG built with DOM APIs (labels
 * from the PDF go in as text), named by its title and description; the table beside it
 * (./times-view.ts) is its text alternative. `chartGeometry` is the pure part: where every
 * bar goes.
 */
import { append, svg } from "../../lib/dom.ts";
import { formatClock } from "../../lib/format.ts";
import type { TimeRow } from "./times-view.ts";

/** The chart's own width (viewBox units): about the panel's width in CSS pixels, so its text is drawn near its set size. */
const WIDTH = 560;
/** Height of one slide's row: a planned bar and an actual bar with a gap. */
const ROW = 28;
/** Room above the rows for the legend and the time axis. */
const TOP = 48;
/** Room at the left for a slide's label (seven characters) and the long marker. */
const PLOT_X = 70;
/** Room at the right for this run's time after the bar. */
const RIGHT = 52;
/** Labels longer than this are cut with an ellipsis (the row's tooltip and the table have them whole). */
const LABEL_CHARS = 7;
/** Axis steps in seconds: the first that gives at most MAX_TICKS intervals is used. */
const TICK_STEPS = [5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];
/** Intervals on the axis: enough to read a bar's length, few enough to label. */
const MAX_TICKS = 6;

export interface ChartBar {
  label: string;
  /** Top of the row. */
  y: number;
  /** Bar lengths in chart units: the plan's, this run's up to the plan, and past the plan. */
  planned: number;
  actual: number;
  over: number;
  long: boolean;
  /** The row as a sentence (its tooltip). */
  text: string;
}

export interface ChartGeometry {
  width: number;
  height: number;
  plotX: number;
  plotWidth: number;
  /** Axis marks: x in chart units, and the seconds they stand for. */
  ticks: { x: number; seconds: number }[];
  bars: ChartBar[];
}

/** The axis: its step and its end (a whole number of steps at or past the longest bar). */
export function chartAxis(maxSeconds: number): { step: number; end: number } {
  const max = Math.max(1, maxSeconds);
  const step = TICK_STEPS.find((s) => max / s <= MAX_TICKS) ?? Math.ceil(max / MAX_TICKS / 3600) * 3600;
  return { step, end: Math.ceil(max / step) * step };
}

function rowText(r: TimeRow): string {
  const planned = r.planned === null ? "" : `planned ${formatClock(Math.round(r.planned))}, `;
  return `Slide ${r.label}: ${planned}this run ${formatClock(Math.round(r.seconds))}${r.long ? " — ran long in the rehearsal" : ""}`;
}

/** Where every bar goes: rows top to bottom in slide order, lengths on one time axis. */
export function chartGeometry(rows: readonly TimeRow[]): ChartGeometry {
  const plotWidth = WIDTH - PLOT_X - RIGHT;
  const axis = chartAxis(Math.max(0, ...rows.map((r) => Math.max(r.seconds, r.planned ?? 0))));
  const scale = plotWidth / axis.end;
  const ticks: ChartGeometry["ticks"] = [];
  for (let s = 0; s <= axis.end; s += axis.step) ticks.push({ x: PLOT_X + s * scale, seconds: s });
  const bars = rows.map((r, i): ChartBar => {
    const planned = r.planned ?? 0;
    const within = r.planned === null ? r.seconds : Math.min(r.seconds, planned);
    const label = r.label.length > LABEL_CHARS ? `${r.label.slice(0, LABEL_CHARS - 1)}…` : r.label;
    return { label, y: TOP + i * ROW, planned: planned * scale, actual: within * scale, over: (r.seconds - within) * scale, long: r.long, text: rowText(r) };
  });
  return { width: WIDTH, height: TOP + rows.length * ROW + 6, plotX: PLOT_X, plotWidth, ticks, bars };
}

/** The legend's spacing: a swatch and its gap, and about one character of its 11-unit text. */
const LEGEND_GAP = 36;
const LEGEND_CHAR = 6.6;

/** The legend's swatches: class and words. */
const LEGEND: readonly [string, string][] = [
  ["bar-planned", "Planned"],
  ["bar-actual", "This run"],
  ["bar-over", "Past the plan"],
];

/**
 * The chart as an SVG element (role img, named by its title and description). `hasPlan`
 * false draws this run alone (nothing to compare with: the legend says only *This run*).
 */
export function paceChart(rows: readonly TimeRow[], hasPlan: boolean, ids = { title: "pace-chart-title", desc: "pace-chart-desc" }): SVGSVGElement {
  const g = chartGeometry(rows);
  const total = (pick: (r: TimeRow) => number) => formatClock(Math.round(rows.reduce((t, r) => t + pick(r), 0)));
  const summary = hasPlan ? `This run took ${total((r) => r.seconds)} against ${total((r) => r.planned ?? 0)} planned.` : `This run took ${total((r) => r.seconds)}.`;
  const root = svg("svg", { class: "pace-chart", viewBox: `0 0 ${g.width} ${g.height}`, role: "img", "aria-labelledby": `${ids.title} ${ids.desc}`, "data-slides": rows.length });
  root.append(
    svg("title", { id: ids.title }, hasPlan ? "Planned and actual time per slide" : "Time per slide"),
    svg("desc", { id: ids.desc }, `One row per slide: ${hasPlan ? "a thin bar for the planned time and a thick one for this run's, amber past the plan" : "a bar for this run's time"}. ${summary} The table has the figures.`),
  );
  let x = g.plotX;
  for (const [cls, words] of hasPlan ? LEGEND : LEGEND.slice(1, 2)) {
    root.append(svg("rect", { class: cls, x, y: 7, width: 14, height: 10, rx: 2 }), svg("text", { class: "chart-text", x: x + 19, y: 16 }, words));
    x += LEGEND_GAP + words.length * LEGEND_CHAR;
  }
  if (rows.some((r) => r.long)) root.append(svg("circle", { class: "long-dot", cx: x + 5, cy: 12, r: 4 }), svg("text", { class: "chart-text", x: x + 14, y: 16 }, "Ran long in the rehearsal"));
  for (const t of g.ticks) {
    root.append(
      svg("line", { class: "chart-grid", x1: t.x, x2: t.x, y1: 40, y2: g.height - 4 }),
      svg("text", { class: "chart-text chart-axis", x: t.x, y: 36, "text-anchor": "middle" }, formatClock(t.seconds)),
    );
  }
  g.bars.forEach((b, i) => {
    const row = svg("g", { class: b.long ? "pace-bars is-long" : "pace-bars", "data-slide": i });
    append(
      row,
      svg("title", {}, b.text),
      svg("text", { class: "chart-label", x: g.plotX - 16, y: b.y + 19, "text-anchor": "end" }, b.label),
      b.long ? svg("circle", { class: "long-dot", cx: g.plotX - 7, cy: b.y + 14, r: 4 }) : null,
      svg("rect", { class: "bar-planned", x: g.plotX, y: b.y + 4, width: b.planned, height: 7, rx: 1.5 }),
      svg("rect", { class: "bar-actual", x: g.plotX, y: b.y + 13, width: b.actual, height: 12, rx: 1.5 }),
      b.over > 0 ? svg("rect", { class: "bar-over", x: g.plotX + b.actual, y: b.y + 13, width: b.over, height: 12, rx: 1.5 }) : null,
      svg("text", { class: "chart-text", x: g.plotX + b.actual + b.over + 4, y: b.y + 24 }, formatClock(Math.round(rows[i]!.seconds))),
    );
    root.append(row);
  });
  return root;
}
