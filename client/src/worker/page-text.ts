/**
 * @module client/worker/page-text
 * The text mupdf finds in one rectangle of a page: the slide half's text is the slide
 * canvas's text alternative when each page also carries its notes (the notes must not reach
 * the audience window's DOM either). Lines are kept whole, chosen by their centre.
 */
import type { Rect } from "../../../src/deck/notes-layout.ts";
import type { PdfDoc } from "../../../src/deck/mupdf-types.ts";

/** The text of the lines whose centre lies in `rect` (page space from the top-left). */
export function textIn(doc: PdfDoc, pageIndex: number, rect: Rect): string {
  const page = doc.loadPage(pageIndex);
  try {
    const [x0, y0] = page.getBounds();
    const stext = page.toStructuredText("preserve-whitespace");
    const lines: string[] = [];
    let line = "";
    let inside = false;
    stext.walk({
      beginLine(bbox) {
        const cx = (bbox[0] + bbox[2]) / 2 - x0;
        const cy = (bbox[1] + bbox[3]) / 2 - y0;
        inside = cx >= rect.x && cx <= rect.x + rect.w && cy >= rect.y && cy <= rect.y + rect.h;
        line = "";
      },
      onChar(c) {
        if (inside) line += c;
      },
      endLine() {
        if (inside && line.trim()) lines.push(line.trim());
      },
    });
    stext.destroy();
    return lines.join("\n");
  } finally {
    page.destroy();
  }
}

