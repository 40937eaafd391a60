/**
 * The stage tools as pure state: modes from the toolbox
 * and from keys, pdfpc's lone digits next to number + Enter, ink strokes drawn, erased,
 * cleared, hidden, undone and redone per page, what reaches the audience while drawing,
 * zoom regions, freeze, history, bookmarks, the go-to prompt and the rehearsal's slide times.
 */
import { describe, expect, test } from "bun:test";
import { perform, type ActionContext, type ActionName } from "../../client/src/presenter/actions.ts";
import { audienceView, onlyOverlaysChanged } from "../../client/src/presenter/audience.ts";
import { layoutFromLabels } from "../../client/src/model/deck-layout.ts";
import { fitZoom, touches } from "../../client/src/presenter/ink.ts";
import { slideTimesNow } from "../../client/src/presenter/navigation.ts";
import { initialState, type PresenterState } from "../../client/src/presenter/state.ts";

const layout = layoutFromLabels(["1", "2", "2", "2", "3", "4", "4", "5", "6"]);
let clock = 1_000_000;
const PAGE = { w: 720, h: 405 };
const ctx = (): ActionContext => ({ layout, now: clock, pageSize: () => PAGE });

type Step = ActionName | [ActionName, unknown];
function run(state: PresenterState, ...steps: Step[]): PresenterState {
  return steps.reduce((s, n) => (Array.isArray(n) ? perform(s, n[0], ctx(), n[1]) : perform(s, n, ctx())), state);
}

/** A pen stroke from (x0,y0) to (x1,y1) in points, with a few samples between. */
function draw(s: PresenterState, x0: number, y0: number, x1: number, y1: number, pressure?: number): PresenterState {
  const samples = Array.from({ length: 5 }, (_, i) => ({ x: x0 + ((x1 - x0) * (i + 1)) / 5, y: y0 + ((y1 - y0) * (i + 1)) / 5, pressure, hasPressure: pressure !== undefined }));
  return run(s, ["strokeStart", { x: x0, y: y0, pressure, hasPressure: pressure !== undefined }], ["strokeMove", samples], "strokeEnd");
}

describe("modes", () => {
  test("each tool is picked by its action; Esc puts the tool down last of all", () => {
    let s = initialState();
    for (const [action, mode] of [["modePointer", "pointer"], ["modePen", "pen"], ["modeEraser", "eraser"], ["modeSpotlight", "spotlight"], ["modeNormal", "normal"]] as const) {
      s = run(s, action);
      expect(s.mode).toBe(mode);
    }
    s = run(s, "modePen", "blackout", "escape");
    expect(s).toMatchObject({ blank: "none", mode: "pen" });
    s = run(s, "escape");
    expect(s.mode).toBe("normal");
  });

  test("a lone digit is pdfpc's tool once it is not a slide number; digits + Enter go to the slide and keep the tool in hand", () => {
    let s = run(initialState(), ["digit", { digit: "3", mode: "pen" }]);
    // Pending: nothing reaches the audience yet (entry.test.ts has the full rules).
    expect(s).toMatchObject({ mode: "normal", entry: "3", entryTool: "pen" });
    // Drawing makes the tool the choice: the digit was not a slide number.
    s = draw(s, 10, 10, 50, 50);
    expect(s).toMatchObject({ mode: "pen", entry: "", entryTool: null, page: 1 });
    expect(s.ink[1]).toHaveLength(1);
    // "2 Enter" from the pen: slide 2, pen still in hand (the pointer never came).
    s = run(s, ["digit", { digit: "2", mode: "pointer" }]);
    expect(s.mode).toBe("pen");
    s = run(s, "commitEntry");
    expect(s).toMatchObject({ page: 2, mode: "pen", entry: "" });
    // Two digits: the second has no tool; Enter goes to slide 4 (page 6).
    s = run(s, ["digit", { digit: "4", mode: "eraser" }], ["digit", "0"]);
    expect(s).toMatchObject({ mode: "pen", entry: "40", entryTool: null });
    s = run(s, "eraseEntry", "commitEntry");
    expect(s).toMatchObject({ page: 6, mode: "pen" });
    // Another tool's key settles the digit first: "3" then E is the eraser, and the digit is dropped.
    s = run(s, ["digit", { digit: "3", mode: "pen" }], "modeEraser");
    expect(s).toMatchObject({ mode: "eraser", entry: "" });
  });

  test("+/- size the tool in hand (the stroke being drawn too) and the notes in Normal", () => {
    let s = run(initialState(), "notesBigger");
    expect(s.notesScale).toBeGreaterThan(1);
    s = run(initialState(), "modePen", ["strokeStart", { x: 1, y: 1 }], "notesBigger");
    expect(s.sizes.pen).toBe(5);
    expect(s.overlays.live?.width).toBe(5);
    expect(s.notesScale).toBe(1);
    s = run(s, "strokeEnd", "modeSpotlight", ["pointer", { x: 100, y: 100 }], "notesSmaller");
    expect(s.sizes.spotlight).toBe(56);
    expect(s.overlays.pointer).toEqual({ x: 100, y: 100, r: 56 });
    for (let i = 0; i < 40; i++) s = run(s, "notesSmaller");
    expect(s.sizes.spotlight).toBe(30);
  });

  test("colour and width choices pick the pen", () => {
    const s = run(initialState(), ["penColor", "#2563EB"], ["penWidth", 8]);
    expect(s).toMatchObject({ mode: "pen", pen: { color: "#2563eb" }, sizes: { pen: 8 } });
    expect(run(s, ["penColor", "red"], ["penWidth", 7])).toMatchObject({ pen: { color: "#2563eb" }, sizes: { pen: 8 } });
  });
});

