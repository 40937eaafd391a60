/**
 * Slides as the deck's own tool counts them, on decks built by pdflatex
 * (test/fixtures/slide-tool-decks.ts): a Polylux-style deck of 40 pages without page labels,
 * grouped into 31 slides by the .pdfpc polylux2pdfpc writes (attached to the PDF, or beside it
 * as the notes file), and a Beamer deck whose 13-step build runs by itself
 * (`\transduration<2-12>{0.2}`, pdfpc's demo). The grouping reaches the check report's labels,
 * the server's slide count (inspectPdf) and the render worker's labels (readSlideLabels) by
 * one route, so they agree with a notes file beside and a .pdfpc attached, and when the
 * analysis's budgets keep it from reading the .pdfpc; the durations reach the report and the
 * worker. pdflatex must be installed (.ci/run does).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { PdfDoc } from "../../src/deck/mupdf-types.ts";
import { readNotesFile } from "../../src/deck/notes-file/index.ts";
import { readPageDurations } from "../../src/deck/page-durations.ts";
import { readPageLabels } from "../../src/deck/page-labels.ts";
import { buildCheckReport, type CheckReport, type ReportOptions } from "../../src/deck/report.ts";
import { groupedLabels, readSlideLabels, slideCountOf } from "../../src/deck/slide-groups.ts";
import { loadMupdf } from "../../src/pdf/mupdf.ts";
import { inspectPdf } from "../../src/pdf/open.ts";
import { removeBeamerDecks } from "../fixtures/beamer.ts";
import { buildFixturePdf, pdfpcFile, removeFixtureDir, sha256Hex, writeBytes } from "../fixtures/sidecar-builder.ts";
import { attachFiles, buildDurationDeck, buildPolyluxStyleDeck, polyluxPdfpc, polyluxSlideOfPage, STEP_SECONDS } from "../fixtures/slide-tool-decks.ts";
import { expectValidReport } from "../helpers/report-schema.ts";

let polylux: Uint8Array;
let polyluxAttached: Uint8Array;
let duration: Uint8Array;
/** The slide label of each of the 40 pages, as pdfpc counts them: "1", "2", "2", "2", "3", … "31". */
const SLIDES = polyluxSlideOfPage().map(String);

beforeAll(async () => {
  polylux = buildPolyluxStyleDeck();
  polyluxAttached = await attachFiles(polylux, [{ name: "talk.pdfpc", text: polyluxPdfpc({ notes: { 2: "Build it up" } }) }]);
  duration = buildDurationDeck();
}, 600_000);
afterAll(() => {
  removeBeamerDecks();
  removeFixtureDir();
});

async function open(bytes: Uint8Array): Promise<PdfDoc> {
  const mupdf = await loadMupdf();
  return mupdf.Document.openDocument(bytes, "application/pdf").asPDF() as PdfDoc;
}

async function report(bytes: Uint8Array, notesFile?: { bytes: Uint8Array; filename: string }, options: Omit<ReportOptions, "notesFile"> = {}): Promise<CheckReport> {
  const mupdf = await loadMupdf();
  const doc = await open(bytes);
  try {
    const out = buildCheckReport(mupdf, doc, { bytes: bytes.length, sha256: sha256Hex(bytes), pdfVersion: "1.5", title: null, pageCount: doc.countPages() }, { ...options, ...(notesFile ? { notesFile } : {}) });
    expectValidReport(out);
    return out;
  } finally {
    doc.destroy();
  }
}

describe("pdfpc's grouping rule", () => {
  test("a forced overlay joins the slide before it; a deck without labels is numbered by slide", () => {
    expect(groupedLabels(["1", "2", "3", "4", "5"], [3, 4])).toEqual(["1", "2", "2", "2", "3"]);
    // Page 1 cannot join anything, and pages outside the deck are ignored.
    expect(groupedLabels(["1", "2", "3"], [1, 9])).toEqual(["1", "2", "3"]);
  });

  test("on top of page labels: a labelled deck keeps its labels, a joined page takes its slide's", () => {
    // Beamer frames i, ii, ii, iii with the page of iii marked an overlay of ii in pdfpc (Ctrl+O).
    expect(groupedLabels(["i", "ii", "ii", "iii", "iv"], [4])).toEqual(["i", "ii", "ii", "ii", "iv"]);
    // pdfpc opens a new slide only where the label differs from the one that opened the slide:
    // a page labelled like the slide it was joined to stays in it.
    expect(groupedLabels(["A", "B", "A", "A"], [2])).toEqual(["A", "A", "A", "A"]);
  });

  test("without overlays the labels are as they were", () => {
    expect(groupedLabels(["1", "1", "2"], [])).toEqual(["1", "1", "2"]);
    expect(slideCountOf(["1", "1", "2", "3", "3"])).toBe(3);
  });
});

