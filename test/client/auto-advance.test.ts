/**
 * Pages that advance by themselves (`/Dur`), as pdfpc does it, without a browser: the plan
 * (only while the talk's timer runs, not for a frozen audience, hidden pages passed by), the
 * `autoAdvance` action (only from the page it was armed on; a typed number survives it), the
 * one-timer scheduler on an injected clock (a page change re-arms, a pause drops, a resume
 * waits the whole duration again), a key press during a run (→ skips a step and the run goes
 * on, ← steps back and the run starts over there, a jump out ends it), the timer and slide
 * times, and the next-step preview passing timed steps by. Also the slide grouping a .pdfpc
 * gives a deck without labels, as the presenter's counter, go-to and previews see it.
 */
import { describe, expect, test } from "bun:test";
import { perform, type ActionContext, type ActionName } from "../../client/src/presenter/actions.ts";
import { AutoAdvance, autoAdvancePlan, type WaitClock } from "../../client/src/presenter/auto-advance.ts";
import { layoutFromLabels, nextStepPage, openedLayout, pageForLabel, positionOf, previewPage, withTalk, type DeckLayout } from "../../client/src/model/deck-layout.ts";
import { slideTimesNow } from "../../client/src/presenter/navigation.ts";
import { initialState, type PresenterState } from "../../client/src/presenter/state.ts";
import { groupedLabels } from "../../src/deck/slide-groups.ts";

/** pdfpc's demo, in small: frame 1 (page 1), frame 2 = pages 2–8 with pages 3–7 at 0.2 s, frame 3 (page 9). */
const DURATIONS = { 3: 0.2, 4: 0.2, 5: 0.2, 6: 0.2, 7: 0.2 };
const layout = layoutFromLabels(["1", "2", "2", "2", "2", "2", "2", "2", "3"], DURATIONS);

/** A clock whose timers fire when the test says so. */
class FakeClock implements WaitClock {
  now = 1_000_000;
  private timers: { at: number; fire: () => void; id: number }[] = [];
  private next = 1;
  setTimeout(fire: () => void, ms: number): unknown {
    const id = this.next++;
    this.timers.push({ at: this.now + ms, fire, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }
  get pending(): number[] {
    return this.timers.map((t) => t.at - this.now);
  }
  /** Move the clock on by `ms`, firing what falls due (in order). */
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.now = due.at;
      due.fire();
    }
    this.now = end;
  }
}

/** A presenter on the fake clock: actions as the page dispatches them, the scheduler updated after each. */
class Stage {
  readonly clock = new FakeClock();
  state: PresenterState;
  private readonly auto: AutoAdvance;
  constructor(
    readonly deck: DeckLayout,
    page = 1,
  ) {
    this.state = initialState({ page });
    this.auto = new AutoAdvance(this.clock, (from) => this.dispatch("autoAdvance", from));
  }
  dispatch(name: ActionName, arg?: unknown): void {
    const ctx: ActionContext = { layout: this.deck, now: this.clock.now };
    this.state = perform(this.state, name, ctx, arg);
    this.auto.update(autoAdvancePlan(this.state, this.deck));
  }
  /** The pages shown, in order, while the clock runs `ms`. */
  watch(ms: number, step = 50): number[] {
    const seen = [this.state.page];
    for (let t = 0; t < ms; t += step) {
      this.clock.advance(step);
      if (seen[seen.length - 1] !== this.state.page) seen.push(this.state.page);
    }
    return seen;
  }
}

/** A running talk on page 2, then Next to page 3: the first step that advances by itself. */
function onTimedStep(): Stage {
  const stage = new Stage(layout, 2);
  stage.dispatch("timerStart");
  stage.dispatch("next");
  return stage;
}

describe("the plan: what is due on the page shown", () => {
  test("a page with a duration advances to the next page, only while the timer runs", () => {
    const idle = initialState({ page: 3 });
    expect(autoAdvancePlan(idle, layout)).toBeNull();
    const running = { ...idle, timer: { status: "running" as const, startedAt: 0, accumulatedMs: 0 } };
    expect(autoAdvancePlan(running, layout)).toEqual({ page: 3, to: 4, seconds: 0.2 });
    expect(autoAdvancePlan({ ...running, timer: { status: "paused", startedAt: null, accumulatedMs: 5 } }, layout)).toBeNull();
    // A page without one waits for the speaker; a frozen audience holds the run.
    expect(autoAdvancePlan({ ...running, page: 2 }, layout)).toBeNull();
    const frozen = perform(running, "freeze", { layout, now: 1 });
    expect(frozen.frozen).not.toBeNull();
    expect(autoAdvancePlan(frozen, layout)).toBeNull();
  });

  test("a hidden next page is passed by (pdfpc's nearest_nonhidden); the deck's last page goes nowhere", () => {
    const running = { ...initialState({ page: 3 }), timer: { status: "running" as const, startedAt: 0, accumulatedMs: 0 } };
    expect(autoAdvancePlan(running, withTalk(layout, { hidden: [4, 5] }))?.to).toBe(6);
    const last = layoutFromLabels(["1", "2"], { 2: 1 });
    expect(autoAdvancePlan({ ...running, page: 2 }, last)).toBeNull();
  });

  test("the autoAdvance action moves only from the page it was armed on, and keeps a typed number", () => {
    const ctx: ActionContext = { layout, now: 5 };
    const running = { ...initialState({ page: 3 }), timer: { status: "running" as const, startedAt: 0, accumulatedMs: 0 }, entry: "1", entryAt: 4 };
    expect(perform(running, "autoAdvance", ctx, 3)).toMatchObject({ page: 4, entry: "1", entryAt: 4 });
    // The presenter moved on since: the wait was for another page.
    expect(perform(running, "autoAdvance", ctx, 2)).toBe(running);
    expect(perform({ ...running, timer: { status: "paused", startedAt: null, accumulatedMs: 0 } }, "autoAdvance", ctx, 3).page).toBe(3);
  });
});