describe("the pointer and the spotlight reach the audience", () => {
  test("the pointer's place is an overlay the audience gets; off the slide it is gone", () => {
    let s = run(initialState(), "modePointer", ["pointer", { x: 360.04, y: 200 }]);
    expect(audienceView(s).overlays.pointer).toEqual({ x: 360, y: 200, r: 7 });
    expect(audienceView(s).mode).toBe("pointer");
    const moved = run(s, ["pointer", { x: 361, y: 200 }]);
    expect(onlyOverlaysChanged(audienceView(s), audienceView(moved))).toBe(true);
    s = run(moved, ["pointer", null]);
    expect(audienceView(s).overlays.pointer).toBeNull();
    // In Normal the pointer is not shown at all.
    expect(run(initialState(), ["pointer", { x: 1, y: 1 }]).overlays.pointer).toBeNull();
  });
});

describe("ink", () => {
  test("a pen stroke is live while drawn (the audience sees it grow), then kept on its page", () => {
    let s = run(initialState({ page: 2 }), "modePen", ["strokeStart", { x: 10, y: 10, pressure: 0.8, hasPressure: true }], ["strokeMove", [{ x: 20, y: 12, pressure: 0.6, hasPressure: true }]]);
    expect(audienceView(s).overlays.live?.points).toEqual([10, 10, 0.8, 20, 12, 0.6]);
    expect(audienceView(s).overlays.live?.simulated).toBeUndefined();
    // A mouse at rest repeats its point: not stored twice.
    s = run(s, ["strokeMove", [{ x: 20, y: 12, pressure: 0.6 }]], "strokeEnd");
    expect(s.ink[2]).toHaveLength(1);
    expect(s.ink[2]![0]).toMatchObject({ color: "#e11d48", width: 4, points: [10, 10, 0.8, 20, 12, 0.6] });
    expect(audienceView(s).ink).toBe(s.ink[2]!);
    expect(audienceView(s).overlays.live).toBeNull();
    // Each page has its own ink; the audience gets the current page's only.
    s = run(s, "next");
    expect(audienceView(s).ink).toEqual([]);
    s = draw(s, 0, 0, 5, 5);
    expect(Object.keys(s.ink)).toEqual(["2", "3"]);
    // A mouse gives no pressure: the stroke says so (the renderer simulates it).
    expect(s.ink[3]![0]!.simulated).toBe(true);
  });

  test("the eraser removes the strokes it touches; clear empties the page; d hides all ink on every screen", () => {
    let s = run(initialState(), "modePen");
    s = draw(s, 10, 10, 100, 10);
    s = draw(s, 10, 200, 100, 200);
    expect(s.ink[1]).toHaveLength(2);
    s = run(s, "modeEraser", ["strokeStart", { x: 50, y: 300 }], ["strokeMove", [{ x: 50, y: 205 }]], "strokeEnd");
    expect(s.ink[1]).toHaveLength(1);
    expect(s.ink[1]![0]!.points[1]).toBe(10);
    s = run(s, "toggleInk");
    expect(audienceView(s).ink).toEqual([]);
    expect(s.ink[1]).toHaveLength(1);
    s = run(s, "toggleInk", "clearInk");
    expect(s.ink[1]).toEqual([]);
    expect(audienceView(s).ink).toEqual([]);
  });

  test("undo and redo step through a page's ink edits; a new edit drops the redo", () => {
    let s = run(initialState(), "modePen");
    s = draw(s, 0, 0, 10, 10);
    s = draw(s, 0, 50, 10, 60);
    s = run(s, "clearInk");
    expect(s.ink[1]).toEqual([]);
    s = run(s, "undo");
    expect(s.ink[1]).toHaveLength(2);
    s = run(s, "undo");
    expect(s.ink[1]).toHaveLength(1);
    s = run(s, "redo");
    expect(s.ink[1]).toHaveLength(2);
    s = run(s, "undo", "undo", "undo");
    expect(s.ink[1]).toEqual([]);
    s = draw(s, 5, 5, 6, 6);
    expect(run(s, "redo").ink[1]).toHaveLength(1);
    // Undo acts on the current page only.
    expect(run(s, "next", "undo").ink[1]).toHaveLength(1);
  });

  test("eraser hit test counts the stroke's own width", () => {
    const stroke = { id: "a", color: "#000000", width: 10, points: [0, 0, 0.5, 100, 0, 0.5] };
    expect(touches(stroke, { x: 50, y: 14 }, 10)).toBe(true);
    expect(touches(stroke, { x: 50, y: 16 }, 10)).toBe(false);
  });
});

