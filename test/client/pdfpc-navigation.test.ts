/**
 * pdfpc's navigation rules the presenter keeps, without a browser: pages hidden in a .pdfpc
 * (passed by next, previous, ±10 and the previews; reached by Shift+N/P, go to and the
 * overview), the end slide (the counter counts to it, End goes there and then on), ±10
 * slides, forward history after going back, and the next-step (next overlay) preview.
 */
import { describe, expect, test } from "bun:test";
import { perform, type ActionContext, type ActionName } from "../../client/src/presenter/actions.ts";
import { endPage, jumpSlides, layoutFromLabels, nextStepPage, plainLayout, positionOf, previewPage, withTalk } from "../../client/src/model/deck-layout.ts";
import { initialState, type PresenterState } from "../../client/src/presenter/state.ts";

/** 9 pages, 6 slides; slide "2" has three steps (pages 2–4), "4" two (pages 6–7). */
const LABELS = ["1", "2", "2", "2", "3", "4", "4", "5", "6"];
const base = layoutFromLabels(LABELS);
const clock = 1_000_000;

function runIn(layout: ReturnType<typeof layoutFromLabels>, state: PresenterState, ...names: (ActionName | [ActionName, unknown])[]): PresenterState {
  const ctx: ActionContext = { layout, now: clock };
  return names.reduce((s, n) => (Array.isArray(n) ? perform(s, n[0], ctx, n[1]) : perform(s, n, ctx)), state);
}

describe("hidden pages (a .pdfpc's pages[].hidden)", () => {
  // Page 3 (a step of slide 2) and the whole of slide "3" (page 5) hidden.
  const layout = withTalk(base, { hidden: [3, 5] });

  test("next and previous pass hidden pages by; Shift+N / Shift+P stop on them", () => {
    let s = initialState({ page: 2 });
    s = runIn(layout, s, "next");
    expect(s.page).toBe(4);
    s = runIn(layout, s, "next");
    expect(s.page).toBe(6);
    s = runIn(layout, s, "prev");
    expect(s.page).toBe(4);
    s = runIn(layout, s, "prevForced");
    expect(s.page).toBe(3);
    s = runIn(layout, s, "nextForced", "nextForced");
    expect(s.page).toBe(5);
  });

  test("slide steps and the previews pass a hidden slide by", () => {
    let s = initialState({ page: 4 });
    s = runIn(layout, s, "nextSlide");
    expect(s.page).toBe(6);
    s = runIn(layout, s, "prevSlide");
    expect(s.page).toBe(2);
    expect(previewPage(layout, 2)).toBe(7);
    expect(nextStepPage(layout, 2)).toBe(4);
  });

  test("go to and the overview still reach a hidden page", () => {
    const s = runIn(layout, initialState(), ["gotoLabel", "3"]);
    expect(s.page).toBe(5);
    expect(runIn(layout, initialState(), ["goToPage", 3]).page).toBe(3);
  });

  test("page 1 is never hidden, nor a page the deck does not have; no hidden pages, no field", () => {
    expect([...(withTalk(base, { hidden: [1, 2, 40, 2.5] }).hidden ?? [])]).toEqual([2]);
    expect(withTalk(base, { hidden: [] }).hidden).toBeUndefined();
  });

  test("with the last pages hidden, Next stays on the last shown page", () => {
    const tail = withTalk(base, { hidden: [8, 9] });
    expect(runIn(tail, initialState({ page: 7 }), "next").page).toBe(7);
    expect(previewPage(tail, 6)).toBeNull();
  });
});

