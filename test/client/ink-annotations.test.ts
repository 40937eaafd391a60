/**
 * Export with the ink burned in (issue "Stage tools" item 5), at the unit level: the same
 * browser-safe function the render worker runs, here on mupdf under Bun. Each stroke is a
 * PDF Ink annotation on its own page, read back with pdf-lib (PDF user space, y up); the
 * original bytes stay as they were (incremental save).
 */
import { describe, expect, test } from "bun:test";
import * as mupdf from "mupdf";
import { PDFArray, PDFDict, PDFDocument, PDFName } from "pdf-lib";
import { writeInkAnnotations } from "../../client/src/worker/ink-annotations.ts";

async function deck(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([720, 405]);
  return doc.save();
}

function inkAnnots(doc: PDFDocument, index: number): PDFDict[] {
  const annots = doc.getPage(index).node.Annots();
  if (!annots) return [];
  return annots.asArray().map((ref) => doc.context.lookup(ref) as PDFDict).filter((a) => a.get(PDFName.of("Subtype"))?.toString() === "/Ink");
}

describe("writeInkAnnotations", () => {
  test("each stroke becomes an Ink annotation on its page, in PDF user space, with colour and width", async () => {
    const original = await deck(3);
    const out = writeInkAnnotations(mupdf, original.slice().buffer, [
      { page: 2, strokes: [{ color: "#e11d48", width: 4, points: [10, 20, 0.5, 100, 50, 0.5] }, { color: "#2563eb", width: 8, points: [300, 300, 0.7] }] },
      { page: 9, strokes: [{ color: "#000000", width: 2, points: [1, 1, 0.5, 2, 2, 0.5] }] },
    ]);
    // Incremental: the original file is the start of the export.
    expect(Buffer.from(out.subarray(0, original.length)).equals(Buffer.from(original))).toBe(true);
    const back = await PDFDocument.load(out);
    expect(inkAnnots(back, 0)).toEqual([]);
    expect(inkAnnots(back, 2)).toEqual([]);
    const [first, second] = inkAnnots(back, 1);
    const list = (first!.get(PDFName.of("InkList")) as PDFArray).asArray().map((a) => (a as PDFArray).asArray().map(Number));
    expect(list).toEqual([[10, 385, 100, 355]]);
    expect((first!.get(PDFName.of("C")) as PDFArray).asArray().map((n) => Math.round(Number(n) * 255))).toEqual([225, 29, 72]);
    expect(first!.get(PDFName.of("AP"))).toBeDefined();
    expect(Number((first!.get(PDFName.of("BS")) as PDFDict).get(PDFName.of("W")))).toBe(4);
    // A one-point stroke (a dot) is still a visible annotation.
    expect((second!.get(PDFName.of("InkList")) as PDFArray).asArray()).toHaveLength(1);
  });

  test("no ink gives the deck back unchanged in content", async () => {
    const original = await deck(1);
    const out = writeInkAnnotations(mupdf, original.slice().buffer, []);
    expect((await PDFDocument.load(out)).getPageCount()).toBe(1);
  });
});
