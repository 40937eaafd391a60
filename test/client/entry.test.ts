/**
 * Safe digits, as pure presenter state: a typed number is pending and nothing of it reaches
 * the audience; it expires after about 2 s, at once on a pointer action and on any other key;
 * by default a digit that is not part of a go-to number then does nothing at all (`5` then →
 * is the next page, `3`, a pause and a click is a click); with pdfpc's digit tools turned on
 * in Keys, a lone digit becomes its tool. Enter is Next again after expiry; `4` `5` `Enter`
 * typed at once still jumps. Each sequence is here, with the audience's view checked at every
 * step.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { perform, type ActionContext, type ActionName } from "../../client/src/presenter/actions.ts";
import { audienceView } from "../../client/src/presenter/audience.ts";
import { layoutFromLabels } from "../../client/src/model/deck-layout.ts";
import { ENTRY_TIMEOUT_MS, entryExpiresIn, entryPending } from "../../client/src/presenter/entry.ts";
import { DEFAULT_BINDINGS, resolveChord, withDigitTools, type Binding } from "../../client/src/presenter/keymap.ts";
import { initialState, type PresenterState } from "../../client/src/presenter/state.ts";
import { entryText } from "../../client/src/presenter/views/counter-view.ts";

/** 60 slides on 63 pages: slide 2 has three overlays and slide 50 two. Labels "1"…"60". */
const labels: string[] = [];
for (let slide = 1; slide <= 60; slide++) for (let step = 0; step < (slide === 2 ? 3 : slide === 50 ? 2 : 1); step++) labels.push(String(slide));
const layout = layoutFromLabels(labels);
const pageOf = (label: string) => labels.indexOf(label) + 1;

let clock = 0;
const ctx = (): ActionContext => ({ layout, now: clock, pageSize: () => ({ w: 720, h: 405 }) });

/** The key map the keys are pressed with: the defaults, or with pdfpc's digit tools on. */
let keys: readonly Binding[] = DEFAULT_BINDINGS;
const PDFPC_KEYS = withDigitTools(DEFAULT_BINDINGS, true);

/** Press a key as the presenter page does: resolved by the key map in its context. */
function press(state: PresenterState, chord: string): PresenterState {
  const resolved = resolveChord(chord, { entry: entryPending(state, clock) }, keys)!;
  const arg = resolved.action === "digit" ? (resolved.mode ? { digit: resolved.arg, mode: resolved.mode } : resolved.arg) : resolved.arg;
  return perform(state, resolved.action, ctx(), arg);
}

/** Keys pressed `gap` ms apart, with the audience's view compared to `audience` after each. */
function type(state: PresenterState, chords: string[], options: { gap?: number; audienceStays?: boolean } = {}): PresenterState {
  const before = audienceView(state);
  for (const chord of chords) {
    clock += options.gap ?? 150;
    state = press(state, chord);
    if (options.audienceStays) expect(audienceView(state)).toEqual(before);
  }
  return state;
}

const act = (state: PresenterState, name: ActionName, arg?: unknown) => perform(state, name, ctx(), arg);

