/**
 * Rehearse and pace end to end, against the compiled binary, in every engine (Chromium,
 * Firefox ESR, WebKit): before any run the plan is the deck's pdfpc duration spread evenly; a
 * rehearsal with the running timer (real short waits) is shown as a chart against that plan and
 * exported as CSV; reset, it becomes the plan of the talk that follows, whose pace line says
 * ahead and behind — checked against the plan computed from the page's own state — the chart
 * after the talk has one bar pair per slide, the CSV carries planned and actual seconds, and the
 * choice of plan (duration, none) changes the line and is kept across a reload.
 *
 * Chromium also runs the rehearsal and the talk on Playwright's clock, paused and moved by
 * exact amounts: a minute, two, half a minute, a minute and a half and ten seconds per slide,
 * then the talk's exact lines ("1:20 behind · you should be on slide 4"), the slide the
 * rehearsal ran long on marked by the counter and in the overview, the exact CSV, and the
 * duration plan spread by the rehearsal's proportions. Screenshots of the pace line and the
 * charts go to test-output/stage-pace/<engine>/.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { elapsedSeconds, type TimerState } from "../../client/src/lib/timer.ts";
import { choosePlan, paceAt, paceText, slideSeconds, talkSlides } from "../../client/src/record/pace.ts";
import { layoutFromLabels } from "../../client/src/model/deck-layout.ts";
import { seriousViolations } from "../helpers/axe.ts";
import { catchDownloads, downloaded } from "../helpers/downloads.ts";
import { engineSuite, presentPdf } from "../helpers/e2e-suite.ts";
import { ENGINES, type Engine, type EnginePage } from "../helpers/engine.ts";
import { openPresenter, pressToPage, tap } from "../helpers/stage.ts";
import { makePaceDeck, PACE_DURATION_MINUTES, PACE_LABELS } from "../fixtures/pace-deck.ts";
import { OUTPUT } from "../fixtures/stage-deck.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

const STEP_MS = 180_000;
const it = (name: string, fn: () => Promise<void>) => test(name, fn, STEP_MS);

const layout = layoutFromLabels(PACE_LABELS);
const SLIDES = layout.slides.length;
const labelOf = (i: number) => layout.slides[i]!.label;

/** What the presenter shows and holds at one moment, read in one go. */
interface Snapshot {
  text: string;
  status: string;
  hidden: boolean;
  timer: TimerState;
  previous: Record<number, number> | null;
  page: number;
  now: number;
}

const snapshot = (page: EnginePage) =>
  page.evaluate((): Snapshot => {
    const s = (window as unknown as { __deckhand: { state(): { timer: TimerState; slideTimes: { previous: Record<number, number> | null }; page: number } } }).__deckhand.state();
    const box = document.querySelector<HTMLElement>("#pace-box")!;
    return { text: document.querySelector("#pace")!.textContent ?? "", status: box.dataset.pace ?? "", hidden: box.hasAttribute("hidden"), timer: s.timer, previous: s.slideTimes.previous, page: s.page, now: Date.now() };
  });

/**
 * The line the plan (the previous run, or the deck's duration spread by it) gives for the page's
 * own timer, slide and previous run at time `at` — computed here by client/record/pace.
 */
function expectedLine(snap: Snapshot, at: number, choice: "rehearsal" | "duration" = "rehearsal"): string {
  const plan = choosePlan(choice, { rehearsal: null, previousRun: slideSeconds(snap.previous ?? {}, SLIDES), budget: PACE_DURATION_MINUTES * 60, talk: talkSlides(layout), slideCount: SLIDES })!;
  return paceText(paceAt(plan, layout.slideOfPage[snap.page - 1]!, elapsedSeconds(snap.timer, at)), labelOf);
}

/**
 * The pace line says what the plan says for this moment. The line is redrawn with the clocks
 * (every half second), so it may be the one of up to half a second ago.
 */
