/**
 * Export with the ink burned in, at the unit level: the same
 * browser-safe function the render worker runs, here on mupdf under Bun. Each stroke is a
 * PDF Ink annotation on its own page, read back with pdf-lib (PDF user space, y up); the
 * original bytes stay as they were (incremental save).
 */
import { describe, expect, test } from "bun:test";
import * as mupdf from "mupdf";
import { PDFArray, PDFDict, PDFDocument, PDFName } from "pdf-lib";
import { writeInkAnnotations } from "../../client/src/worker/ink-annotations.ts";

async function deck(pages: number, size: [number, number] = [720, 405]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage(size);
  return doc.save();
}

function box(doc: PDFDocument, index: number, name: string): number[] | null {
  const value = doc.getPage(index).node.get(PDFName.of(name));
  return value instanceof PDFArray ? value.asArray().map(Number) : null;
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

  describe("with a notes layout (Beamer's notes on a second screen)", () => {
    const stroke = { color: "#000000", width: 2, points: [10, 20, 0.5, 30, 40, 0.5] };
    const cases = [
      // position, page size, the slide half as a PDF CropBox (y up), the stroke's first point in PDF user space
      { position: "right", size: [1440, 405], crop: [0, 0, 720, 405], first: [10, 385] },
      { position: "left", size: [1440, 405], crop: [720, 0, 1440, 405], first: [730, 385] },
      { position: "bottom", size: [720, 810], crop: [0, 405, 720, 810], first: [10, 790] },
      { position: "top", size: [720, 810], crop: [0, 0, 720, 405], first: [10, 385] },
    ] as const;
    for (const c of cases) {
      test(`${c.position}: the ink lands on the slide half and every page is cropped to it`, async () => {
        const out = writeInkAnnotations(mupdf, (await deck(2, [...c.size])).slice().buffer, [{ page: 1, strokes: [stroke] }], c.position);
        const back = await PDFDocument.load(out);
        const list = ((inkAnnots(back, 0)[0]!.get(PDFName.of("InkList")) as PDFArray).asArray()[0] as PDFArray).asArray().map(Number);
        expect(list.slice(0, 2).map(Math.round)).toEqual([...c.first]);
        for (const index of [0, 1]) expect(box(back, index, "CropBox")!.map(Math.round)).toEqual([...c.crop]);
        // What mupdf shows of the saved copy is the slide half only.
        const reopened = mupdf.Document.openDocument(out, "application/pdf");
        const [x0, y0, x1, y1] = reopened.loadPage(1).getBounds();
        expect([Math.round(x1 - x0), Math.round(y1 - y0)]).toEqual([720, 405]);
      });
    }

    test("without a position given, the deck's own layout is detected (a double-width page is split)", async () => {
      const out = writeInkAnnotations(mupdf, (await deck(1, [1440, 405])).slice().buffer, [{ page: 1, strokes: [stroke] }]);
      expect(box(await PDFDocument.load(out), 0, "CropBox")!.map(Math.round)).toEqual([0, 0, 720, 405]);
    });

    test("position none keeps the whole page and the strokes where they were drawn", async () => {
      const out = writeInkAnnotations(mupdf, (await deck(1, [1440, 405])).slice().buffer, [{ page: 1, strokes: [stroke] }], "none");
      const back = await PDFDocument.load(out);
      expect(box(back, 0, "CropBox")).toBeNull();
    });
  });
});