describe("zoom", () => {
  test("z then a drag zooms into that region grown to the slide's shape; the audience gets it; Esc returns", () => {
    let s = run(initialState(), "zoom");
    expect(s.zoomSelect).toBe(true);
    s = run(s, ["zoomTo", { x: 100, y: 100, w: 200, h: 50 }]);
    expect(s.zoomSelect).toBe(false);
    expect(s.overlays.zoom).toEqual({ x: 100, y: 68.8, w: 200, h: 112.5 });
    expect(audienceView(s).overlays.zoom).toEqual(s.overlays.zoom);
    s = run(s, "escape");
    expect(s.overlays.zoom).toBeNull();
  });

  test("a click zooms 2× around it, never past the page; z again returns; a page change ends it", () => {
    let s = run(initialState(), "zoom", ["zoomTo", { x: 700, y: 10, w: 0, h: 0 }]);
    expect(s.overlays.zoom).toEqual({ x: 360, y: 0, w: 360, h: 202.5 });
    expect(run(s, "zoom").overlays.zoom).toBeNull();
    expect(run(s, "next").overlays.zoom).toBeNull();
    expect(fitZoom({ x: 0, y: 0, w: 1, h: 1 }, PAGE).w).toBe(90);
  });
});

describe("freeze", () => {
  test("the audience keeps its picture while the presenter moves on; black still works; unfreezing jumps to the presenter's slide", () => {
    let s = run(initialState(), "modePen");
    s = draw(s, 0, 0, 20, 20);
    s = run(s, "freeze");
    const frozen = audienceView(s);
    expect(frozen).toMatchObject({ page: 1, frozen: true });
    s = run(s, "next", "next");
    s = draw(s, 1, 1, 2, 2);
    expect(audienceView(s)).toMatchObject({ page: 1, frozen: true, ink: frozen.ink });
    s = run(s, "blackout");
    expect(audienceView(s)).toMatchObject({ page: 1, blank: "black" });
    s = run(s, "blackout", "freeze");
    expect(audienceView(s)).toMatchObject({ page: 3, frozen: false });
    expect(audienceView(s).ink).toHaveLength(1);
  });
});

describe("history, bookmarks and go to", () => {
  test("jumps are remembered and Shift+Backspace goes back through them; steps are not", () => {
    let s = run(initialState(), "next", "last", ["goToPage", 5]);
    expect(s.history).toEqual([2, 9]);
    s = run(s, "histBack");
    expect(s.page).toBe(9);
    s = run(s, "histBack");
    expect(s.page).toBe(2);
    s = run(s, "histBack");
    expect(s).toMatchObject({ page: 2, notice: "No earlier page in the history." });
  });

  test("m bookmarks, Shift+M returns (a jump: history goes back again)", () => {
    let s = run(initialState({ page: 5 }), "bookmarkGo");
    expect(s.notice).toMatch(/No bookmark/);
    s = run(s, "bookmarkSet", "last", "bookmarkGo");
    expect(s).toMatchObject({ page: 5, bookmark: 5 });
    expect(run(s, "histBack").page).toBe(9);
  });

  test("g asks for a label; the answer goes there or says it is not in the deck", () => {
    let s = run(initialState(), "gotoPrompt");
    expect(s.panel).toBe("goto");
    s = run(s, ["gotoLabel", " 4 "]);
    expect(s).toMatchObject({ page: 6, panel: "none" });
    s = run(s, "gotoPrompt", ["gotoLabel", "xiv"]);
    expect(s).toMatchObject({ page: 6, panel: "goto", notice: "No slide “xiv” in this deck." });
  });
});

describe("rehearsal: time per slide", () => {
  test("running-timer time is booked to each logical slide, pauses excluded; a reset keeps it as the previous run", () => {
    clock = 0;
    let s = run(initialState(), "timerStart");
    clock = 10_000;
    s = run(s, "next");
    clock = 15_000;
    s = run(s, "next"); // overlay of slide 2: same slide
    clock = 20_000;
    s = run(s, "timerPause");
    clock = 80_000;
    s = run(s, "timerPause");
    clock = 85_000;
    s = run(s, "nextSlide");
    clock = 90_000;
    expect(slideTimesNow(s, layout, clock)).toEqual({ 0: 10, 1: 15, 2: 5 });
    s = run(s, "timerReset");
    expect(s.slideTimes).toEqual({ current: {}, previous: { 0: 10, 1: 15, 2: 5 }, mark: null });
    // The next run starts at the next slide change.
    clock = 100_000;
    s = run(s, "next");
    clock = 103_000;
    expect(slideTimesNow(s, layout, clock)).toEqual({ 3: 3 });
  });
});