describe("by default a digit that is not part of a go-to number does nothing", () => {
  beforeEach(() => (keys = DEFAULT_BINDINGS));

  test("`5` then `→`: the next page, no spotlight; the audience sees only the page change", () => {
    clock = 500_000;
    const s = type(initialState(), ["5", "ArrowRight"]);
    expect(s).toMatchObject({ mode: "normal", page: 2, entry: "", entryTool: null });
    expect(audienceView(s).mode).toBe("normal");
  });

  test("`3`, a pause, then a click on the slide: no pen, no dot — the click is Next", () => {
    clock = 600_000;
    let s = type(initialState({ page: 4 }), ["3"], { audienceStays: true });
    clock += ENTRY_TIMEOUT_MS;
    s = act(s, "expireEntry");
    expect(s).toMatchObject({ mode: "normal", entry: "", entryTool: null });
    // The page's click: the press settles the number, the click steps the talk.
    s = act(act(s, "settleEntry"), "next");
    expect(s).toMatchObject({ mode: "normal", page: 5 });
    expect(audienceView(s).overlays.pointer).toBeNull();
  });

  test("every lone digit, then a mouse move or another key, leaves the tool in hand as it was", () => {
    for (const digit of ["1", "2", "3", "4", "5"]) {
      clock += 10_000;
      expect(act(type(initialState({ mode: "pen" }), [digit]), "settleEntry").mode).toBe("pen");
      expect(type(initialState(), [digit, "b"])).toMatchObject({ mode: "normal", blank: "black" });
    }
  });

  test("the footer names only where Enter goes", () => {
    clock += 10_000;
    expect(entryText(type(initialState(), ["3"]))).toBe("Go to 3 ⏎");
  });

  test("number + Enter still goes to the slide", () => {
    clock += 10_000;
    expect(type(initialState(), ["4", "5", "Enter"]).page).toBe(pageOf("45"));
  });
});

describe("a pending number never reaches the audience", () => {
  beforeEach(() => (keys = PDFPC_KEYS));
  test("`4` `5` `Enter` typed at once jumps to slide 45; while typing, the audience keeps slide 1 in Normal", () => {
    clock = 1_000_000;
    let s = type(initialState(), ["4", "5"], { audienceStays: true });
    expect(s).toMatchObject({ entry: "45", mode: "normal", entryTool: null });
    s = type(s, ["Enter"]);
    expect(s).toMatchObject({ page: pageOf("45"), entry: "", mode: "normal" });
  });

  test("every number with a 2–5 in it leaves the audience untouched while pending", () => {
    for (const digits of ["2", "3", "4", "5", "23", "52", "345", "12"]) {
      clock += 10_000;
      const s = type(initialState({ page: 5 }), digits.split(""), { audienceStays: true });
      expect(s.mode).toBe("normal");
      expect(s.entry).toBe(digits);
    }
  });

  test("the footer names where Enter goes and, for a lone tool digit, the tool it is otherwise", () => {
    clock += 10_000;
    expect(entryText(type(initialState(), ["3"]))).toBe("Go to 3 ⏎ · or Pen");
    expect(entryText(type(initialState(), ["4", "5"]))).toBe("Go to 45 ⏎");
    expect(entryText(type(initialState({ mode: "pen" }), ["3"]))).toBe("Go to 3 ⏎");
  });
});

describe("a pending number expires", () => {
  // pdfpc's digit tools, turned on in Keys.
  beforeEach(() => (keys = PDFPC_KEYS));

  test("`1` (back to Normal) and, after the pause, `Enter` is Next — not slide 1", () => {
    clock = 2_000_000;
    let s = initialState({ page: 10, mode: "pen" });
    s = type(s, ["1"], { audienceStays: true });
    expect(s.mode).toBe("pen");
    // The page's timer fires: the digit becomes its tool.
    clock += ENTRY_TIMEOUT_MS;
    s = act(s, "expireEntry");
    expect(s).toMatchObject({ mode: "normal", entry: "", entryTool: null });
    s = type(s, ["Enter"]);
    expect(s).toMatchObject({ page: 11, mode: "normal" });
  });

  test("Enter after the time is Next even when the page's timer has not fired yet", () => {
    clock = 3_000_000;
    let s = type(initialState({ page: 10 }), ["1"]);
    clock += ENTRY_TIMEOUT_MS + 1;
    expect(entryPending(s, clock)).toBe(false);
    s = press(s, "Enter");
    expect(s).toMatchObject({ page: 11, entry: "" });
  });

  test("the timer before the end of the wait changes nothing; the page is told how long to wait", () => {
    clock = 4_000_000;
    let s = type(initialState(), ["3"]);
    expect(entryExpiresIn(s, clock)).toBe(ENTRY_TIMEOUT_MS);
    clock += ENTRY_TIMEOUT_MS - 1;
    expect(act(s, "expireEntry")).toBe(s);
    clock += 1;
    s = act(s, "expireEntry");
    expect(s.mode).toBe("pen");
    expect(entryExpiresIn(s, clock)).toBeNull();
  });

  test("each digit restarts the wait: a slow but steady `4` `5` is still 45", () => {
    clock = 5_000_000;
    let s = type(initialState(), ["4", "5"], { gap: ENTRY_TIMEOUT_MS - 100 });
    expect(s.entry).toBe("45");
    s = type(s, ["Enter"], { gap: ENTRY_TIMEOUT_MS - 100 });
    expect(s.page).toBe(pageOf("45"));
  });

  test("a digit after the wait starts a new number (the lone digit before became its tool)", () => {
    clock = 6_000_000;
    const s = type(initialState(), ["2", "4"], { gap: ENTRY_TIMEOUT_MS + 50 });
    expect(s).toMatchObject({ mode: "pointer", entry: "4", entryTool: "eraser" });
  });

  test("a longer number that expires is dropped, with no tool", () => {
    clock = 7_000_000;
    let s = type(initialState(), ["4", "5"]);
    clock += ENTRY_TIMEOUT_MS;
    s = act(s, "expireEntry");
    expect(s).toMatchObject({ mode: "normal", entry: "", page: 1 });
  });
});