describe("a run through pdfpc's demo frame", () => {
  test("before the talk starts nothing moves; the first key press starts the timer and the build runs by itself", () => {
    const stage = new Stage(layout, 1);
    expect(stage.watch(2000)).toEqual([1]);
    stage.dispatch("next");
    expect(stage.state.timer.status).toBe("running");
    // Page 2 has no duration: it waits. The next press lands on page 3, and 3–7 go at 0.2 s each.
    expect(stage.watch(1000)).toEqual([2]);
    stage.dispatch("next");
    const run = stage.watch(1100);
    expect(run).toEqual([3, 4, 5, 6, 7, 8]);
    expect(stage.clock.pending).toEqual([]);
    expect(stage.state.page).toBe(8);
  });

  test("each step waits its own duration from the moment it is shown", () => {
    const stage = onTimedStep();
    expect(stage.clock.pending).toEqual([200]);
    stage.clock.advance(199);
    expect(stage.state.page).toBe(3);
    stage.clock.advance(1);
    expect(stage.state.page).toBe(4);
    expect(stage.clock.pending).toEqual([200]);
  });

  test("→ during the run skips a step and the run goes on from there", () => {
    const stage = onTimedStep();
    stage.clock.advance(100);
    stage.dispatch("next");
    expect(stage.state.page).toBe(4);
    // The new page waits its whole duration: nothing at the old wait's end.
    stage.clock.advance(150);
    expect(stage.state.page).toBe(4);
    expect(stage.watch(1000)).toEqual([4, 5, 6, 7, 8]);
  });

  test("← during the run steps back, and the run starts over from that step", () => {
    const stage = onTimedStep();
    stage.clock.advance(450);
    expect(stage.state.page).toBe(5);
    stage.dispatch("prev");
    expect(stage.state.page).toBe(4);
    expect(stage.watch(900)).toEqual([4, 5, 6, 7, 8]);
  });

  test("leaving the build (next slide) ends the run; pausing the timer holds it, resuming waits the whole duration", () => {
    const stage = onTimedStep();
    stage.dispatch("nextSlide");
    expect(stage.state.page).toBe(9);
    expect(stage.clock.pending).toEqual([]);
    stage.dispatch("prevSlide");
    stage.dispatch("next");
    stage.clock.advance(150);
    stage.dispatch("timerPause");
    expect(stage.clock.pending).toEqual([]);
    expect(stage.watch(2000)).toEqual([3]);
    stage.dispatch("timerPause");
    expect(stage.clock.pending).toEqual([200]);
    expect(stage.watch(1100)).toEqual([3, 4, 5, 6, 7, 8]);
  });

  test("a stroke of the pen does not restart the wait; the timer and slide times go on across the run", () => {
    const stage = onTimedStep();
    stage.clock.advance(150);
    stage.dispatch("modePen");
    stage.clock.advance(50);
    expect(stage.state.page).toBe(4);
    stage.watch(1000);
    expect(stage.state.timer.status).toBe("running");
    // 1.2 s in all on slide "2" (index 1): booked to one slide, whatever page of it was shown.
    const times = slideTimesNow(stage.state, layout, stage.clock.now);
    expect(times[1]).toBeCloseTo(1.2, 1);
  });
});

describe("previews and the counter", () => {
  test("the next-step preview passes the steps that advance by themselves (pdfpc's next_in_overlay)", () => {
    expect(nextStepPage(layout, 2)).toBe(8);
    expect(nextStepPage(layout, 8)).toBeNull();
    expect(previewPage(layout, 2)).toBe(9);
  });

  test("a deck without labels grouped by its .pdfpc: the counter, go-to and next-slide preview count slides", () => {
    // 6 pages; pdfpc's forcedOverlay on pages 3 and 4 (a build of slide 2) and 6.
    const opened = { pageCount: 6, labels: groupedLabels(["1", "2", "3", "4", "5", "6"], [3, 4, 6]), durations: {} };
    const grouped = openedLayout(opened);
    expect(grouped.slides.map((s) => [s.label, s.first, s.last])).toEqual([["1", 1, 1], ["2", 2, 4], ["3", 5, 6]]);
    expect(positionOf(grouped, 3)).toMatchObject({ label: "2", lastLabel: "3", step: 2, steps: 3 });
    expect(pageForLabel(grouped, "3")).toBe(5);
    expect(previewPage(grouped, 2)).toBe(6);
    const ctx: ActionContext = { layout: grouped, now: 0 };
    expect(perform(initialState({ page: 2 }), "nextSlide", ctx).page).toBe(5);
    expect(grouped.durations).toBeUndefined();
  });
});
