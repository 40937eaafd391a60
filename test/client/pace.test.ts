/**
 * Rehearse and pace (client/record/pace, client/record/rehearsal, the presenter's pace line,
 * slide-times table, CSV and chart), from fixed inputs: the plan from a rehearsal's times, from
 * the deck's duration spread by a rehearsal's proportions or evenly; ahead or behind by the
 * planned stretch of the slide shown, the slide the plan is on, the slides that ran long, the
 * rounding to whole seconds; a rehearsal run with the presenter's own actions becoming the next
 * run's plan; the CSV (planned and actual, quoting, formulas defused); the chart's geometry and
 * its SVG (named, one bar pair per slide, labels as text).
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { TimerSettings } from "../../src/deck/sidecar/types.ts";
import type { TimerState } from "../../client/src/lib/timer.ts";
import { perform, type ActionName } from "../../client/src/presenter/actions.ts";
import { layoutFromLabels, withTalk } from "../../client/src/presenter/deck-layout.ts";
import { initialState, type PresenterState } from "../../client/src/presenter/state.ts";
import { slideTimesNow } from "../../client/src/presenter/navigation.ts";
import { chartAxis, chartGeometry, paceChart } from "../../client/src/presenter/views/pace-chart-view.ts";
import { paceLine } from "../../client/src/presenter/views/pace-view.ts";
import { timeRows, timesCsv, timesSummary } from "../../client/src/presenter/views/times-view.ts";
import {
  choosePlan,
  longSlides,
  paceAt,
  paceText,
  parsePaceChoice,
  planFromBudget,
  planFromRun,
  plannedSlideAt,
  plannedStart,
  planSourceText,
  rehearsalRun,
  slideSeconds,
  talkBudget,
  talkSlides,
  type PlanInputs,
} from "../../client/src/record/pace.ts";
import { lastRehearsal, recordingSlideSeconds } from "../../client/src/record/rehearsal.ts";
import type { TimelineEvent } from "../../client/src/record/timeline.ts";
import { NO_OVERLAYS } from "../../client/src/presenter/state.ts";
import { installFakeDocument, type FakeElement } from "../helpers/fake-dom.ts";

// Five slides over six pages: slide "2" is a build of two pages.
const layout = layoutFromLabels(["1", "2", "2", "3", "4", "5"]);
const labelOf = (i: number) => layout.slides[i]!.label;
// The rehearsal: a minute, two, half a minute, a minute and a half; the last slide not reached.
const REHEARSAL = [60, 120, 30, 90, 0];
const plan = planFromRun("previous-run", REHEARSAL)!;

describe("slide times, one shape", () => {
  test("the timer's booked record and a recording's map (ms) both become seconds by slide index", () => {
    expect(slideSeconds({ 0: 12.5, 3: 4, 9: 7 }, 5)).toEqual([12.5, 0, 0, 4, 0]);
    expect(slideSeconds(new Map([[1, 1500], [4, 250]]), 5, 1 / 1000)).toEqual([0, 1.5, 0, 0, 0.25]);
    // Damaged figures read as nothing rather than poisoning the plan.
    expect(slideSeconds({ 0: Number.NaN, 1: -3, 2: Number.POSITIVE_INFINITY }, 3)).toEqual([0, 0, 0]);
  });

  test("a rehearsal recording's timeline cut by slide: a build is one slide, a slide visited twice adds up", () => {
    const state = (page: number) => ({ type: "state" as const, state: { page, blank: "none" as const, mode: "normal" as const, overlays: NO_OVERLAYS, ink: [], media: {}, frozen: false } });
    const events: TimelineEvent[] = [
      { t: 0, m: state(1) },
      { t: 60_000, m: state(2) },
      { t: 120_000, m: state(3) }, // the build's second page: same slide
      { t: 180_000, m: state(4) },
      { t: 210_000, m: state(2) }, // back to slide "2" for half a minute
      { t: 240_000, m: state(5) },
    ];
    expect(recordingSlideSeconds(events, layout, 300_000)).toEqual([60, 150, 30, 60, 0]);
  });

  test("the last rehearsal: the newest of kind rehearsal with a length, not one still being recorded", () => {
    const r = (kind: "talk" | "rehearsal", createdAt: number, state: "recording" | "interrupted" | "stopped" = "stopped", durationMs = 1000) => ({ id: `${kind}${createdAt}`, kind, createdAt, state, durationMs });
    expect(lastRehearsal([r("rehearsal", 1), r("talk", 5), r("rehearsal", 3), r("rehearsal", 9, "recording"), r("rehearsal", 8, "stopped", 0)])?.id).toBe("rehearsal3");
    expect(lastRehearsal([r("rehearsal", 2, "interrupted")])?.id).toBe("rehearsal2");
    expect(lastRehearsal([r("talk", 1)])).toBeNull();
  });
});

describe("the plan", () => {
  test("from a run: its own times; a run that spent no time is no plan", () => {
    expect(plan).toEqual({ source: "previous-run", perSlide: REHEARSAL, total: 300 });
    expect(planFromRun("rehearsal", [0, 0])).toBeNull();
    expect(planFromRun("rehearsal", null)).toBeNull();
  });

  test("from the deck's duration: spread by the rehearsal's proportions, or evenly over the talk's slides", () => {
    expect(planFromBudget(600, plan, [0, 1, 2, 3, 4], 5)).toEqual({ source: "duration", perSlide: [120, 240, 60, 180, 0], total: 600, spreadBy: "previous-run" });
    expect(planFromBudget(600, null, [0, 1, 2, 3], 5)).toEqual({ source: "duration", perSlide: [150, 150, 150, 150, 0], total: 600, spreadBy: "even" });
    expect(planFromBudget(0, plan, [0], 5)).toBeNull();
    expect(planFromBudget(600, null, [], 5)).toBeNull();
  });

  test("the talk's slides: up to pdfpc's end slide, slides whose every page is hidden left out", () => {
    expect(talkSlides(layout)).toEqual([0, 1, 2, 3, 4]);
    expect(talkSlides(withTalk(layout, { endSlide: 4 }))).toEqual([0, 1, 2, 3]);
    // Page 4 is all of slide "3"; page 2 is only half of slide "2".
    expect(talkSlides(withTalk(layout, { hidden: [4, 2] }))).toEqual([0, 1, 3, 4]);
  });

  test("the talk's length: pdfpc's duration; with an end time only, the time talked plus the time left", () => {
    const now = new Date(2026, 0, 5, 10, 0, 0);
    expect(talkBudget({ durationMinutes: 20 } as TimerSettings, 300, now)).toBe(1200);
    expect(talkBudget({ endTime: "10:30" } as TimerSettings, 300, now)).toBe(2100);
    expect(talkBudget({ endTime: "09:30" } as TimerSettings, 0, now)).toBeNull();
    expect(talkBudget({} as TimerSettings, 300, now)).toBeNull();
  });

  test("the choice falls back to what exists; a recorded rehearsal comes before the previous run", () => {
    const inputs: PlanInputs = { rehearsal: [10, 20, 0, 0, 0], previousRun: REHEARSAL, budget: 600, talk: [0, 1, 2, 3, 4], slideCount: 5 };
    expect(choosePlan("off", inputs)).toBeNull();
    expect(choosePlan("rehearsal", inputs)).toEqual({ source: "rehearsal", perSlide: [10, 20, 0, 0, 0], total: 30 });
    expect(choosePlan("rehearsal", { ...inputs, rehearsal: null })?.source).toBe("previous-run");
    expect(choosePlan("duration", inputs)).toEqual({ source: "duration", perSlide: [200, 400, 0, 0, 0], total: 600, spreadBy: "rehearsal" });
    // Against the rehearsal with none yet: the duration, evenly; against a duration the deck lacks: the rehearsal.
    expect(choosePlan("rehearsal", { ...inputs, rehearsal: null, previousRun: null })).toEqual({ source: "duration", perSlide: [120, 120, 120, 120, 120], total: 600, spreadBy: "even" });
    expect(choosePlan("duration", { ...inputs, budget: null })?.source).toBe("rehearsal");
    expect(choosePlan("rehearsal", { ...inputs, rehearsal: null, previousRun: null, budget: null })).toBeNull();
    expect(rehearsalRun({ rehearsal: null, previousRun: [0, 0] })).toBeNull();
  });

  test("the stored choice reads back; anything else is the rehearsal", () => {
    expect(parsePaceChoice("duration")).toBe("duration");
    expect(parsePaceChoice("off")).toBe("off");
    expect(parsePaceChoice("sideways")).toBe("rehearsal");
    expect(parsePaceChoice(undefined)).toBe("rehearsal");
  });

  test("where it comes from, in words", () => {
    expect(planSourceText(plan)).toBe("the previous run");
    expect(planSourceText({ ...plan, source: "rehearsal" })).toBe("the last rehearsal");
    expect(planSourceText(planFromBudget(600, plan, [0], 5)!)).toBe("the talk's duration, spread by the previous run");
    expect(planSourceText(planFromBudget(600, null, [0], 5)!)).toBe("the talk's duration, spread evenly");
  });
});

describe("the pace during the talk", () => {
  test("the plan's stretch of each slide, and the slide the plan is on at a moment", () => {
    expect([0, 1, 2, 3, 4].map((i) => plannedStart(plan, i))).toEqual([0, 60, 180, 210, 300]);
    expect([0, 59.9, 60, 179, 180, 299.9].map((t) => plannedSlideAt(plan, t))).toEqual([0, 0, 1, 1, 2, 3]);
    // Past the plan's end there is no slide to be on; a slide the plan gives no time is never it.
    expect(plannedSlideAt(plan, 300)).toBeNull();
    expect(plannedSlideAt(planFromRun("rehearsal", [60, 0, 60])!, 60)).toBe(2);
  });

  test("inside the slide's stretch: on pace; past its end: behind by the time since; before its start: ahead by the time until", () => {
    expect(paceAt(plan, 1, 100)).toEqual({ status: "on", seconds: 0, shouldBe: 1 });
    expect(paceAt(plan, 1, 259.6)).toEqual({ status: "behind", seconds: 80, shouldBe: 3 });
    expect(paceAt(plan, 3, 165)).toEqual({ status: "ahead", seconds: 45, shouldBe: 1 });
    expect(paceAt(plan, 3, 400)).toEqual({ status: "behind", seconds: 100, shouldBe: null });
    // The first slide starts at 0: the talk is never ahead there.
    expect(paceAt(plan, 0, 0).status).toBe("on");
  });

  test("rounded to whole seconds: under half a second either way is on pace", () => {
    expect(paceAt(plan, 0, 60.4).status).toBe("on");
    expect(paceAt(plan, 0, 60.5)).toMatchObject({ status: "behind", seconds: 1 });
    expect(paceAt(plan, 3, 209.6).status).toBe("on");
    expect(paceAt(plan, 3, 209.4)).toMatchObject({ status: "ahead", seconds: 1 });
  });

  test("the line says it: how far, and where the talk should be", () => {
    expect(paceText(paceAt(plan, 1, 259.6), labelOf)).toBe("1:20 behind · you should be on slide 4");
    expect(paceText(paceAt(plan, 3, 165), labelOf)).toBe("0:45 ahead · you should be on slide 2");
    expect(paceText(paceAt(plan, 3, 400), labelOf)).toBe("1:40 behind · the plan has ended");
    expect(paceText(paceAt(plan, 1, 100), labelOf)).toBe("On pace");
  });

  test("before the timer first runs the line gives the plan; then the pace", () => {
    const idle: TimerState = { status: "idle", startedAt: null, accumulatedMs: 0 };
    expect(paceLine(plan, idle, 0, 5000, labelOf)).toEqual({ status: "plan", text: "5:00 planned · the previous run" });
    const running: TimerState = { status: "running", startedAt: 1000, accumulatedMs: 0 };
    expect(paceLine(plan, running, 1, 1000 + 259_600, labelOf)).toEqual({ status: "behind", text: "1:20 behind · you should be on slide 4" });
    const paused: TimerState = { status: "paused", startedAt: null, accumulatedMs: 165_000 };
    expect(paceLine(plan, paused, 3, 9_999_999, labelOf)).toEqual({ status: "ahead", text: "0:45 ahead · you should be on slide 2" });
  });

  test("slides that ran long: over half again their even share, and more than 30 s over it", () => {
    // Even share 75 s over the four slides visited: 120 s is over 112.5 and 45 s over the share.
    expect([...longSlides(REHEARSAL)]).toEqual([1]);
    // A short talk: 25 s against a 15 s share is half again, but only 10 s over.
    expect(longSlides([10, 25, 10]).size).toBe(0);
    expect([...longSlides([30, 30, 30, 200])]).toEqual([3]);
    expect(longSlides([0, 0]).size).toBe(0);
  });
});

describe("a rehearsal run with the presenter's actions paces the next run", () => {
  let clock = 0;
  const ctx = () => ({ layout, now: clock });
  const run = (state: PresenterState, ...steps: (ActionName | [ActionName, unknown])[]) =>
    steps.reduce((s, step) => (Array.isArray(step) ? perform(s, step[0], ctx(), step[1]) : perform(s, step, ctx())), state);

  test("timer time booked per slide, reset, a second run: behind and ahead by the first run's times", () => {
    clock = 0;
    let s = run(initialState(), "timerStart");
    // A minute on slide 1, two on slide 2 (both of its pages), half a minute on 3, then 4.
    for (const at of [60_000, 180_000, 210_000]) {
      clock = at;
      s = run(s, "nextSlide");
    }
    clock = 300_000;
    // Back to the title slide (its last 90 s booked to slide "4"), then a new run.
    s = run(s, "first", "timerReset");
    expect(s.slideTimes.previous).toEqual({ 0: 60, 1: 120, 2: 30, 3: 90 });
    const inputs = (state: PresenterState): PlanInputs => ({ rehearsal: null, previousRun: slideSeconds(state.slideTimes.previous!, 5), budget: null, talk: talkSlides(layout), slideCount: 5 });
    const talkPlan = choosePlan(s.pace, inputs(s))!;
    expect(talkPlan).toEqual(plan);
    // The talk: the first slide change starts the timer.
    clock = 1_000_000;
    s = run(s, "nextSlide");
    clock += 259_600;
    const elapsed = (s.timer.accumulatedMs + clock - s.timer.startedAt!) / 1000;
    expect(paceText(paceAt(talkPlan, 1, elapsed), labelOf)).toBe("1:20 behind · you should be on slide 4");
    // The chart's actual figures are this run's, from the same booked times.
    expect(slideTimesNow(s, layout, clock)).toEqual({ 1: 259.6 });
    // Against the duration instead: chosen by name, kept in the state.
    s = run(s, ["pace", "duration"]);
    expect(s.pace).toBe("duration");
    s = run(s, ["pace", "nonsense"]);
    expect(s.pace).toBe("rehearsal");
  });
});

describe("the table and its CSV", () => {
  const rows = timeRows(layout, { 0: 75, 1: 100, 2: 31.04 }, { 0: 60, 1: 120, 2: 30, 3: 90 }, plan, new Set([1]));

  test("rows carry this run, the plan and the previous run by slide; the long slides are marked", () => {
    expect(rows[0]).toEqual({ label: "1", seconds: 75, planned: 60, previous: 60, long: false });
    expect(rows[1]).toEqual({ label: "2", seconds: 100, planned: 120, previous: 120, long: true });
    expect(rows[4]).toEqual({ label: "5", seconds: 0, planned: 0, previous: 0, long: false });
    expect(timeRows(layout, {}, null)[0]).toEqual({ label: "1", seconds: 0, planned: null, previous: null, long: false });
  });

  test("CSV: planned and actual seconds with one decimal, RFC 4180 rows, labels defused and quoted", () => {
    expect(timesCsv(rows)).toBe(
      [
        "slide,label,planned_seconds,actual_seconds,previous_run_seconds,ran_long_in_rehearsal",
        "1,1,60.0,75.0,60.0,",
        "2,2,120.0,100.0,120.0,yes",
        "3,3,30.0,31.0,30.0,",
        "4,4,90.0,0.0,90.0,",
        "5,5,0.0,0.0,0.0,",
        "",
      ].join("\r\n"),
    );
    const hostile = timeRows(layoutFromLabels(["=cmd|' /C calc'!A0", "-1", "a;b", 'say "hi"']), { 0: 1 }, null);
    expect(timesCsv(hostile).split("\r\n").slice(1, 5)).toEqual(["1,'=cmd|' /C calc'!A0,,1.0,,", "2,'-1,,0.0,,", '3,"a;b",,0.0,,', '4,"say ""hi""",,0.0,,']);
  });

  test("the summary: this run against the plan, and where the plan comes from", () => {
    expect(timesSummary(rows, plan)).toBe("3:26 this run against 5:00 planned (the previous run), over 3 slides.");
    expect(timesSummary(timeRows(layout, {}, null), plan)).toBe("Nothing this run yet; 5:00 planned (the previous run). The clock counts while the timer runs.");
    expect(timesSummary(timeRows(layout, {}, null), null)).toBe("No time recorded yet: the clock counts while the timer runs.");
  });
});

describe("the chart", () => {
  const rows = timeRows(layout, { 0: 75, 1: 100, 2: 31 }, null, plan, new Set([1]));

  test("the time axis: a readable step, ending at or past the longest bar", () => {
    expect(chartAxis(300)).toEqual({ step: 60, end: 300 });
    expect(chartAxis(61)).toEqual({ step: 15, end: 75 });
    expect(chartAxis(0)).toEqual({ step: 5, end: 5 });
    expect(chartAxis(5400)).toEqual({ step: 900, end: 5400 });
  });

  test("a row per slide in order; lengths on one scale; the part past the plan apart", () => {
    const g = chartGeometry(rows);
    expect(g.bars.map((b) => b.label)).toEqual(["1", "2", "3", "4", "5"]);
    const unit = g.plotWidth / 120; // the axis ends at 120 s (the longest bar, planned 120 s)
    expect(g.bars[0]).toMatchObject({ planned: 60 * unit, actual: 60 * unit, over: 15 * unit, long: false });
    expect(g.bars[1]).toMatchObject({ planned: 120 * unit, actual: 100 * unit, over: 0, long: true });
    expect(g.bars[1]!.y - g.bars[0]!.y).toBe(g.bars[2]!.y - g.bars[1]!.y);
    expect(g.ticks.map((t) => t.seconds)).toEqual([0, 30, 60, 90, 120]);
    expect(g.ticks.at(-1)!.x).toBeCloseTo(g.plotX + g.plotWidth);
    expect(g.bars[1]!.text).toBe("Slide 2: planned 2:00, this run 1:40 — ran long in the rehearsal");
    // Without a plan the whole run is one bar.
    expect(chartGeometry(timeRows(layout, { 0: 75 }, null))).toMatchObject({ bars: [{ actual: expect.any(Number), over: 0 }, {}, {}, {}, {}] });
  });

  let uninstall: (() => void) | null = null;
  afterEach(() => {
    uninstall?.();
    uninstall = null;
  });

  test("an SVG named by its title and description, one planned and one actual bar per slide, labels as text", () => {
    const fake = installFakeDocument();
    uninstall = fake.uninstall;
    const hostile = timeRows(layoutFromLabels(["<img src=x onerror=alert(1)>", "2"]), { 0: 10, 1: 20 }, null, planFromRun("rehearsal", [15, 15]));
    const root = paceChart(hostile, true) as unknown as FakeElement;
    expect(root.tagName).toBe("svg");
    expect(root.namespaceURI).toBe("http://www.w3.org/2000/svg");
    expect(root.getAttribute("role")).toBe("img");
    expect(root.getAttribute("aria-labelledby")).toBe("pace-chart-title pace-chart-desc");
    const all = root.descendants();
    expect(all.find((e) => e.getAttribute("id") === "pace-chart-title")?.textContent).toBe("Planned and actual time per slide");
    expect(all.find((e) => e.getAttribute("id") === "pace-chart-desc")?.textContent).toContain("This run took 0:30 against 0:30 planned.");
    const groups = all.filter((e) => e.tagName === "g" && e.getAttribute("class")?.startsWith("pace-bars"));
    expect(groups.map((g) => g.getAttribute("data-slide"))).toEqual(["0", "1"]);
    for (const g of groups) {
      expect(g.descendants().filter((e) => e.getAttribute("class") === "bar-planned")).toHaveLength(1);
      expect(g.descendants().filter((e) => e.getAttribute("class") === "bar-actual")).toHaveLength(1);
    }
    // Slide "2" took 20 s against 15 planned: 5 s of it past the plan.
    expect(groups[1]!.descendants().filter((e) => e.getAttribute("class") === "bar-over")).toHaveLength(1);
    // The hostile label is text (cut to the label's room), never an element.
    expect(fake.doc.created).not.toContain("img");
    expect(groups[0]!.descendants().find((e) => e.getAttribute("class") === "chart-label")?.textContent).toBe("<img s…");
    expect(groups[0]!.descendants().find((e) => e.tagName === "title")?.textContent).toBe("Slide <img src=x onerror=alert(1)>: planned 0:15, this run 0:10");
  });

  test("without a plan: this run alone, and the title says so", () => {
    const fake = installFakeDocument();
    uninstall = fake.uninstall;
    const root = paceChart(timeRows(layout, { 0: 10 }, null), false) as unknown as FakeElement;
    const all = root.descendants();
    expect(all.find((e) => e.tagName === "title")?.textContent).toBe("Time per slide");
    expect(all.filter((e) => e.getAttribute("class") === "bar-over")).toHaveLength(0);
    expect(all.some((e) => e.textContent === "Planned")).toBe(false);
  });
});

