/**
 * @module pdf/page-labels
 * The label of every page, as the PDF's /PageLabels number tree gives it ("1", "2", "2", "3"
 * for a deck whose second slide has two overlays — what Beamer, Typst and Touying write).
 * Read through mupdf's own `Page.getLabel()`, which applies the ranges' styles, prefixes and
 * start values. Browser-safe: the render worker calls it with the document it has open.
 */
import type { PdfDoc } from "./mupdf-types.ts";

/**
 * Labels for pages 1..pageCount (index 0 = page 1). A document without /PageLabels gets the
 * page numbers without loading a page (loading costs ~35 µs a page: 0.1 s at 3000 pages).
 * A page whose label cannot be read is labelled by its number.
 */
export function readPageLabels(doc: PdfDoc, pageCount: number): string[] {
  const numbers = () => Array.from({ length: pageCount }, (_, i) => String(i + 1));
  try {
    if (doc.getTrailer().get("Root", "PageLabels").isNull()) return numbers();
  } catch {
    return numbers();
  }
  const labels: string[] = [];
  for (let i = 0; i < pageCount; i++) {
    let label = "";
    try {
      const page = doc.loadPage(i);
      label = page.getLabel();
      page.destroy();
    } catch {
      // A damaged page keeps its number; assessPdf has refused decks with unreachable pages.
    }
    labels.push(label.trim() || String(i + 1));
  }
  return labels;
}
