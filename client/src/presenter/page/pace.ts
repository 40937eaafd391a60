/**
 * @module client/presenter/page/pace
 * The pace in this window. The plan in force (../../record/pace.ts) from what the deck has: its
 * last rehearsal recording (`session.rehearsal`), the previous run of the timer, the duration
 * or end time from pdfpc (as the timer applies them); the pace line under the clocks and the
 * long-slide marker by the counter, redrawn with the clocks; and the *Slide times* panel —
 * the choice of plan, the chart of this run against it, the table and the CSV.
 */
import { $, replace } from "../../lib/dom.ts";
import { saveFile } from "../../lib/download.ts";
import { formatClock } from "../../lib/format.ts";
import { elapsedSeconds } from "../../lib/timer.ts";
import { choosePlan, longSlides, rehearsalRun, slideSeconds, talkBudget, talkSlides, type PlanInputs } from "../../record/pace.ts";
import { recordingSlideSeconds, type RehearsalTimeline } from "../../record/rehearsal.ts";
import type { DeckLayout } from "../deck-layout.ts";
import { exportName } from "../export.ts";
import { slideTimesNow } from "../navigation.ts";
import type { PaceChoice, PresenterState } from "../state.ts";
import { paceChart } from "../views/pace-chart-view.ts";
import { renderPace, type PaceView } from "../views/pace-view.ts";
import { renderTimes, timeRows, timesCsv, type TimeRow } from "../views/times-view.ts";
import { presenter } from "./presenter.ts";
import { session, timerSettings } from "./session.ts";

/** The rehearsal's seconds per slide, cut once per recording and layout (a timeline may hold thousands of events). */
let cut: { rehearsal: RehearsalTimeline; layout: DeckLayout; seconds: number[] } | null = null;

function rehearsalSeconds(): number[] | null {
  const rehearsal = session.rehearsal;
  if (!rehearsal) return null;
  if (cut?.rehearsal !== rehearsal || cut.layout !== session.layout) cut = { rehearsal, layout: session.layout, seconds: recordingSlideSeconds(rehearsal.events, session.layout, rehearsal.durationMs) };
  return cut.seconds;
}

function planInputs(state: PresenterState, now: number): PlanInputs {
  const layout = session.layout;
  const count = layout.slides.length;
  return {
    rehearsal: rehearsalSeconds(),
    previousRun: state.slideTimes.previous ? slideSeconds(state.slideTimes.previous, count) : null,
    budget: talkBudget(timerSettings(), elapsedSeconds(state.timer, now), new Date(now)),
    talk: talkSlides(layout),
    slideCount: count,
  };
}

const NONE: ReadonlySet<number> = new Set();

/** The plan in force now, and the run whose long slides are marked (none while pacing is off). */
export function paceNow(state: PresenterState = presenter.current, now = Date.now()): PaceView {
  const inputs = planInputs(state, now);
  const plan = choosePlan(state.pace, inputs);
  const run = plan ? rehearsalRun(inputs) : null;
  return { plan, rehearsal: run?.perSlide ?? null, long: run ? longSlides(run.perSlide) : NONE };
}

/** The pace line and the counter's long-slide marker, for this moment. */
export function renderPaceLine(state: PresenterState = presenter.current) {
  renderPace({ box: $("#pace-box"), value: $("#pace"), long: $("#pace-long") }, paceNow(state), session.layout, state.timer, state.page);
}

/** The slide times as they stand now (the current slide's time still running), against the plan. */
function currentTimeRows(state: PresenterState): { rows: TimeRow[]; view: PaceView } {
  const now = Date.now();
  const view = paceNow(state, now);
  return { rows: timeRows(session.layout, slideTimesNow(state, session.layout, now), state.slideTimes.previous, view.plan, view.long), view };
}

/** What each choice would pace by, beside its radio button. */
function choiceHints(state: PresenterState) {
  const inputs = planInputs(state, Date.now());
  const run = rehearsalRun(inputs);
  const rehearsal = !run ? "none yet: run through the talk with the timer, then Reset (R)" : run.source === "rehearsal" ? `recorded, ${formatClock(Math.round(run.total))}` : `the previous run, ${formatClock(Math.round(run.total))}`;
  replace($("#pace-rehearsal-hint"), `(${rehearsal})`);
  const budget = inputs.budget;
  replace($("#pace-duration-hint"), budget === null ? "(the deck gives none: set one under ? → This deck)" : `(${formatClock(Math.round(budget))}, spread by the rehearsal's proportions${run ? "" : " — evenly without one"})`);
}

/** The *Slide times* panel: the choice, the chart and the table, as they stand now. */
export function renderTimesPanel(state: PresenterState = presenter.current) {
  for (const radio of document.querySelectorAll<HTMLInputElement>("input[name='pace']")) radio.checked = radio.value === state.pace;
  choiceHints(state);
  const { rows, view } = currentTimeRows(state);
  renderTimes($("#times-table"), $("#times-summary"), rows, view.plan);
  const chart = $("#times-chart");
  const drawn = rows.some((r) => r.seconds > 0 || (r.planned ?? 0) > 0);
  chart.hidden = !drawn;
  if (drawn) replace(chart, paceChart(rows, view.plan !== null));
  else replace(chart);
}

export function wirePace() {
  for (const radio of document.querySelectorAll<HTMLInputElement>("input[name='pace']")) {
    radio.addEventListener("change", () => {
      if (radio.checked) presenter.dispatch("pace", radio.value as PaceChoice);
    });
  }
  $("#times-csv").addEventListener("click", () => {
    const name = exportName(session.deck.title, false).replace(/\.pdf$/, " — slide times.csv");
    saveFile(timesCsv(currentTimeRows(presenter.current).rows), name, "text/csv");
  });
}
