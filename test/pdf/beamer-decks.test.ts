/**
 * Real Beamer decks built here by pdflatex (test/fixtures/beamer.ts): a ten-frame talk of 14
 * pages with `show notes on second screen=right|left|bottom`, with and without pdfpc's LaTeX
 * package and Beamer's navigation symbols. The layout is found (from XMP and from the pages
 * alone), each page's notes are its frame's `\note{…}` without Beamer's header, the labels
 * count the 10 frames (pgfpages' own labels pair pages up), and the check report says so.
 * pdflatex must be installed (.ci/run does): without it these tests fail, they never skip.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { detectNotesLayout } from "../../src/deck/notes-layout-detect.ts";
import { readNotesText } from "../../src/deck/notes-text.ts";
import { readPageLabels } from "../../src/deck/page-labels.ts";
import { buildCheckReport } from "../../src/deck/report.ts";
import { readPdfpcMetadata } from "../../src/deck/xmp.ts";
import type { PdfDoc } from "../../src/deck/mupdf-types.ts";
import { loadMupdf } from "../../src/pdf/mupdf.ts";
import { buildBeamerDeck, removeBeamerDecks, tenFrameTalk, type BeamerDeckOptions } from "../fixtures/beamer.ts";
import { sha256Hex } from "../fixtures/sidecar-builder.ts";
import { expectValidReport } from "../helpers/report-schema.ts";

const DECKS: Record<string, BeamerDeckOptions> = {
  right: { position: "right", frames: tenFrameTalk(), pdfpc: "duration=20,lastminutes=5" },
  left: { position: "left", frames: tenFrameTalk() },
  bottom: { position: "bottom", frames: tenFrameTalk(), pdfpc: "duration=15,enduserslide=9", noNavigation: true },
};
const built = new Map<string, Uint8Array>();

beforeAll(() => {
  for (const [name, options] of Object.entries(DECKS)) built.set(name, buildBeamerDeck(options));
}, 600_000);
afterAll(() => removeBeamerDecks());

async function open(name: string): Promise<{ doc: PdfDoc; pageCount: number; bytes: Uint8Array }> {
  const mupdf = await loadMupdf();
  const bytes = built.get(name) as Uint8Array;
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF() as PdfDoc;
  return { doc, pageCount: doc.countPages(), bytes };
}

/** Physical page → frame of the ten-frame talk (frames 3 and 7 have three overlays). */
const FRAMES = [1, 2, 3, 3, 3, 4, 5, 6, 7, 7, 7, 8, 9, 10];

describe("real pdflatex Beamer decks with notes on a second screen", () => {
  for (const name of Object.keys(DECKS)) {
    const options = DECKS[name] as BeamerDeckOptions;
    const position = options.position as "right" | "left" | "bottom";

    test(`${name}: layout, notes text and frame labels`, async () => {
      const { doc, pageCount } = await open(name);
      expect(pageCount).toBe(14);
      const metadata = readPdfpcMetadata(doc);
      expect(metadata.issues).toEqual([]);
      if (options.pdfpc) {
        // pdfpc.sty guesses the position from pgfpages' options and writes it.
        expect(metadata.metadata?.notesPosition).toBe(position);
        expect(detectNotesLayout(doc, pageCount, metadata.metadata)).toEqual({ layout: { kind: "beamer-second-screen", position, from: "xmp" }, issues: [] });
      } else {
        expect(metadata.metadata).toBeNull();
      }
      // From the pages alone too (the notes page's header, or the navigation symbols).
      expect(detectNotesLayout(doc, pageCount, null)).toEqual({ layout: { kind: "beamer-second-screen", position, from: "geometry" }, issues: [] });
      for (let i = 0; i < pageCount; i++) expect(readNotesText(doc, i, position)).toBe(`Note for frame ${FRAMES[i]}: say it slowly.`);
      // The counter counts frames: every label change is a frame, never a pair of pages.
      const labels = readPageLabels(doc, pageCount);
      expect(labels).toEqual(FRAMES.map(String));
      expect(new Set(labels).size).toBe(10);
    }, 60_000);

    test(`${name}: the check report`, async () => {
      const { doc, pageCount, bytes } = await open(name);
      const mupdf = await loadMupdf();
      const report = buildCheckReport(mupdf, doc, { bytes: bytes.length, sha256: sha256Hex(bytes), pdfVersion: "1.5", title: "Deckhand Fixture", pageCount });
      expectValidReport(report);
      expect(report.ok).toBe(true);
      expect(report.notesLayout).toEqual({ kind: "beamer-second-screen", position, from: options.pdfpc ? "xmp" : "geometry" });
      expect(report.notesSources).toEqual(["notes-page"]);
      expect(report.pages[5]?.presenterNotes).toEqual({ source: "notes-page", text: "Note for frame 4: say it slowly.", format: "text" });
      expect(report.issues).toEqual([]);
      if (name === "right") expect(report.timer).toEqual({ durationMinutes: 20, lastMinutes: 5, sources: { durationMinutes: "xmp", lastMinutes: "xmp" } });
      if (name === "bottom") expect(report.timer).toEqual({ durationMinutes: 15, endSlide: 9, sources: { durationMinutes: "xmp", endSlide: "xmp" } });
    }, 60_000);
  }

  test("the same talk without pgfpages keeps Beamer's own labels and has no notes layout", async () => {
    const mupdf = await loadMupdf();
    const bytes = buildBeamerDeck({ position: null, frames: tenFrameTalk(), pdfpc: "duration=20" });
    const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF() as PdfDoc;
    const pageCount = doc.countPages();
    expect(pageCount).toBe(14);
    const metadata = readPdfpcMetadata(doc).metadata;
    expect(metadata).toMatchObject({ duration: 20, notesPosition: "none" });
    expect(detectNotesLayout(doc, pageCount, metadata)).toEqual({ layout: { kind: "none", position: "none", from: null }, issues: [] });
    expect(readPageLabels(doc, pageCount)).toEqual(FRAMES.map(String));
  }, 120_000);
});
