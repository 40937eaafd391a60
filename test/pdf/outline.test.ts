/**
 * The PDF outline (src/deck/outline) and the chapter titles an exported recording takes from it
 * (client/export/chapter-titles): entries in document order with page and depth, broken ones
 * left out; a chapter per slide span, titled by the deepest entry opening one of its pages,
 * else "Slide <label>".
 */
import { describe, expect, test } from "bun:test";
import { readOutline } from "../../src/deck/outline.ts";
import { loadMupdf } from "../../src/pdf/mupdf.ts";
import { recordingChapters, slideTitle } from "../../client/src/export/chapter-titles.ts";
import { layoutFromLabels } from "../../client/src/model/deck-layout.ts";
import { NO_OVERLAYS } from "../../client/src/presenter/state.ts";
import type { TimelineEvent } from "../../client/src/record/timeline.ts";
import { makeDeck, withOutline } from "../fixtures/pdfs.ts";

async function outlineOf(bytes: Uint8Array) {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, "application/pdf") as InstanceType<typeof mupdf.PDFDocument>;
  try {
    return readOutline(doc, doc.countPages());
  } finally {
    doc.destroy();
  }
}

describe("the outline", () => {
  test("entries in document order, pages 1-based, with their depth", async () => {
    const deck = await withOutline(await makeDeck({ pages: 6 }), [
      { title: "Introduction", page: 1 },
      { title: "  Results\n and more ", page: 3, children: [{ title: "Benchmarks", page: 4, children: [{ title: "Memory", page: 5 }] }] },
    ]);
    expect(await outlineOf(deck)).toEqual([
      { title: "Introduction", page: 1, depth: 0 },
      { title: "Results and more", page: 3, depth: 0 },
      { title: "Benchmarks", page: 4, depth: 1 },
      { title: "Memory", page: 5, depth: 2 },
    ]);
  });

  test("a deck without an outline has none; entries without a title or a page of the deck are left out", async () => {
    expect(await outlineOf(await makeDeck({ pages: 2 }))).toEqual([]);
    const deck = await withOutline(await makeDeck({ pages: 2 }), [
      { title: "   ", page: 1 },
      { title: "A web page", page: 0, uri: "https://example.com/" },
      { title: "Kept", page: 2 },
    ]);
    expect(await outlineOf(deck)).toEqual([{ title: "Kept", page: 2, depth: 0 }]);
  });
});

describe("chapter titles", () => {
  // Pages 1–2 are slide "1" (a build), 3 is "2", 4 is "3", 5 is "4".
  const layout = layoutFromLabels(["1", "1", "2", "3", "4"]);
  const outline = [
    { title: "Opening", page: 1, depth: 0 },
    { title: "Results", page: 4, depth: 0 },
    { title: "Speed", page: 4, depth: 1 },
    { title: "The build's second step", page: 2, depth: 1 },
  ];

  test("the deepest entry opening one of the slide's pages, else Slide <label>", () => {
    expect(slideTitle(layout, outline, 0)).toBe("The build's second step");
    expect(slideTitle(layout, outline, 1)).toBe("Slide 2");
    expect(slideTitle(layout, outline, 2)).toBe("Speed");
    expect(slideTitle(layout, [], 3)).toBe("Slide 4");
  });

  test("one chapter per slide span, in whole milliseconds rounded up, a slide visited twice twice", () => {
    const state = (page: number) => ({ page, blank: "none" as const, mode: "normal" as const, overlays: NO_OVERLAYS, ink: [], media: {}, frozen: false });
    const events: TimelineEvent[] = [
      { t: 0, m: { type: "state", state: state(1) } },
      { t: 1500.2, m: { type: "state", state: state(2) } },
      { t: 3000.7, m: { type: "state", state: state(3) } },
      { t: 6000, m: { type: "state", state: state(4) } },
      { t: 8000, m: { type: "state", state: state(1) } },
    ];
    expect(recordingChapters(events, layout, outline, 9999.5)).toEqual([
      { startMs: 0, endMs: 3001, title: "The build's second step" },
      { startMs: 3001, endMs: 6000, title: "Slide 2" },
      { startMs: 6000, endMs: 8000, title: "Speed" },
      { startMs: 8000, endMs: 10_000, title: "The build's second step" },
    ]);
  });
});
