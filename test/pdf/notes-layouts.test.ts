/**
 * Notes in the pages (Beamer's notes on a second screen) on fixtures built by code: the layout
 * from XMP or geometry + structure in all four positions, the notes half's text without
 * Beamer's header, pgfpages' page labels repaired, pdfpc.sty's XMP fields, and what cannot be
 * split or disagrees.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { detectNotesLayout, doublingOf } from "../../src/deck/notes-layout-detect.ts";
import { notesRect, slideRect } from "../../src/deck/notes-layout.ts";
import { readNotesText } from "../../src/deck/notes-text.ts";
import { readPageLabels } from "../../src/deck/page-labels.ts";
import { readPdfpcMetadata } from "../../src/deck/xmp.ts";
import type { PdfDoc } from "../../src/deck/mupdf-types.ts";
import { loadMupdf } from "../../src/pdf/mupdf.ts";
import { buildNotesDeck, framesWithNotes, SLIDE_SIZES, xmpPacket, type NotesDeckSpec } from "../fixtures/notes-layouts.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (3.1 s).
setDefaultTimeout(45_000);

async function open(spec: NotesDeckSpec): Promise<{ doc: PdfDoc; pageCount: number }> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(await buildNotesDeck(spec), "application/pdf").asPDF() as PdfDoc;
  return { doc, pageCount: doc.countPages() };
}

const POSITIONS = ["right", "left", "bottom", "top"] as const;

describe("geometry", () => {
  test("twice one of Beamer's ratios in one direction, tightly", () => {
    for (const [w, h] of [[4, 3], [16, 9], [16, 10], [14, 9], [5, 4], [3, 2], [1.41, 1]] as const) {
      expect(doublingOf({ w: 2 * w * 100, h: h * 100 })).toBe("wide");
      expect(doublingOf({ w: w * 100, h: 2 * h * 100 })).toBe("tall");
    }
    // Beamer's own sizes: 4:3 doubled is 725.669 × 272.126, 16:9 doubled 907.087 × 255.118.
    expect(doublingOf({ w: 725.669, h: 272.126 })).toBe("wide");
    expect(doublingOf({ w: 907.087, h: 255.118 })).toBe("wide");
    // Plain slides and paper never match; US Letter portrait is 3% from a halved 3:2.
    expect(doublingOf({ w: 362.835, h: 272.126 })).toBeNull();
    expect(doublingOf({ w: 612, h: 792 })).toBeNull();
    expect(doublingOf({ w: 792, h: 612 })).toBeNull();
    expect(doublingOf({ w: 2 * 362.835 * 1.01, h: 272.126 })).toBeNull();
  });
});

describe("layout, notes text and labels in all four positions", () => {
  for (const position of POSITIONS) {
    test(`${position}: from the XMP field, from the pages alone, and the notes half's text`, async () => {
      const { doc, pageCount } = await open({ position, frames: framesWithNotes(3), labels: "pgfpages", xmp: xmpPacket({ Duration: "20", NotesPosition: position }) });
      expect(pageCount).toBe(4);
      const metadata = readPdfpcMetadata(doc);
      expect(metadata).toEqual({ metadata: { duration: 20, notesPosition: position }, issues: [] });
      expect(detectNotesLayout(doc, pageCount, metadata.metadata)).toEqual({ layout: { kind: "beamer-second-screen", position, from: "xmp" }, issues: [] });
      expect(detectNotesLayout(doc, pageCount, null)).toEqual({ layout: { kind: "beamer-second-screen", position, from: "geometry" }, issues: [] });
      const text = readNotesText(doc, 1, position);
      expect(text).toBe("Notes for frame 2, spoken slowly.\n• first point\n• second point");
      // Beamer's header (date, title, frame title) and the miniature's text are left out.
      for (const header of ["2026", "Deckhand Fixture", "Point 1", "Frame 2"]) expect(text).not.toContain(header);
      // pgfpages' labels (1 1 2 2 for the physical pages) become the frames: 3 frames, 4 pages.
      expect(readPageLabels(doc, pageCount)).toEqual(["1", "2", "2", "3"]);
    });
  }

  test("the halves are rectangles of the page: slide + notes = page", () => {
    const size = { w: 725.669, h: 272.126 };
    for (const position of POSITIONS) {
      const s = slideRect(size, position);
      const n = notesRect(size, position)!;
      expect(s.w * s.h + n.w * n.h).toBeCloseTo(size.w * size.h, 3);
      expect(s.x === n.x && s.y === n.y).toBe(false);
    }
  });

  test("a notes page without Beamer's header keeps all its text", async () => {
    const { doc } = await open({ position: "right", frames: [{ title: "Only", notes: ["Plain notes page", "second line"] }], header: false });
    expect(readNotesText(doc, 0, "right")).toBe("Plain notes page\nsecond line");
    expect(readNotesText(doc, 0, "none")).toBe("");
  });

  test("notes text is plain text as drawn, never escaped; paragraphs by vertical gaps", async () => {
    const { doc } = await open({ position: "right", frames: [{ title: "Only", notes: ["Cost is 5*3 [approx]", "", "# not a heading"] }] });
    expect(readNotesText(doc, 0, "right")).toBe("Cost is 5*3 [approx]\n\n# not a heading");
  });
});

describe("detection without XMP", () => {
  test("navigation symbols alone tell the slide half (no notes header)", async () => {
    for (const position of ["left", "bottom"] as const) {
      const { doc, pageCount } = await open({ position, frames: framesWithNotes(2), header: false });
      expect(detectNotesLayout(doc, pageCount, null).layout).toEqual({ kind: "beamer-second-screen", position, from: "geometry" });
    }
  });

  test("side-by-side halves with no structure: notes taken on the right, with a warning", async () => {
    const { doc, pageCount } = await open({ position: "right", frames: [{ title: "A" }, { title: "B" }], header: false, navigation: false });
    const result = detectNotesLayout(doc, pageCount, null);
    expect(result.layout).toEqual({ kind: "beamer-second-screen", position: "right", from: "geometry" });
    expect(result.issues.map((i) => i.code)).toEqual(["NOTES_LAYOUT_UNCERTAIN"]);
  });

  test("stacked halves with no structure (an A4 portrait document) are not split, silently", async () => {
    const { doc, pageCount } = await open({ position: "none", frames: [{ title: "Page" }], navigation: false, slide: { w: 595.28, h: 841.89 } });
    expect(detectNotesLayout(doc, pageCount, null)).toEqual({ layout: { kind: "none", position: "none", from: null }, issues: [] });
  });

  test("US Letter and ordinary 4:3 slides are no notes layout", async () => {
    for (const slide of [{ w: 612, h: 792 }, SLIDE_SIZES["4:3"], SLIDE_SIZES["16:9"]]) {
      const { doc, pageCount } = await open({ position: "none", frames: framesWithNotes(2), slide });
      expect(detectNotesLayout(doc, pageCount, null)).toEqual({ layout: { kind: "none", position: "none", from: null }, issues: [] });
    }
  });

  test("some pages doubled, some not: cannot be split, a warning", async () => {
    const { doc, pageCount } = await open({ position: "right", frames: framesWithNotes(3), pageSizes: { 3: SLIDE_SIZES["4:3"] } });
    const result = detectNotesLayout(doc, pageCount, null);
    expect(result.layout.kind).toBe("none");
    expect(result.issues.map((i) => i.code)).toEqual(["NOTES_LAYOUT_UNSPLITTABLE"]);
    expect(result.issues[0]?.message).toContain("3 of the 4 pages");
  });
});

describe("XMP against the pages", () => {
  test("XMP says right, the notes pages are on the left: the pages win, with a warning", async () => {
    const { doc, pageCount } = await open({ position: "left", frames: framesWithNotes(2) });
    const result = detectNotesLayout(doc, pageCount, { notesPosition: "right" });
    expect(result.layout).toEqual({ kind: "beamer-second-screen", position: "left", from: "geometry" });
    expect(result.issues.map((i) => i.code)).toEqual(["NOTES_LAYOUT_MISMATCH"]);
  });

  test("XMP says bottom on ordinary slides: nothing split, a warning", async () => {
    const { doc, pageCount } = await open({ position: "none", frames: framesWithNotes(2) });
    const result = detectNotesLayout(doc, pageCount, { notesPosition: "bottom" });
    expect(result.layout.kind).toBe("none");
    expect(result.issues.map((i) => i.code)).toEqual(["NOTES_LAYOUT_MISMATCH"]);
  });

  test("XMP says none (pdfpc.sty could not guess) on a notes layout: the pages win, with a warning", async () => {
    const { doc, pageCount } = await open({ position: "bottom", frames: framesWithNotes(2) });
    const result = detectNotesLayout(doc, pageCount, { notesPosition: "none" });
    expect(result.layout).toEqual({ kind: "beamer-second-screen", position: "bottom", from: "geometry" });
    expect(result.issues.map((i) => i.code)).toEqual(["NOTES_LAYOUT_MISMATCH"]);
  });
});

describe("page labels", () => {
  test("pgfpages labels without their shape fall back to Beamer's navigation links", async () => {
    // Frames 1, 2 (two overlays), 3, with labels that name logical pages but not as pgfpages does.
    const { doc, pageCount } = await open({ position: "right", frames: framesWithNotes(3), labels: "pgfpages" });
    expect(readPageLabels(doc, pageCount)).toEqual(["1", "2", "2", "3"]);
    const labels = doc.getTrailer().get("Root", "PageLabels");
    // Keep pgfpages' tell (it starts as pgfpages does) but lose the later slides' frame numbers.
    const nums = labels.get("Nums");
    for (let k = 1; k < pageCount; k++) nums.put(4 * k + 1, doc.newDictionary());
    expect(readPageLabels(doc, pageCount)).toEqual(["1", "2", "2", "3"]);
  });

  test("untrusted labels with no navigation: every page is its own slide", async () => {
    const { doc, pageCount } = await open({ position: "right", frames: framesWithNotes(3), labels: "pgfpages", navigation: false });
    const nums = doc.getTrailer().get("Root", "PageLabels").get("Nums");
    for (let k = 1; k < pageCount; k++) nums.put(4 * k + 1, doc.newDictionary());
    expect(readPageLabels(doc, pageCount)).toEqual(["1", "2", "3", "4"]);
  });

  test("a label tree that names more pages than the PDF has, but not in pgfpages' shape, is read as it is", async () => {
    const { doc, pageCount } = await open({ position: "none", frames: framesWithNotes(3), labels: "frames" });
    const nums = doc.getTrailer().get("Root", "PageLabels").get("Nums");
    nums.push(9);
    nums.push(doc.newDictionary());
    expect(readPageLabels(doc, pageCount)).toEqual(["1", "2", "2", "3"]);
  });

  test("trustworthy labels are kept as the PDF gives them", async () => {
    const { doc, pageCount } = await open({ position: "none", frames: framesWithNotes(3), labels: "frames" });
    expect(readPageLabels(doc, pageCount)).toEqual(["1", "2", "2", "3"]);
  });
});

describe("pdfpc.sty's XMP fields", () => {
  const meta = async (xmp: string) => readPdfpcMetadata((await open({ position: "none", frames: [{ title: "x" }], xmp })).doc);

  test("every field, as elements (what hyperxmp writes)", async () => {
    const fields = { Duration: "20", StartTime: "09:30", EndTime: "10:15", LastMinutes: "5", EndUserSlide: "12", NotesPosition: "left", DisableMarkdown: "true" };
    expect(await meta(xmpPacket(fields))).toEqual({ metadata: { duration: 20, startTime: "09:30", endTime: "10:15", lastMinutes: 5, endUserSlide: 12, notesPosition: "left", disableMarkdown: true }, issues: [] });
  });

  test("as rdf:Description attributes, under any prefix bound to pdfpc's namespace", async () => {
    expect(await meta(xmpPacket({ Duration: "15", EndTime: "2026-11-25T10:45:00" }, { as: "attributes", prefix: "pc" }))).toEqual({ metadata: { duration: 15, endTime: "10:45" }, issues: [] });
  });

  test("another namespace's Duration is not pdfpc's", async () => {
    expect(await meta(xmpPacket({ Duration: "15" }, { prefix: "pdfpc", namespace: "http://example.org/other" }))).toEqual({ metadata: null, issues: [] });
  });

  test("bad values are left out, each with a warning", async () => {
    const result = await meta(xmpPacket({ Duration: "twenty", EndTime: "25:00", EndUserSlide: "0", NotesPosition: "middle", DisableMarkdown: "maybe", LastMinutes: "3" }));
    expect(result.metadata).toEqual({ lastMinutes: 3 });
    expect(result.issues.map((i) => i.code)).toEqual(Array(5).fill("PDFPC_METADATA_INVALID"));
  });

  test("a packet with a DOCTYPE is refused, nothing expanded", async () => {
    const doctype = `<!DOCTYPE x:xmpmeta [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>`;
    const result = await meta(xmpPacket({ Duration: "&b;" }, { doctype }).replace("&amp;b;", "&b;"));
    expect(result).toEqual({ metadata: null, issues: [expect.objectContaining({ code: "XML_DOCTYPE_REFUSED", level: "error" })] });
  });

  test("a metadata stream that inflates past 4 MiB, or nests 1,000 deep, is not read", async () => {
    const bomb = await meta(`${xmpPacket({ Duration: "20" })}${" ".repeat(5 * 1024 * 1024)}`);
    expect(bomb.issues.map((i) => i.code)).toEqual(["XMP_UNREADABLE"]);
    expect(bomb.issues[0]?.message).toContain("larger than 4 MiB");
    const deep = await meta(`<x:xmpmeta xmlns:x="adobe:ns:meta/">${"<a>".repeat(1000)}${"</a>".repeat(1000)}</x:xmpmeta>`);
    expect(deep).toEqual({ metadata: null, issues: [expect.objectContaining({ code: "XMP_UNREADABLE" })] });
  }, 60_000);

  test("a packet that is not XML is a warning; a PDF without one has no metadata", async () => {
    expect((await meta("<x:xmpmeta><unclosed>")).issues.map((i) => i.code)).toEqual(["XMP_UNREADABLE"]);
    expect(readPdfpcMetadata((await open({ position: "none", frames: [{ title: "x" }] })).doc)).toEqual({ metadata: null, issues: [] });
  });
});
