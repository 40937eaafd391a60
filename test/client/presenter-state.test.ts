/**
 * The presenter's state and named actions, without a browser: overlays grouped by page
 * label, pdfpc-style navigation, number + Enter by label, the timer that waits for the first
 * slide change, blank screens, notes size, and what reaches the audience.
 */
import { describe, expect, test } from "bun:test";
import { elapsedSeconds } from "../../client/src/lib/timer.ts";
import { perform, type ActionContext, type ActionName } from "../../client/src/presenter/actions.ts";
import { audienceChanged, audienceView, expectedTime } from "../../client/src/presenter/audience.ts";
import { layoutFromLabels, pageForLabel, plainLayout, positionOf, previewPage } from "../../client/src/model/deck-layout.ts";
import { initialState, NOTES_SCALE_MAX, NOTES_SCALE_MIN, type PresenterState } from "../../client/src/presenter/state.ts";
import { PresenterStore } from "../../client/src/presenter/store.ts";

/** A Typst/Beamer-style deck: 9 pages, 6 slides; slide "2" has three overlays, "4" two. */
const LABELS = ["1", "2", "2", "2", "3", "4", "4", "5", "6"];
const layout = layoutFromLabels(LABELS);
let clock = 1_000_000;
const ctx = (): ActionContext => ({ layout, now: clock });

function run(state: PresenterState, ...names: (ActionName | [ActionName, unknown])[]): PresenterState {
  return names.reduce((s, n) => (Array.isArray(n) ? perform(s, n[0], ctx(), n[1]) : perform(s, n, ctx())), state);
}

describe("deck layout from page labels", () => {
  test("consecutive pages with one label are one slide", () => {
    expect(layout.slides).toEqual([
      { label: "1", first: 1, last: 1 },
      { label: "2", first: 2, last: 4 },
      { label: "3", first: 5, last: 5 },
      { label: "4", first: 6, last: 7 },
      { label: "5", first: 8, last: 8 },
      { label: "6", first: 9, last: 9 },
    ]);
  });

  test("the counter names the slide by label against the last label, with the overlay step", () => {
    expect(positionOf(layout, 3)).toMatchObject({ label: "2", lastLabel: "6", step: 2, steps: 3 });
    expect(positionOf(layout, 7)).toMatchObject({ label: "4", lastLabel: "6", step: 2, steps: 2, slideIndex: 3, slideCount: 6 });
  });

  test("the preview shows the next slide in its finished state, not the next overlay", () => {
    expect(previewPage(layout, 2)).toBe(5);
    expect(previewPage(layout, 1)).toBe(4);
    expect(previewPage(layout, 9)).toBeNull();
  });

  test("a label is found as typed, and a number matches a numeric label", () => {
    expect(pageForLabel(layout, "4")).toBe(6);
    expect(pageForLabel(layout, "04")).toBe(6);
    expect(pageForLabel(layout, "9")).toBeNull();
    const roman = layoutFromLabels(["i", "ii", "ii", "1"]);
    expect(pageForLabel(roman, "ii")).toBe(2);
  });

  test("empty labels never merge neighbours; a deck without labels is one slide per page", () => {
    expect(layoutFromLabels(["", "", "x"]).labels).toEqual(["1", "2", "x"]);
    expect(plainLayout(3).slides.map((s) => s.label)).toEqual(["1", "2", "3"]);
  });
});

describe("navigation actions", () => {
  test("next and prev step through every page, overlays included, and stop at the ends", () => {
    let s = initialState();
    s = run(s, "next", "next");
    expect(s.page).toBe(3);
    s = run(s, "prev", "prev", "prev");
    expect(s.page).toBe(1);
    s = run(initialState({ page: 9 }), "next");
    expect(s.page).toBe(9);
  });

  test("Shift+arrows (nextSlide / prevSlide) jump past overlays as pdfpc's user-slide keys do", () => {
    let s = initialState({ page: 2 });
    s = run(s, "nextSlide");
    expect(s.page).toBe(5);
    s = run(s, "nextSlide");
    expect(s.page).toBe(6);
    s = run(initialState({ page: 7 }), "prevSlide");
    expect(s.page).toBe(5);
    s = run(initialState({ page: 3 }), "prevSlide");
    expect(s.page).toBe(1);
    expect(run(initialState({ page: 9 }), "nextSlide").page).toBe(9);
  });

  test("first and last", () => {
    expect(run(initialState({ page: 5 }), "first").page).toBe(1);
    expect(run(initialState(), "last").page).toBe(9);
  });

  test("number + Enter goes to the slide with that label; an unknown label tells the presenter", () => {
    let s = run(initialState(), ["digit", "4"]);
    expect(s.entry).toBe("4");
    s = run(s, "commitEntry");
    expect(s).toMatchObject({ page: 6, entry: "" });
    s = run(s, ["digit", "1"], ["digit", "2"], "commitEntry");
    expect(s).toMatchObject({ page: 6, entry: "", notice: "No slide “12” in this deck." });
    s = run(s, ["digit", "5"], ["digit", "9"], "eraseEntry", "commitEntry");
    expect(s.page).toBe(8);
    expect(run(s, ["digit", "x"]).entry).toBe("");
  });

  test("Enter without typed digits is next", () => {
    expect(run(initialState(), "commitEntry").page).toBe(2);
  });
});

