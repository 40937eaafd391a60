/**
 * The stage's pure parts for decks whose pages carry their notes, without a
 * browser: the per-deck layout override and timer settings as stored and as typed, what the
 * audience and live viewers are told about the split, the counter over a pgfpages deck
 * (frames counted, every press moving the talk), and the render worker's text of the slide
 * half only (mupdf under Bun, on a code-built double-width deck).
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import * as mupdf from "mupdf";
import { layoutOf, NO_NOTES_LAYOUT, notesRect, slideRect } from "../../src/deck/notes-layout.ts";
import { readPageLabels } from "../../src/deck/page-labels.ts";
import { shown, type ViewerModel } from "../../client/src/live/viewer/follow.ts";
import { perform } from "../../client/src/presenter/actions.ts";
import { audienceChanged, audienceView, onlyOverlaysChanged } from "../../client/src/presenter/audience.ts";
import { layoutFromLabels, positionOf } from "../../client/src/model/deck-layout.ts";
import {
  effectiveLayout,
  effectiveTimer,
  MAX_DURATION_MINUTES,
  notesPositionOf,
  parseNotesPosition,
  parseTimerSettings,
  readTimerInputs,
  timerInputsOf,
} from "../../client/src/model/deck-settings.ts";
import { initialState, NO_OVERLAYS } from "../../client/src/presenter/state.ts";
import { textIn } from "../../client/src/worker/page-text.ts";
import { beamerDeck, doubleDeck, noteText } from "../fixtures/notes-layout-stage.ts";
import { removeBeamerDecks } from "../fixtures/beamer.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (8.4 s).
setDefaultTimeout(90_000);

afterAll(removeBeamerDecks);

describe("the notes-layout override kept with a deck", () => {
  test("a stored position is taken only when it is one of pdfpc's -n values", () => {
    for (const p of ["none", "right", "left", "bottom", "top"]) expect(parseNotesPosition(p)).toBe(p as never);
    for (const bad of [undefined, null, "", "middle", "RIGHT", 3, {}]) expect(parseNotesPosition(bad)).toBeNull();
  });

  test("the override wins over what the deck says; none means whole pages", () => {
    const detected = layoutOf("right", "xmp");
    expect(effectiveLayout(detected, null)).toEqual(detected);
    expect(effectiveLayout(detected, "left")).toEqual({ kind: "beamer-second-screen", position: "left", from: "override" });
    expect(effectiveLayout(detected, "none")).toEqual({ kind: "none", position: "none", from: "override" });
    expect(effectiveLayout(NO_NOTES_LAYOUT, "bottom")).toEqual({ kind: "beamer-second-screen", position: "bottom", from: "override" });
    expect(notesPositionOf(detected)).toBe("right");
    expect(notesPositionOf(NO_NOTES_LAYOUT)).toBe("none");
  });
});

describe("the speaker's timer settings", () => {
  const deck = { durationMinutes: 20, lastMinutes: 5 };

  test("stored settings are read field by field; a damaged field is dropped, not the rest", () => {
    expect(parseTimerSettings({ durationMinutes: 45, endTime: "9:05", lastMinutes: 0 })).toEqual({ durationMinutes: 45, endTime: "09:05", lastMinutes: 0 });
    expect(parseTimerSettings({ durationMinutes: -3, endTime: "25:00", lastMinutes: 2 })).toEqual({ lastMinutes: 2 });
    expect(parseTimerSettings({ durationMinutes: MAX_DURATION_MINUTES + 1 })).toBeUndefined();
    expect(parseTimerSettings("45")).toBeUndefined();
    expect(parseTimerSettings(null)).toBeUndefined();
  });

  test("the speaker's duration or end time replaces the deck's (pdfpc.sty XMP, .pdfpc); last minutes override alone", () => {
    expect(effectiveTimer(deck, undefined)).toEqual(deck);
    expect(effectiveTimer(deck, { durationMinutes: 45 })).toEqual({ durationMinutes: 45, lastMinutes: 5 });
    // An end time set by the speaker is not hidden by the deck's duration (the countdown prefers a duration).
    expect(effectiveTimer(deck, { endTime: "14:30" })).toEqual({ endTime: "14:30", lastMinutes: 5 });
    expect(effectiveTimer(deck, { lastMinutes: 2 })).toEqual({ durationMinutes: 20, lastMinutes: 2 });
    expect(effectiveTimer({ endTime: "16:00" }, { lastMinutes: 10 })).toEqual({ endTime: "16:00", lastMinutes: 10 });
    // The form sets no start time or end slide: the deck's stay, with their sources.
    const pdfpc = { durationMinutes: 20, startTime: "10:00", endSlide: 12, sources: { durationMinutes: "pdfpc", startTime: "pdfpc", endSlide: "pdfpc" } } as const;
    expect(effectiveTimer(pdfpc, { durationMinutes: 30 })).toEqual({ durationMinutes: 30, startTime: "10:00", endSlide: 12, sources: { startTime: "pdfpc", endSlide: "pdfpc" } });
  });

  test("the form: blanks go back to the deck's, bad values say what to type", () => {
    expect(readTimerInputs({ duration: "", endTime: "", lastMinutes: "" })).toEqual({ ok: true, settings: undefined });
    expect(readTimerInputs({ duration: " 45 ", endTime: "", lastMinutes: "3" })).toEqual({ ok: true, settings: { durationMinutes: 45, lastMinutes: 3 } });
    expect(readTimerInputs({ duration: "", endTime: "9:30", lastMinutes: "" })).toEqual({ ok: true, settings: { endTime: "09:30" } });
    const bad = readTimerInputs({ duration: "0", endTime: "", lastMinutes: "" });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.field).toBe("duration");
      expect(bad.message).toContain("minutes");
    }
    const end = readTimerInputs({ duration: "", endTime: "half past two", lastMinutes: "" });
    expect(end.ok ? null : end.field).toBe("endTime");
    const last = readTimerInputs({ duration: "", endTime: "", lastMinutes: "-1" });
    expect(last.ok ? null : last.field).toBe("lastMinutes");
    expect(timerInputsOf({ durationMinutes: 45, lastMinutes: 0 })).toEqual({ duration: "45", endTime: "", lastMinutes: "0" });
    expect(timerInputsOf(undefined)).toEqual({ duration: "", endTime: "", lastMinutes: "" });
  });
});

describe("what screens are told about the split", () => {
  test("the audience state carries the position in force once known; a change of it is a change for the audience", () => {
    const unknown = initialState();
    expect("notesPosition" in audienceView(unknown)).toBe(false);
    const right = { ...unknown, notesPosition: "right" as const };
    expect(audienceView(right).notesPosition).toBe("right");
    const none = { ...right, notesPosition: "none" as const };
    expect(audienceChanged(audienceView(right), audienceView(none))).toBe(true);
    expect(onlyOverlaysChanged(audienceView(none), { ...audienceView(right), overlays: { ...NO_OVERLAYS } })).toBe(false);
    // A frozen picture is split like everything else.
    const frozen = { ...right, frozen: { page: 1, mode: "normal" as const, overlays: NO_OVERLAYS, ink: [], media: {} } };
    expect(audienceView(frozen)).toMatchObject({ frozen: true, notesPosition: "right" });
  });

  test("a live viewer paging on its own keeps the presenter's split", () => {
    const model: ViewerModel = { following: false, ownPage: 3, live: { seq: 4, state: { ...audienceView({ ...initialState(), notesPosition: "bottom" }), ink: [] } } } as ViewerModel;
    expect(shown(model)).toMatchObject({ page: 3, notesPosition: "bottom" });
    expect("notesPosition" in shown({ ...model, live: { seq: 0, state: null } } as ViewerModel)!).toBe(false);
  });
});

describe("counting a pgfpages deck", () => {
  test("a real pdflatex Beamer deck (notes on a second screen): the counter counts its 4 frames and every press moves the talk", () => {
    const bytes = beamerDeck();
    const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF()!;
    const pages = doc.countPages();
    expect(pages).toBe(5);
    const layout = layoutFromLabels(readPageLabels(doc, pages));
    const counters: string[] = [];
    let state = initialState();
    for (let press = 0; press < pages; press++) {
      const p = positionOf(layout, state.page);
      counters.push(`${p.label} / ${p.lastLabel}`);
      const next = perform(state, "next", { layout, now: 0 });
      if (press < pages - 1) expect(next.page).toBe(state.page + 1);
      state = next;
    }
    expect(counters).toEqual(["1 / 4", "2 / 4", "2 / 4", "3 / 4", "4 / 4"]);
    doc.destroy();
  });
});

describe("the slide half's text (the slide's text alternative)", () => {
  test("only the slide half's lines: the notes half's text stays the speaker's", async () => {
    for (const position of ["right", "left", "bottom", "top"] as const) {
      const doc = mupdf.Document.openDocument(await doubleDeck(position), "application/pdf").asPDF()!;
      const page = doc.loadPage(0);
      const [x0, y0, x1, y1] = page.getBounds();
      const slide = textIn(doc, 0, slideRect({ w: x1 - x0, h: y1 - y0 }, position));
      expect({ position, slide }).toEqual({ position, slide: "Slide 1" });
      const notes = textIn(doc, 0, notesRect({ w: x1 - x0, h: y1 - y0 }, position)!);
      expect(notes).toContain(noteText(1));
      doc.destroy();
    }
  });
});
