/**
 * @module client/worker/ink-annotations
 * The deck with its ink burned in, written by mupdf in the browser: each stroke becomes a
 * real PDF Ink annotation (colour, width, the stroke's points), with an appearance stream
 * mupdf makes, so any PDF viewer shows it and can remove it. Saved incrementally: the
 * original bytes stay as they were, the annotations are appended. Browser-safe (mupdf comes
 * in as a parameter); nothing leaves the browser.
 *
 * A PDF Ink annotation has one width per stroke: the pen's pressure, which the screen shows
 * as a varying width, is not kept (the nominal width is written).
 *
 * A deck whose pages carry their notes (a notes layout) is saved as the audience saw it:
 * strokes are in the slide half's coordinates and go onto that half, and every page's
 * CropBox becomes its slide half, so the notes do not travel with the annotated copy (they
 * remain in the file, outside the box, as any cropped PDF keeps what is cropped away).
 */
import { slideRect, type NotesPosition } from "../../../src/deck/notes-layout.ts";
import { detectNotesLayout } from "../../../src/deck/notes-layout-detect.ts";
import { readPdfpcMetadata } from "../../../src/deck/xmp.ts";
import type { PageInk } from "./protocol.ts";

type Mupdf = typeof import("mupdf");
type PdfPage = InstanceType<Mupdf["PDFPage"]>;

/** "#rrggbb" → mupdf's RGB in 0..1. */
function rgb(hex: string): [number, number, number] {
  const n = /^#[0-9a-f]{6}$/i.test(hex) ? parseInt(hex.slice(1), 16) : 0;
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

/** Each page's slide half, in mupdf's page space (the page's bounds, y down). */
function slideBox(page: PdfPage, position: NotesPosition): [number, number, number, number] {
  const [x0, y0, x1, y1] = page.getBounds();
  const half = slideRect({ w: x1 - x0, h: y1 - y0 }, position);
  return [x0 + half.x, y0 + half.y, x0 + half.x + half.w, y0 + half.y + half.h];
}

/**
 * `position`: the notes layout the strokes were drawn under; absent, the deck's own (as
 * detected), which is what a window without an override showed.
 */
export function writeInkAnnotations(mupdf: Mupdf, data: ArrayBuffer, ink: readonly PageInk[], notesPosition?: NotesPosition): Uint8Array {
  // The ArrayBuffer itself: mupdf.js would copy a Uint8Array once more before the WASM heap.
  const doc = mupdf.Document.openDocument(data, "application/pdf").asPDF();
  if (!doc) throw new Error("The stored deck is not a PDF.");
  try {
    const pageCount = doc.countPages();
    const position = notesPosition ?? detectNotesLayout(doc, pageCount, readPdfpcMetadata(doc).metadata).layout.position;
    for (const { page, strokes } of ink) {
      if (page < 1 || page > pageCount || !strokes.length) continue;
      const pdfPage = doc.loadPage(page - 1) as PdfPage;
      // Stroke points are from the slide's top-left as rendered; mupdf's annotation space is
      // the page's bounds (y down), which it turns into PDF user space itself.
      const [x0, y0] = slideBox(pdfPage, position);
      for (const stroke of strokes) {
        const points: [number, number][] = [];
        for (let i = 0; i + 1 < stroke.points.length; i += 3) points.push([x0 + stroke.points[i]!, y0 + stroke.points[i + 1]!]);
        if (!points.length) continue;
        if (points.length === 1) points.push([points[0]![0] + 0.1, points[0]![1]]);
        const annot = pdfPage.createAnnotation("Ink");
        annot.setInkList([points]);
        annot.setColor(rgb(stroke.color));
        annot.setBorderWidth(stroke.width);
        annot.setAuthor("deckhand");
        annot.update();
      }
    }
    if (position !== "none") {
      // Crop after drawing: setting the box moves the page's origin to the box's corner.
      for (let i = 0; i < pageCount; i++) {
        const pdfPage = doc.loadPage(i) as PdfPage;
        pdfPage.setPageBox("CropBox", slideBox(pdfPage, position));
      }
    }
    let out: Uint8Array;
    try {
      out = doc.saveToBuffer("incremental").asUint8Array();
    } catch {
      // A deck mupdf had to repair cannot be saved incrementally: write it whole.
      out = doc.saveToBuffer("garbage=compact").asUint8Array();
    }
    // A copy the caller can own (the mupdf buffer goes with the document).
    return out.slice();
  } finally {
    doc.destroy();
  }
}