describe("timer semantics", () => {
  test("the timer waits on the first slide and starts at the first slide change", () => {
    clock = 1_000_000;
    let s = initialState();
    expect(s.timer.status).toBe("idle");
    clock += 60_000;
    expect(elapsedSeconds(s.timer, clock)).toBe(0);
    s = run(s, "next");
    expect(s.timer).toEqual({ status: "running", startedAt: clock, accumulatedMs: 0 });
    clock += 5_000;
    expect(elapsedSeconds(s.timer, clock)).toBe(5);
  });

  test("start, pause, resume and reset", () => {
    clock = 0;
    let s = run(initialState(), "timerStart");
    clock = 10_000;
    s = run(s, "timerPause");
    clock = 50_000;
    expect(elapsedSeconds(s.timer, clock)).toBe(10);
    s = run(s, "timerPause");
    clock = 52_000;
    expect(elapsedSeconds(s.timer, clock)).toBe(12);
    s = run(s, "timerReset");
    expect(s.timer.status).toBe("idle");
    expect(elapsedSeconds(s.timer, clock)).toBe(0);
    // After a reset the next slide change starts it again.
    s = run(s, "next");
    expect(s.timer.status).toBe("running");
  });

  test("a paused timer stays paused across slide changes", () => {
    clock = 0;
    let s = run(initialState(), "next");
    clock = 1000;
    s = run(s, "timerPause", "next");
    expect(s.timer.status).toBe("paused");
  });
});

describe("blank screens, notes size, panels", () => {
  test("black and white toggle, switch into each other, and Escape ends them", () => {
    let s = run(initialState(), "blackout");
    expect(s.blank).toBe("black");
    s = run(s, "whiteout");
    expect(s.blank).toBe("white");
    s = run(s, "whiteout");
    expect(s.blank).toBe("none");
    s = run(s, "blackout", "escape");
    expect(s.blank).toBe("none");
  });

  test("Escape closes a panel before it touches the blank screen", () => {
    const s = run(initialState({ blank: "black" }), "overview", "escape");
    expect(s).toMatchObject({ panel: "none", blank: "black" });
  });

  test("notes grow and shrink within readable bounds", () => {
    let s = run(initialState(), "notesBigger");
    expect(s.notesScale).toBeCloseTo(1.15, 2);
    s = run(s, "notesSmaller");
    expect(s.notesScale).toBeCloseTo(1, 2);
    for (let i = 0; i < 30; i++) s = run(s, "notesBigger");
    expect(s.notesScale).toBe(NOTES_SCALE_MAX);
    for (let i = 0; i < 30; i++) s = run(s, "notesSmaller");
    expect(s.notesScale).toBe(NOTES_SCALE_MIN);
  });

  test("overview and help are exclusive panels", () => {
    let s = run(initialState(), "overview");
    expect(s.panel).toBe("overview");
    s = run(s, "help");
    expect(s.panel).toBe("help");
    s = run(s, "help");
    expect(s.panel).toBe("none");
  });
});

describe("the audience part of the state", () => {
  test("only slide, blank, mode, overlays, the page's ink, media and the freeze reach the audience", () => {
    const s = run(initialState(), ["digit", "7"], "notesBigger", "overview", "blackout");
    expect(audienceView(s)).toEqual({ page: 1, blank: "black", mode: "normal", overlays: { pointer: null, live: null, zoom: null, inkHidden: false }, ink: [], media: {}, frozen: false });
    expect(Object.keys(audienceView(s)).sort()).toEqual(["blank", "frozen", "ink", "media", "mode", "overlays", "page"]);
  });

  test("speaker-only changes do not count as an audience change", () => {
    const a = initialState();
    const b = run(a, "notesBigger", ["digit", "2"], "timerStart");
    expect(audienceChanged(audienceView(a), audienceView(b))).toBe(false);
    expect(audienceChanged(audienceView(a), audienceView(run(a, "next")))).toBe(true);
  });

  test("media playback is recorded per id and cleared on a page change", () => {
    let s = run(initialState(), ["media", { id: "clip", playback: { playing: true, time: 2, at: 1000 } }]);
    expect(s.media.clip).toEqual({ playing: true, time: 2, at: 1000 });
    expect(run(s, ["media", { id: "bad" }]).media).toEqual(s.media);
    s = run(s, "next");
    expect(s.media).toEqual({});
  });

  test("a playing medium's expected position moves with the wall clock", () => {
    expect(expectedTime({ playing: true, time: 2, at: 1000 }, 3500)).toBe(4.5);
    expect(expectedTime({ playing: false, time: 2, at: 1000 }, 3500)).toBe(2);
  });
});

describe("the store", () => {
  test("dispatch runs named actions, tells listeners which, and runs effects", () => {
    const effects: string[] = [];
    const heard: (string | null)[] = [];
    const store = new PresenterStore(initialState(), ctx, (e) => effects.push(e));
    store.subscribe((_s, _p, action) => heard.push(action));
    expect(store.dispatch("next")).toBe(true);
    expect(store.dispatch("fullscreen")).toBe(true);
    expect(store.dispatch("nope" as ActionName)).toBe(false);
    expect(store.current.page).toBe(2);
    expect(heard).toEqual(["next"]);
    expect(effects).toEqual(["fullscreen"]);
  });
});