describe("a pointer action or another key settles the number at once", () => {
  // pdfpc's digit tools, turned on in Keys.
  beforeEach(() => (keys = PDFPC_KEYS));

  test("`2`, a mouse move, then `Enter`: the pointer, and Enter is Next", () => {
    clock = 8_000_000;
    let s = type(initialState({ page: 7 }), ["2"], { audienceStays: true });
    s = act(s, "settleEntry");
    expect(s).toMatchObject({ mode: "pointer", entry: "" });
    expect(audienceView(s).mode).toBe("pointer");
    s = type(s, ["Enter"]);
    expect(s).toMatchObject({ page: 8, mode: "pointer" });
  });

  test("`3` then a stroke: the pen draws it", () => {
    clock = 9_000_000;
    let s = type(initialState(), ["3"]);
    s = act(s, "strokeStart", { x: 10, y: 10 });
    s = act(s, "strokeMove", [{ x: 40, y: 30 }]);
    s = act(s, "strokeEnd");
    expect(s.mode).toBe("pen");
    expect(s.ink[1]).toHaveLength(1);
  });

  test("`5` then `→`: the spotlight, and the next page; `4` `5` then `B`: black, the 45 dropped", () => {
    clock = 10_000_000;
    let s = type(initialState(), ["5", "ArrowRight"]);
    expect(s).toMatchObject({ mode: "spotlight", page: 2, entry: "" });
    s = type(initialState(), ["4", "5", "b"]);
    expect(s).toMatchObject({ mode: "normal", blank: "black", entry: "", page: 1 });
  });

  test("Esc clears the number without picking its tool; Backspace erases a digit and the tool with it", () => {
    clock = 11_000_000;
    let s = type(initialState(), ["3", "Escape"]);
    expect(s).toMatchObject({ mode: "normal", entry: "", entryTool: null });
    s = type(initialState(), ["3", "4", "Backspace"]);
    expect(s).toMatchObject({ entry: "3", entryTool: null });
    clock += ENTRY_TIMEOUT_MS;
    expect(act(s, "expireEntry")).toMatchObject({ mode: "normal", entry: "" });
  });

  test("a medium reporting its playback leaves the number pending", () => {
    clock = 12_000_000;
    let s = type(initialState(), ["3"]);
    s = act(s, "media", { id: "clip", playback: { playing: true, time: 1, at: clock } });
    expect(s).toMatchObject({ entry: "3", mode: "normal" });
  });

  test("a number that is no slide says so and leaves the tool alone", () => {
    clock = 13_000_000;
    const s = type(initialState(), ["9", "9", "Enter"]);
    expect(s).toMatchObject({ page: 1, entry: "", mode: "normal", notice: "No slide “99” in this deck." });
  });
});