describe("the end slide (pdfpc's endSlide, pdfpc.sty's EndUserSlide)", () => {
  // The talk ends on the fourth slide ("4", pages 6–7); "5" and "6" are backup.
  const layout = withTalk(base, { endSlide: 4 });

  test("the counter counts to the end slide; the backup slides are marked as such", () => {
    expect(positionOf(layout, 2)).toMatchObject({ label: "2", lastLabel: "4", backup: false });
    expect(positionOf(layout, 9)).toMatchObject({ label: "6", lastLabel: "4", backup: true });
    expect(positionOf(base, 9)).toMatchObject({ lastLabel: "6", backup: false });
  });

  test("End goes to the end slide finished, then to the deck's last page", () => {
    let s = runIn(layout, initialState({ page: 2 }), "last");
    expect(s.page).toBe(7);
    s = runIn(layout, s, "last");
    expect(s.page).toBe(9);
    expect(runIn(base, initialState({ page: 2 }), "last").page).toBe(9);
  });

  test("an end slide past the deck counts to the last slide", () => {
    expect(withTalk(base, { endSlide: 40 }).endSlide).toBe(5);
    expect(endPage(withTalk(base, { endSlide: 40 }), 1)).toBe(9);
  });
});

describe("ten slides on and back (pdfpc's next10 / prev10)", () => {
  const deck = plainLayout(30);

  test("ten slides on or back, clamped to the deck, as a jump the history keeps", () => {
    let s = runIn(deck, initialState({ page: 3 }), "next10");
    expect(s.page).toBe(13);
    expect(s.history).toEqual([3]);
    s = runIn(deck, s, "next10", "next10");
    expect(s.page).toBe(30);
    s = runIn(deck, s, "prev10");
    expect(s.page).toBe(20);
    expect(runIn(deck, initialState({ page: 4 }), "prev10").page).toBe(1);
  });

  test("slides, not pages: a build counts once and lands finished; a hidden target is passed by", () => {
    expect(jumpSlides(base, 1, 3)).toBe(7);
    expect(jumpSlides(withTalk(base, { hidden: [6, 7] }), 1, 3)).toBe(8);
    expect(jumpSlides(base, 9, 10)).toBeNull();
    expect(runIn(base, initialState({ page: 9 }), "next10")).toMatchObject({ page: 9, history: [] });
  });
});

describe("forward history (pdfpc's histFwd)", () => {
  test("back then forward returns to where Back was pressed; a new jump forgets the way forward", () => {
    const deck = plainLayout(30);
    let s = runIn(deck, initialState({ page: 2 }), ["gotoLabel", "20"], ["gotoLabel", "25"]);
    s = runIn(deck, s, "histBack");
    expect(s).toMatchObject({ page: 20, history: [2], future: [25] });
    s = runIn(deck, s, "histBack");
    expect(s).toMatchObject({ page: 2, history: [], future: [25, 20] });
    s = runIn(deck, s, "histFwd");
    expect(s).toMatchObject({ page: 20, history: [2], future: [25] });
    s = runIn(deck, s, "histFwd");
    expect(s).toMatchObject({ page: 25, history: [2, 20], future: [] });
    s = runIn(deck, s, "histFwd");
    expect(s).toMatchObject({ page: 25, notice: "No later page in the history." });
    s = runIn(deck, s, "histBack", ["gotoLabel", "7"]);
    expect(s.future).toEqual([]);
  });

  test("steps keep the way forward: look something up, step through it, and come back", () => {
    const deck = plainLayout(30);
    let s = runIn(deck, initialState({ page: 12 }), ["gotoLabel", "3"], "histBack", "histBack");
    expect(s.page).toBe(12);
    s = runIn(deck, initialState({ page: 12 }), ["gotoLabel", "3"], "histBack");
    s = runIn(deck, s, "next", "next", "histFwd");
    expect(s.page).toBe(3);
  });
});

describe("the next-step preview (pdfpc's next overlay)", () => {
  test("the next page of this slide, or none on its last step", () => {
    expect(nextStepPage(base, 2)).toBe(3);
    expect(nextStepPage(base, 3)).toBe(4);
    expect(nextStepPage(base, 4)).toBeNull();
    expect(nextStepPage(base, 9)).toBeNull();
  });
});