async function expectPaceLine(page: EnginePage, status: string, choice: "rehearsal" | "duration" = "rehearsal"): Promise<Snapshot> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const snap = await snapshot(page);
    const fits = [0, 250, 500, 600].map((ago) => expectedLine(snap, snap.now - ago, choice));
    if ((snap.status === status && fits.includes(snap.text)) || Date.now() > deadline) {
      expect({ status: snap.status, text: snap.text }).toEqual({ status, text: fits.includes(snap.text) ? snap.text : fits[0]! });
      return snap;
    }
    await Bun.sleep(150);
  }
}

/** The chart in the Slide times panel: its name, and per slide the number of planned and actual bars. */
const chartOf = (page: EnginePage) =>
  page.evaluate(() => {
    const svg = document.querySelector("#times-chart svg.pace-chart");
    const ids = (svg?.getAttribute("aria-labelledby") ?? "").split(" ");
    return {
      shown: !!svg && !document.querySelector("#times-chart")!.hasAttribute("hidden"),
      role: svg?.getAttribute("role") ?? null,
      name: ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" | "),
      bars: Array.from(document.querySelectorAll("#times-chart g.pace-bars")).map((g) => [g.querySelectorAll("rect.bar-planned").length, g.querySelectorAll("rect.bar-actual").length]),
      long: Array.from(document.querySelectorAll("#times-chart g.pace-bars.is-long")).map((g) => g.getAttribute("data-slide")),
    };
  });

/** The CSV's rows as cells (no cell here holds a comma). */
const csvRows = (text: string) => text.trim().split("\r\n").map((line) => line.split(","));

