/**
 * Notes read as the deck wrote them: pdflatex's spacing accents put back on their letters by
 * position (deck/text-marks) and composed to NFC, no markdown escape the source did not have,
 * Beamer's `\note[item]` numbers as drawn — on real decks built by pdflatex (OT1, the default,
 * and T1) with notes on a second screen, and on a .pdfpc with `disableMarkdown: false`.
 * pdflatex must be installed (.ci/run does): without it these tests fail, they never skip.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readNotesText } from "../../src/deck/notes-text.ts";
import { buildCheckReport } from "../../src/deck/report.ts";
import { readDeckExtras } from "../../src/deck/extras.ts";
import { escapeMarkdown } from "../../src/deck/sidecar/typst.ts";
import { composeLine, normalizeText, type PlacedChar } from "../../src/deck/text-marks.ts";
import type { PdfDoc } from "../../src/deck/mupdf-types.ts";
import { loadMupdf } from "../../src/pdf/mupdf.ts";
import { buildBeamerDeck, removeBeamerDecks, type BeamerDeckOptions } from "../fixtures/beamer.ts";
import { checkFixture, pdfpcFile, sha256Hex } from "../fixtures/sidecar-builder.ts";
import { expectValidReport } from "../helpers/report-schema.ts";

// The timeout of each test and hook here: pdflatex builds two decks (T1 makes its bitmap fonts once: ~20 s on a loaded 2-vCPU machine).
setDefaultTimeout(240_000);

/** Glyphs laid out left to right, `width` points each; an accent `at` overlaps the glyph it is drawn over. */
function line(text: string, accents: Record<number, "over-next" | "over-previous" | "own-box"> = {}): PlacedChar[] {
  const out: PlacedChar[] = [];
  let x = 0;
  [...text].forEach((c, i) => {
    const how = accents[i];
    if (how === "over-next") out.push({ c, x0: x, x1: x + 5 });
    else if (how === "over-previous") out.push({ c, x0: x - 5, x1: x });
    else {
      out.push({ c, x0: x, x1: x + 5 });
      x += 5;
    }
  });
  return out;
}

describe("spacing accents become the letter they are drawn over (deck/text-marks)", () => {
  test("before the letter (pdflatex, OT1) and after it (other producers), composed to NFC", () => {
    expect(composeLine(line("ans¨atze", { 3: "over-next" }))).toBe("ansätze");
    expect(composeLine(line("ansa¨tze", { 4: "over-previous" }))).toBe("ansätze");
    expect(composeLine(line("caf´e", { 3: "over-next" }))).toBe("café");
    expect(composeLine(line("garc¸on", { 4: "over-previous" }))).toBe("garçon");
    expect(composeLine(line("ˇcesky", { 0: "over-next" }))).toBe("česky");
    expect("ansätze".length).toBe(7);
    expect(composeLine(line("ans¨atze", { 3: "over-next" }))).toBe("ansätze".normalize("NFC"));
  });

  test("a dotless ı or ȷ under a mark above takes its dot back: naïve, not naı̈ve", () => {
    // pdflatex's \"\i: the accent is wider than the ı it sits on, and half over the "a" before it.
    const chars: PlacedChar[] = [
      { c: "n", x0: 490.27, x1: 495.42 },
      { c: "a", x0: 495.42, x1: 500.21 },
      { c: "¨", x0: 498.92, x1: 503.9 },
      { c: "ı", x0: 500.21, x1: 502.59 },
      { c: "v", x0: 502.59, x1: 507.19 },
      { c: "e", x0: 507.19, x1: 511.61 },
    ];
    expect(composeLine(chars)).toBe("naïve");
    expect(normalizeText("nai\u0308ve")).toBe("naïve");
    expect(normalizeText("na\u0131\u0308ve")).toBe("naïve");
  });

  test("a real ^, ~ or ` that advances past its neighbours stays as written", () => {
    expect(composeLine(line("x^2 ~ `code`"))).toBe("x^2 ~ `code`");
    expect(composeLine(line("¨ alone"))).toBe("¨ alone");
  });

  test("strings are composed to NFC (decomposed input from a Mac or a notes file)", () => {
    expect(normalizeText("Ansa\u0308tze cafe\u0301")).toBe("Ansätze café");
    expect(normalizeText("1. Eye contact")).toBe("1. Eye contact");
  });
});

describe("markdown escapes are only those CommonMark honours (Typst text)", () => {
  test("a numbered line's dot is escaped, never the digit: 1\\. shows as 1.", () => {
    expect(escapeMarkdown("1. Eye contact")).toBe("1\\. Eye contact");
    expect(escapeMarkdown("  12) twelve")).toBe("  12\\) twelve");
    expect(escapeMarkdown("# not a heading\n- not a list")).toBe("\\# not a heading\n\\- not a list");
    expect(escapeMarkdown("a_b*c")).toBe("a\\_b\\*c");
  });
});