describe("a Polylux-style deck (no page labels) and its .pdfpc", () => {
  test("the PDF has no page labels: alone, every page is a slide", async () => {
    const doc = await open(polylux);
    expect(readPageLabels(doc, 40)).toEqual(Array.from({ length: 40 }, (_, i) => String(i + 1)));
    expect(readSlideLabels(doc, 40)).toEqual(Array.from({ length: 40 }, (_, i) => String(i + 1)));
    doc.destroy();
    const plain = await report(polylux);
    expect(plain.pages.map((p) => p.label)).toEqual(Array.from({ length: 40 }, (_, i) => String(i + 1)));
  });

  test("attached to the PDF, its forced overlays make 31 slides of the 40 pages: worker labels and report agree", async () => {
    const doc = await open(polyluxAttached);
    const labels = readSlideLabels(doc, 40);
    doc.destroy();
    expect(labels).toEqual(SLIDES);
    expect(slideCountOf(labels)).toBe(31);
    const out = await report(polyluxAttached);
    expect(out.pages.map((p) => p.label)).toEqual(SLIDES);
    // Findings name a page by its slide: the .pdfpc's note on page 2 is slide 2 (steps on pages 2–4).
    expect(out.pages[4]!.label).toBe("3");
    expect(out.pages[1]!.presenterNotes).toMatchObject({ source: "pdfpc", text: "Build it up" });
  });

  test("beside the PDF (the notes file), normalised as it is stored, it groups the same pages", async () => {
    const text = polyluxPdfpc({ notes: { 1: "Welcome" } });
    const file = readNotesFile(new TextEncoder().encode(text), "talk.pdfpc", 40);
    expect(file.issues.filter((i) => i.level === "error")).toEqual([]);
    expect(file.overlays).toEqual(SLIDES.flatMap((label, i) => (i > 0 && SLIDES[i - 1] === label ? [i + 1] : [])));
    // What the server stores and the browser keeps: the forced overlays are in it.
    const stored = JSON.parse(file.pdfpc!) as { pages: { idx: number; forcedOverlay?: boolean }[] };
    expect(stored.pages.filter((p) => p.forcedOverlay).map((p) => p.idx + 1)).toEqual(file.overlays);
    const doc = await open(polylux);
    expect(readSlideLabels(doc, 40, file.pdfpc)).toEqual(SLIDES);
    doc.destroy();
    const out = await report(polylux, { bytes: new TextEncoder().encode(text), filename: "talk.pdfpc" });
    expect(out.pages.map((p) => p.label)).toEqual(SLIDES);
    expect(out.notesFile).toMatchObject({ kind: "pdfpc", validity: "valid" });
  });

  test("the notes file's grouping wins over the attached one when it marks any", async () => {
    // A notes file that joins nothing leaves the attached grouping; one that joins pages 2–40 wins.
    const none = JSON.stringify({ pdfpcFormat: 2, pages: [{ idx: 0, note: "Hi" }] });
    const all = JSON.stringify({ pdfpcFormat: 2, pages: Array.from({ length: 39 }, (_, i) => ({ idx: i + 1, forcedOverlay: true })) });
    const doc = await open(polyluxAttached);
    expect(readSlideLabels(doc, 40, none)).toEqual(SLIDES);
    expect(new Set(readSlideLabels(doc, 40, all))).toEqual(new Set(["1"]));
    doc.destroy();
  });

  test("a notes file beside and a .pdfpc attached: the worker's labels, the server's count and the report's labels agree, whichever of them groups", async () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    const path = writeBytes(polyluxAttached, "both.pdf").path;
    // The notes file gives notes only: the attached .pdfpc groups, everywhere.
    const notesOnly = JSON.stringify({ pdfpcFormat: 2, pages: [{ idx: 0, note: "Hi" }] });
    // The notes file joins every even page to the one before: it groups, everywhere.
    const pairs = JSON.stringify({ pdfpcFormat: 2, pages: Array.from({ length: 20 }, (_, i) => ({ idx: 2 * i + 1, forcedOverlay: true })) });
    const PAIRS = Array.from({ length: 40 }, (_, i) => String(Math.floor(i / 2) + 1));
    for (const [text, want] of [[notesOnly, SLIDES], [pairs, PAIRS]] as const) {
      const stored = readNotesFile(encode(text), "talk.pdfpc", 40).pdfpc;
      const doc = await open(polyluxAttached);
      const worker = readSlideLabels(doc, 40, stored);
      doc.destroy();
      const out = await report(polyluxAttached, { bytes: encode(text), filename: "talk.pdfpc" });
      expect(worker).toEqual([...want]);
      expect(out.pages.map((p) => p.label)).toEqual(worker);
      expect((await inspectPdf(path, () => stored)).slides).toBe(slideCountOf(worker));
    }
  });

  test("a deck whose first .pdfpc the analysis cannot read within its budgets: the report's labels are still the presenter's, and a second .pdfpc is not used instead", async () => {
    const other = JSON.stringify({ pdfpcFormat: 2, pages: [{ idx: 0, note: "From the second file" }, { idx: 1, forcedOverlay: true }] });
    const bytes = await attachFiles(polylux, [{ name: "talk.pdfpc", text: polyluxPdfpc() }, { name: "zz-other.pdfpc", text: other }]);
    const doc = await open(bytes);
    const worker = readSlideLabels(doc, 40);
    doc.destroy();
    expect(worker).toEqual(SLIDES);
    // Each attachment may decode to 1 KiB here: the first .pdfpc (about 3 KiB) is not read by the analysis.
    const out = await report(bytes, undefined, { maxAttachmentBytes: 1024 });
    const first = out.documentAttachments.find((a) => a.name === "talk.pdfpc")!;
    expect(first.issues.map((i) => i.code)).toEqual(["ATTACHMENT_TOO_LARGE"]);
    expect(out.pages.map((p) => p.label)).toEqual(worker);
    // Only the first is the deck's: the second, read, gives neither notes nor grouping.
    expect(out.documentAttachments.find((a) => a.name === "zz-other.pdfpc")!.issues.map((i) => i.code)).toEqual(["PDFPC_MULTIPLE"]);
    expect(out.pages[0]!.presenterNotes).toBeNull();
  });

  test("the server counts the slides the presenter will: 31 with the .pdfpc, attached or beside; 40 without", async () => {
    const dir = writeBytes(polyluxAttached, "attached.pdf");
    expect(await inspectPdf(dir.path)).toMatchObject({ pageCount: 40, slides: 31 });
    const plain = writeBytes(polylux, "plain.pdf");
    expect(await inspectPdf(plain.path)).toMatchObject({ pageCount: 40, slides: 40 });
    const normalised = readNotesFile(new TextEncoder().encode(polyluxPdfpc()), "talk.pdfpc", 40).pdfpc;
    let asked = 0;
    expect(await inspectPdf(plain.path, (pages) => (asked = pages, normalised))).toMatchObject({ pageCount: 40, slides: 31 });
    expect(asked).toBe(40);
  });

  test("a .pdfpc attached to a page (a FileAttachment annotation) groups the same in the worker's labels and the report", async () => {
    const pdfpc = { pdfpcFormat: 2, pages: [{ idx: 2, label: 2, overlay: 1, forcedOverlay: true }, { idx: 1, label: 2, overlay: 0, forcedOverlay: false }] };
    const bytes = await buildFixturePdf({ pages: 4, attachments: [{ ...pdfpcFile(pdfpc), page: 1 }] });
    const doc = await open(bytes);
    expect(readSlideLabels(doc, 4)).toEqual(["1", "2", "2", "3"]);
    doc.destroy();
    expect((await report(bytes)).pages.map((p) => p.label)).toEqual(["1", "2", "2", "3"]);
  });

  test("a malformed grouping field is a finding, and groups nothing", async () => {
    const text = JSON.stringify({ pdfpcFormat: 2, pages: [{ idx: 1, label: { x: 1 }, overlay: -1, forcedOverlay: "yes" }] });
    const file = readNotesFile(new TextEncoder().encode(text), "talk.pdfpc", 40);
    expect(file.overlays).toEqual([]);
    expect(file.issues.map((i) => i.code)).toEqual(["INVALID_FIELD", "INVALID_FIELD", "INVALID_FIELD", "NOTES_FILE_EMPTY"]);
    expect(file.issues.map((i) => i.message).join(" ")).toContain("forcedOverlay must be true or false");
  });
});

describe("a Beamer deck whose build advances by itself (\\transduration)", () => {
  test("pages 3–13 carry /Dur 0.2; the slides are Beamer's frames", async () => {
    const doc = await open(duration);
    const pages = doc.countPages();
    expect(pages).toBe(15);
    const durations = readPageDurations(doc, pages);
    expect(durations).toEqual(Object.fromEntries(Array.from({ length: 11 }, (_, i) => [i + 3, STEP_SECONDS])));
    expect(readSlideLabels(doc, pages)).toEqual(["1", ...Array.from({ length: 13 }, () => "2"), "3"]);
    doc.destroy();
  });

  test("the check report says which pages advance by themselves, and after how long", async () => {
    const out = await report(duration);
    expect(out.pages.filter((p) => p.duration !== undefined).map((p) => [p.page, p.duration])).toEqual(Array.from({ length: 11 }, (_, i) => [i + 3, STEP_SECONDS]));
    expect(out.pages[13]!.duration).toBeUndefined();
  });
});