for (const name of ENGINES) {
  describe(`rehearse and pace in ${name}`, () => {
    const shots = join(OUTPUT, "stage-pace", name);
    const suite = engineSuite(name, { shots, launch: { viewport: { width: 1440, height: 900 } }, timeoutMs: STEP_MS });
    let presenter = suite.page;
    let deckId = "";
    const shot = (n: string) => presenter.screenshot(join(shots, `${n}.png`));
    const go = (chord: string, page: number) => pressToPage(presenter, chord, page);
    const openTimes = async () => {
      await tap(presenter, "#btn-times");
      await presenter.waitFor("the Slide times panel", () => document.body.dataset.panel === "times" && document.querySelectorAll("#times-table tbody tr").length === 5);
    };
    const closeTimes = async () => {
      await presenter.press("Escape");
      await presenter.waitFor("the Slide times panel closed", () => document.body.dataset.panel === "none");
    };
    const exportCsv = async (index: number) => {
      await tap(presenter, "#times-csv");
      await presenter.waitFor("the CSV offered", (i: number) => ((window as unknown as { __downloads?: unknown[] }).__downloads?.length ?? 0) > i, [index]);
      const file = await downloaded(presenter, index);
      expect(file.name).toBe("Pace — slide times.csv");
      return csvRows(file.bytes.toString("utf8"));
    };
    /** Choose the plan, and wait until it is stored too: a window closed before that reopens with the choice before. */
    const choose = async (value: string) => {
      await tap(presenter, `input[name='pace'][value='${value}']`);
      await presenter.waitFor(`the plan ${value}, stored`, (v: string) => (window as unknown as { __deckhand: { state(): { pace: string } } }).__deckhand.state().pace === v && document.body.dataset.savedPace === v, [value]);
    };

    it("before any run: the plan is the deck's 10 minutes spread evenly, said under the clocks", async () => {
      const handoff = await presentPdf(suite.server.url, await makePaceDeck(), "Pace.pdf");
      await openPresenter(presenter, handoff.url);
      deckId = (await presenter.href()).split("/").pop()!;
      await presenter.waitFor("the pace line with the deck's duration", () => document.querySelector("#pace")?.textContent === "10:00 planned · the talk's duration, spread evenly" || `${document.querySelector("#pace")?.textContent}`);
      expect(await presenter.evaluate(() => document.querySelector<HTMLElement>("#pace-box")!.dataset.pace)).toBe("plan");
    });

    it("a rehearsal with the timer: the chart against the duration's even plan, one bar pair per slide, and its CSV", async () => {
      await presenter.press("s");
      await presenter.waitFor("the timer running", () => document.querySelector("#elapsed")?.getAttribute("data-status") === "running");
      const waits = [2000, 2000, 2000, 1000, 8000];
      const pages = [2, 4, 5, 6];
      for (let i = 0; i < waits.length; i++) {
        await Bun.sleep(waits[i]!);
        if (pages[i]) await go("Shift+ArrowRight", pages[i]!);
      }
      await catchDownloads(presenter);
      await openTimes();
      const chart = await chartOf(presenter);
      expect(chart).toMatchObject({ shown: true, role: "img", bars: [[1, 1], [1, 1], [1, 1], [1, 1], [1, 1]] });
      expect(chart.name).toStartWith("Planned and actual time per slide | One row per slide");
      expect(await presenter.evaluate(() => document.querySelector("#times-summary")?.textContent)).toMatch(/^0:[1-3]\d this run against 10:00 planned \(the talk's duration, spread evenly\), over 5 slides\.$/);
      await shot("01-rehearsal-chart");
      expect(await seriousViolations(presenter)).toEqual([]);
      const rows = await exportCsv(0);
      expect(rows[0]).toEqual(["slide", "label", "planned_seconds", "actual_seconds", "previous_run_seconds", "ran_long_in_rehearsal"]);
      expect(rows.slice(1).map((r) => r[2])).toEqual(["120.0", "120.0", "120.0", "120.0", "120.0"]);
      const actual = rows.slice(1).map((r) => Number(r[3]));
      // Each slide's booked time is about its wait (a key press through WebDriver, on a loaded machine, adds a second or more).
      // The last slide's time still runs (the panel shows this run as it stands).
      actual.forEach((seconds, i) => {
        expect(seconds).toBeGreaterThanOrEqual(waits[i]! / 1000 - 0.3);
        if (i < 4) expect(seconds).toBeLessThan(waits[i]! / 1000 + 4);
      });
      await closeTimes();
      // Reset: this run becomes the previous one, the plan of the next.
      await presenter.press("r");
      await presenter.waitFor("the timer reset", () => document.querySelector("#elapsed")?.getAttribute("data-status") === "idle");
      const snap = await snapshot(presenter);
      const kept = slideSeconds(snap.previous!, SLIDES);
      expect(kept.slice(0, 4).map((s) => s.toFixed(1))).toEqual(rows.slice(1, 5).map((r) => r[3]!));
      // The last slide's time ran on while the panel was open, until the reset.
      expect(kept[4]).toBeGreaterThanOrEqual(actual[4]! - 0.05);
      expect(snap.text).toMatch(/^0:[1-3]\d planned · the previous run$/);
    });

    it("the talk against the rehearsal: ahead when a slide is reached early, behind once its planned time is over", async () => {
      // The first slide change starts the talk's timer; a jump to slide 4 at once is early.
      await go("Home", 1);
      await presenter.press("4");
      await go("Enter", 5);
      const ahead = await expectPaceLine(presenter, "ahead");
      // Reached within a second or two, while the plan is still on slide 1 (2 on a slow machine).
      expect(ahead.text).toMatch(/^0:0\d ahead · you should be on slide [12]$/);
      await shot("02-talk-ahead");
      // Slide 4's planned end is the rehearsal's first four slides (about 7 s): wait past it,
      // while the plan is on slide 5 (its 8 s).
      const previous = slideSeconds(ahead.previous!, SLIDES);
      const end = previous[0]! + previous[1]! + previous[2]! + previous[3]!;
      await presenter.waitFor("behind", (e: number) => {
        const s = (window as unknown as { __deckhand: { state(): { timer: TimerState } } }).__deckhand.state().timer;
        const elapsed = (s.accumulatedMs + (s.status === "running" ? Date.now() - s.startedAt! : 0)) / 1000;
        return elapsed > e + 1.6;
      }, [end], 20_000);
      const behind = await expectPaceLine(presenter, "behind");
      expect(behind.text).toMatch(/^0:0\d behind · you should be on slide 5$/);
      await shot("03-talk-behind");
    });

    it("after the talk: the chart of the plan against this run, the CSV with planned and actual seconds", async () => {
      await openTimes();
      const chart = await chartOf(presenter);
      expect(chart).toMatchObject({ shown: true, role: "img", bars: [[1, 1], [1, 1], [1, 1], [1, 1], [1, 1]] });
      await shot("04-talk-chart");
      const rows = await exportCsv(1);
      const snap = await snapshot(presenter);
      // Planned: the rehearsal (the previous run), to the tenth; actual: this run — slides 2 and 3 skipped.
      expect(rows.slice(1).map((r) => r[2])).toEqual(slideSeconds(snap.previous!, SLIDES).map((s) => s.toFixed(1)));
      expect(rows.slice(1).map((r) => r[4])).toEqual(rows.slice(1).map((r) => r[2]));
      const actual = rows.slice(1).map((r) => Number(r[3]));
      expect(actual[1]).toBe(0);
      expect(actual[2]).toBe(0);
      expect(actual[3]).toBeGreaterThan(7);
      await closeTimes();
    });

    it("the plan's choice: the duration spread by the rehearsal, kept across a reload; nothing hides the line", async () => {
      await openTimes();
      await choose("duration");
      await closeTimes();
      await expectPaceLine(presenter, "ahead", "duration");
      await presenter.goto(await presenter.href());
      await presenter.waitFor("the presenter reloaded", () => document.body.dataset.ready === "true" && document.body.dataset.extras === "ready", [], 45_000);
      await expectPaceLine(presenter, "ahead", "duration");
      await openTimes();
      expect(await presenter.evaluate(() => document.querySelector<HTMLInputElement>("input[name='pace'][value='duration']")!.checked)).toBe(true);
      await choose("off");
      expect(await presenter.evaluate(() => document.querySelector("#pace-box")!.hasAttribute("hidden"))).toBe(true);
      await choose("rehearsal");
      await closeTimes();
      await expectPaceLine(presenter, "behind");
      // Back to an idle timer for what follows, stored: the next test closes this window.
      await presenter.press("r");
      await presenter.waitFor("the timer reset and stored", () => document.querySelector("#elapsed")?.getAttribute("data-status") === "idle" && document.body.dataset.savedTimer === "idle" && document.body.dataset.savedPace === "rehearsal");
    });

    if (name !== "chromium") return;

    it("on Playwright's clock: the exact lines, the slide the rehearsal ran long on, the exact CSV, the duration spread by the rehearsal", async () => {
      const raw = (suite.engine as Engine & { raw: Page }).raw;
      const clock = raw.context().clock;
      // The clock goes into every page of the context opened from now on: a fresh presenter.
      await presenter.close();
      await clock.install();
      presenter = await suite.engine.newPage();
      await presenter.goto(`${suite.server.url}/present/${deckId}`);
      await presenter.waitFor("the presenter reopened", () => document.body.dataset.ready === "true" && document.body.dataset.extras === "ready", [], 45_000);
      await go("Home", 1);
      await presenter.press("r");
      await clock.pauseAt(Date.now() + 60_000);
      const line = (text: string) => presenter.waitFor(`the pace line "${text}"`, (t: string) => document.querySelector("#pace")?.textContent === t || `${document.querySelector("#pace")?.textContent}`, [text]);

      // The rehearsal: 60 s, 120 s, 30 s, 90 s and 10 s on the five slides.
      await presenter.press("s");
      for (const [seconds, chord, page] of [[60, "Shift+ArrowRight", 2], [120, "Shift+ArrowRight", 4], [30, "Shift+ArrowRight", 5], [90, "Shift+ArrowRight", 6], [10, "Home", 1]] as const) {
        await clock.fastForward(seconds * 1000);
        await go(chord, page);
      }
      await presenter.press("r");
      await line("5:10 planned · the previous run");

      // The talk, started on the title slide.
      await presenter.press("s");
      await clock.fastForward(30_000);
      await line("On pace");
      await go("Shift+ArrowRight", 2);
      await line("0:30 ahead · you should be on slide 1");
      // Slide 2 took 120 s of the rehearsal's 310: over half again its 62 s share, 58 s over it.
      expect(await presenter.evaluate(() => document.querySelector("#pace-long")?.hasAttribute("hidden") === false && document.querySelector("#pace-long")?.textContent)).toBe("Ran long in rehearsal: 2:00");
      await clock.fastForward(230_000);
      await line("1:20 behind · you should be on slide 4");
      await shot("05-clock-behind");
      await presenter.press("o");
      await presenter.waitFor("the overview marks slide 2", () => document.querySelectorAll("#overview-grid li.is-long").length === 1 && document.querySelectorAll("#overview-grid li")[1]!.classList.contains("is-long") && (document.querySelectorAll("#overview-grid .thumb-num")[1]!.textContent ?? "").endsWith("— ran long in rehearsal"));
      await shot("06-clock-overview-long");
      await presenter.press("Escape");
      await go("Shift+ArrowRight", 4);
      await line("0:50 behind · you should be on slide 4");
      expect(await presenter.evaluate(() => document.querySelector("#pace-long")!.hasAttribute("hidden"))).toBe(true);
      await go("Shift+ArrowRight", 5);
      await line("On pace");
      await go("Shift+ArrowRight", 6);
      await line("0:40 ahead · you should be on slide 4");
      await clock.fastForward(100_000);
      await line("0:50 behind · the plan has ended");

      await catchDownloads(presenter);
      await openTimes();
      const chart = await chartOf(presenter);
      expect(chart).toMatchObject({ shown: true, bars: [[1, 1], [1, 1], [1, 1], [1, 1], [1, 1]], long: ["1"] });
      expect(chart.name).toContain("This run took 6:00 against 5:10 planned.");
      await shot("07-clock-chart");
      const rows = await exportCsv(0);
      expect(rows.slice(1)).toEqual([
        ["1", "1", "60.0", "30.0", "60.0", ""],
        ["2", "2", "120.0", "230.0", "120.0", "yes"],
        ["3", "3", "30.0", "0.0", "30.0", ""],
        ["4", "4", "90.0", "0.0", "90.0", ""],
        ["5", "5", "10.0", "100.0", "10.0", ""],
      ]);
      // Against the deck's 10 minutes spread by the rehearsal: slide 5 starts at 600 × 300/310 s.
      await choose("duration");
      await line("3:41 ahead · you should be on slide 3");
      expect(await presenter.evaluate(() => document.querySelector("#times-summary")?.textContent)).toBe("6:00 this run against 10:00 planned (the talk's duration, spread by the previous run), over 3 slides.");
      await shot("08-clock-chart-duration");
      await choose("rehearsal");
      await closeTimes();
      await shot("09-clock-pace-line");

      // On a phone on its side, on the slide that ran long (the clock running again, so the
      // window lays itself out): the marker is short and the footer's controls stand apart.
      await presenter.press("2");
      await go("Enter", 2);
      await clock.resume();
      await presenter.resize(844, 390);
      await Bun.sleep(800);
      const footer = await presenter.evaluate(() => ["#btn-prev", ".counter", "#btn-goto", "#btn-next"].map((s) => {
        const r = document.querySelector(s)!.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      }));
      for (let i = 1; i < footer.length; i++) expect(footer[i]!.left).toBeGreaterThanOrEqual(footer[i - 1]!.right);
      for (const box of footer) expect(box.right <= 844 && box.bottom <= 390 && box.left >= 0).toBe(true);
      expect(await presenter.evaluate(() => (document.querySelector("#pace-long") as HTMLElement).innerText)).toBe("Ran long: 2:00");
      await shot("10-clock-phone-long-slide");
      await presenter.resize(1440, 900);
    });
  });
}