const NOTE_ITEMS = ["Eye contact", "Ansätze, café and naïve", "Slow down"];
const DECKS: Record<"ot1" | "t1" | "pdfpcnote", BeamerDeckOptions> = {
  ot1: { position: "right", frames: [{ title: "Ansätze", noteItems: NOTE_ITEMS }, { title: "Plain", note: "Ansätze für naïve Cafés" }] },
  t1: { position: "right", t1: true, frames: [{ title: "Ansätze", noteItems: NOTE_ITEMS }, { title: "Plain", note: "Ansätze für naïve Cafés: https://example.org/article135_3818.html" }] },
  pdfpcnote: { position: null, pdfpc: "", frames: [{ title: "Notes", pdfpcNote: ["# Opening", "Run `make` first"] }] },
};
const built = new Map<string, Uint8Array>();

beforeAll(() => {
  for (const [name, options] of Object.entries(DECKS)) built.set(name, buildBeamerDeck(options));
});
afterAll(() => removeBeamerDecks());

async function open(name: string): Promise<{ doc: PdfDoc; bytes: Uint8Array }> {
  const mupdf = await loadMupdf();
  const bytes = built.get(name) as Uint8Array;
  return { doc: mupdf.Document.openDocument(bytes, "application/pdf").asPDF() as PdfDoc, bytes };
}

describe("real pdflatex Beamer notes on a second screen, as drawn", () => {
  for (const name of ["ot1", "t1"] as const) {
    test(`${name}: \\note[item] reads "1. Eye contact" (no backslash), the accents are letters, the text is NFC`, async () => {
      const { doc, bytes } = await open(name);
      const first = readNotesText(doc, 0, "right");
      expect(first).toBe("1. Eye contact\n2. Ansätze, café and naïve\n3. Slow down");
      expect(first).toBe(first.normalize("NFC"));
      expect(first).not.toMatch(/[\\¨´]/);
      const second = readNotesText(doc, 1, "right");
      expect(second).toStartWith("Ansätze für naïve Cafés");
      if (name === "t1") expect(second).toBe("Ansätze für naïve Cafés: https://example.org/article135_3818.html");
      const mupdf = await loadMupdf();
      const report = buildCheckReport(mupdf, doc, { bytes: bytes.length, sha256: sha256Hex(bytes), pdfVersion: "1.5", title: null, pageCount: doc.countPages() });
      expectValidReport(report);
      expect(report.pages[0]!.presenterNotes).toEqual({ source: "notes-page", text: first, format: "text" });
      const extras = readDeckExtras(mupdf, doc);
      expect([extras.notes[1], extras.notesFormat[1]]).toEqual([first, "text"]);
    });
  }
});

describe("a .pdfpc with disableMarkdown: false keeps its markdown for the presenter to render", () => {
  test("code and headings reach the presenter as written, marked markdown", async () => {
    const note = "# Opening\n\nRun `deckhand present talk.pdf` first.\n\n1. Eye contact";
    const report = await checkFixture({ pages: 1, attachments: [pdfpcFile({ pdfpcFormat: 2, disableMarkdown: false, pages: [{ idx: 0, label: "1", overlay: 0, note }] })] });
    expectValidReport(report);
    expect(report.pages[0]!.presenterNotes).toEqual({ source: "pdfpc", text: note, format: "markdown", attachment: "talk.pdfpc" });
  });

  test("pdfpc.sty's in-page notes are markdown where its XMP says DisableMarkdown false, as pdfpc renders them", async () => {
    const { doc, bytes } = await open("pdfpcnote");
    const mupdf = await loadMupdf();
    const report = buildCheckReport(mupdf, doc, { bytes: bytes.length, sha256: sha256Hex(bytes), pdfVersion: "1.5", title: null, pageCount: doc.countPages() });
    expectValidReport(report);
    expect(report.pdfpcMetadata).toMatchObject({ disableMarkdown: false });
    expect(report.pages[0]!.presenterNotes).toEqual({ source: "annotation", text: "# Opening\nRun `make` first", format: "markdown" });
    // A deck without pdfpc.sty's XMP: another tool's annotation, plain text.
    const plain = await checkFixture({ pages: 1, textNotes: [{ page: 1, text: "# not a heading" }] });
    expect(plain.pages[0]!.presenterNotes).toMatchObject({ format: "text", text: "# not a heading" });
  });
});
