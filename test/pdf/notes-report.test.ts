/**
 * The check report and the presenter's extras for the notes formats of
 * docs/decks/notes-formats.md: the notes layout and the notes half's text per slide (source
 * "notes-page"), pdfpc.sty's XMP fields in the timer, a notes file beside the PDF (source
 * "notes-file", its own report section), the precedence between every source, and the
 * presenter's override. Every report is validated against the published schema.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { strToU8 } from "fflate";
import { readDeckExtras } from "../../src/deck/extras.ts";
import type { PdfDoc } from "../../src/deck/mupdf-types.ts";
import { readNotesFile } from "../../src/deck/notes-file/index.ts";
import { buildCheckReport, type ReportOptions } from "../../src/deck/report.ts";
import { loadMupdf } from "../../src/pdf/mupdf.ts";
import { buildNotesDeck, framesWithNotes, xmpPacket, type NotesDeckSpec } from "../fixtures/notes-layouts.ts";
import { buildPptx } from "../fixtures/pptx.ts";
import { buildFixturePdf, notesSidecar, pdfpcFile, sha256Hex, type FixtureSpec } from "../fixtures/sidecar-builder.ts";
import { expectValidReport } from "../helpers/report-schema.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (3.1 s).
setDefaultTimeout(45_000);

async function report(bytes: Uint8Array, options: ReportOptions = {}) {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF() as PdfDoc;
  const pageCount = doc.countPages();
  const result = buildCheckReport(mupdf, doc, { bytes: bytes.length, sha256: sha256Hex(bytes), pdfVersion: "1.7", title: null, pageCount }, options);
  expectValidReport(result);
  return { report: result, doc, mupdf };
}
const notesDeck = (spec: Partial<NotesDeckSpec> = {}) => buildNotesDeck({ position: "right", frames: framesWithNotes(3), labels: "pgfpages", ...spec });
const plainDeck = (spec: FixtureSpec = {}) => buildFixturePdf({ pages: 3, ...spec });

describe("a Beamer notes layout in the report", () => {
  test("layout, sources, XMP fields, timer and the notes half's text per slide", async () => {
    const { report: r } = await report(await notesDeck({ xmp: xmpPacket({ Duration: "20", LastMinutes: "5", EndUserSlide: "3", NotesPosition: "right", DisableMarkdown: "false" }) }));
    expect(r.ok).toBe(true);
    expect(r.notesLayout).toEqual({ kind: "beamer-second-screen", position: "right", from: "xmp" });
    expect(r.notesSources).toEqual(["notes-page"]);
    expect(r.pdfpcMetadata).toEqual({ duration: 20, lastMinutes: 5, endUserSlide: 3, notesPosition: "right", disableMarkdown: false });
    expect(r.timer).toEqual({ durationMinutes: 20, lastMinutes: 5, endSlide: 3, sources: { durationMinutes: "xmp", lastMinutes: "xmp", endSlide: "xmp" } });
    expect(r.notesFile).toBeNull();
    expect(r.pages.map((p) => p.presenterNotes)).toEqual([
      { source: "notes-page", text: "Notes for frame 1, spoken slowly.\n• first point\n• second point", format: "text" },
      { source: "notes-page", text: "Notes for frame 2, spoken slowly.\n• first point\n• second point", format: "text" },
      { source: "notes-page", text: "Notes for frame 2, spoken slowly.\n• first point\n• second point", format: "text" },
      { source: "notes-page", text: "Notes for frame 3, spoken slowly.\n• first point\n• second point", format: "text" },
    ]);
  });

  test("a deck that looks like a notes layout but cannot be split is a warning, pages shown whole", async () => {
    const { report: r } = await report(await notesDeck({ pageSizes: { 0: { w: 362.835, h: 272.126 } } }));
    expect(r.ok).toBe(true);
    expect(r.notesLayout).toEqual({ kind: "none", position: "none", from: null });
    expect(r.issues.map((i) => i.code)).toContain("NOTES_LAYOUT_UNSPLITTABLE");
    expect(r.notesSources).toEqual([]);
  });

  test("readDeckExtras: the layout, notes from the notes half, and the presenter's override", async () => {
    const { mupdf, doc } = await report(await notesDeck());
    const extras = readDeckExtras(mupdf, doc);
    expect(extras.layout).toEqual({ kind: "beamer-second-screen", position: "right", from: "geometry" });
    expect(extras.notesSource).toEqual({ 1: "notes-page", 2: "notes-page", 3: "notes-page", 4: "notes-page" });
    expect(extras.notes[4]).toBe("Notes for frame 3, spoken slowly.\n• first point\n• second point");
    expect(extras.notesFormat[4]).toBe("text");
    // Override "none": the whole page is the slide, no notes half is read.
    const none = readDeckExtras(mupdf, doc, { notesPosition: "none" });
    expect(none.layout).toEqual({ kind: "none", position: "none", from: "override" });
    expect(none.notes).toEqual({});
    // Override to the other side: its text (the slide's) is what the notes pane would show.
    const left = readDeckExtras(mupdf, doc, { notesPosition: "left" });
    expect(left.layout).toEqual({ kind: "beamer-second-screen", position: "left", from: "override" });
    expect(left.notes[1]).toContain("Point 1 of Frame 1");
  });
});

describe("a notes file beside the PDF", () => {
  const pptx = buildPptx([{ notes: ["First slide notes"] }, { notes: ["Hidden"], hidden: true }, { notes: ["Second slide notes"] }, { notes: ["Third slide notes"] }]);

  test("a .pptx: its own report section, notes with source notes-file", async () => {
    const { report: r } = await report(await plainDeck(), { notesFile: { bytes: pptx, filename: "talk.pptx" } });
    expect(r.ok).toBe(true);
    expect(r.notesFile).toEqual({ filename: "talk.pptx", kind: "pptx", validity: "valid", issues: [], slideCount: 4, slidesWithNotes: [1, 2, 3] });
    expect(r.notesSources).toEqual(["notes-file"]);
    expect(r.pages.map((p) => p.presenterNotes?.text)).toEqual(["First slide notes", "Second slide notes", "Third slide notes"]);
    expect(r.pages.map((p) => p.presenterNotes?.source)).toEqual(["notes-file", "notes-file", "notes-file"]);
  });

  test("a bad notes file: its findings in its section, the report not ok, nothing used", async () => {
    const { report: r } = await report(await plainDeck(), { notesFile: { bytes: strToU8("not notes"), filename: "notes.txt" } });
    expect(r.ok).toBe(false);
    expect(r.notesFile).toMatchObject({ filename: "notes.txt", kind: null, validity: "invalid", slideCount: null, slidesWithNotes: [] });
    expect(r.notesFile?.issues.map((i) => i.code)).toEqual(["NOTES_FILE_UNRECOGNIZED"]);
    expect(r.notesSources).toEqual([]);
  });

  test("a mismatched slide count: a warning, ok stays true", async () => {
    const { report: r } = await report(await plainDeck({ pages: 5 }), { notesFile: { bytes: pptx, filename: "talk.pptx" } });
    expect(r.ok).toBe(true);
    expect(r.notesFile?.validity).toBe("warning");
    expect(r.notesFile?.issues.map((i) => i.code)).toEqual(["NOTES_FILE_SLIDE_COUNT_MISMATCH"]);
  });

  test("readDeckExtras takes the stored normalised .pdfpc text", async () => {
    const stored = readNotesFile(pptx, "talk.pptx", 3).pdfpc as string;
    const bytes = await plainDeck();
    const { mupdf, doc } = await report(bytes, { notesFile: stored });
    const extras = readDeckExtras(mupdf, doc, { notesFile: stored });
    expect(extras.notes).toEqual({ 1: "First slide notes", 2: "Second slide notes", 3: "Third slide notes" });
    expect(extras.notesSource).toEqual({ 1: "notes-file", 2: "notes-file", 3: "notes-file" });
  });
});

describe("precedence: notes sidecar > notes file > attached pdfpc > notes half > annotation", () => {
  test("every source on one deck; a warning names the one used", async () => {
    const notesFile = JSON.stringify({ pdfpcFormat: 2, duration: 30, pages: [{ idx: 0, note: "file 1" }, { idx: 1, note: "file 2" }] });
    const bytes = await plainDeck({
      pages: 4,
      attachments: [notesSidecar(1, "sidecar 1"), pdfpcFile({ pdfpcFormat: 2, duration: 25, lastMinutes: 4, pages: [{ idx: 0, note: "pdfpc 1" }, { idx: 1, note: "pdfpc 2" }, { idx: 2, note: "pdfpc 3" }] })],
      textNotes: [{ page: 3, text: "annot 3" }, { page: 4, text: "annot 4" }],
    });
    const { report: r } = await report(bytes, { notesFile: { bytes: strToU8(notesFile), filename: "talk.pdfpc" } });
    expect(r.pages.map((p) => p.presenterNotes?.source)).toEqual(["notes-sidecar", "notes-file", "pdfpc", "annotation"]);
    expect(r.notesSources).toEqual(["notes-sidecar", "notes-file", "pdfpc", "annotation"]);
    expect(r.timer).toEqual({ durationMinutes: 30, lastMinutes: 4, sources: { durationMinutes: "notes-file", lastMinutes: "pdfpc" } });
    const warnings = r.pages.map((p) => p.issues.find((i) => i.code === "NOTES_MULTIPLE_SOURCES")?.message);
    expect(warnings[0]).toContain("the presenter shows those from a notes sidecar (notes-slide-1.json)");
    expect(warnings[0]).toContain("the notes file beside the PDF");
    expect(warnings[1]).toContain("the presenter shows those from the notes file beside the PDF");
    expect(warnings[2]).toContain("the presenter shows those from the pdfpc file (talk.pdfpc)");
    expect(warnings[3]).toBeUndefined();
  });

  test("the notes file beats the notes half; the notes half beats nothing else", async () => {
    const notesFile = JSON.stringify({ pdfpcFormat: 2, pages: [{ idx: 0, note: "from the file" }] });
    const { report: r } = await report(await notesDeck({ xmp: xmpPacket({ Duration: "20" }) }), { notesFile: { bytes: strToU8(notesFile), filename: "talk.pdfpc" } });
    expect(r.pages.map((p) => p.presenterNotes?.source)).toEqual(["notes-file", "notes-page", "notes-page", "notes-page"]);
    expect(r.pages[0]?.issues.map((i) => i.message)).toEqual([expect.stringContaining("notes from the notes file beside the PDF and the notes half of the page; the presenter shows those from the notes file beside the PDF")]);
    expect(r.timer).toEqual({ durationMinutes: 20, sources: { durationMinutes: "xmp" } });
  });
});
