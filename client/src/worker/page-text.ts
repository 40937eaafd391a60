/**
 * @module client/worker/page-text
 * The text mupdf finds in one rectangle of a page: the slide half's text is the slide
 * canvas's text alternative when each page also carries its notes (the notes must not reach
 * the audience window's DOM either). Lines are kept whole, chosen by their centre, as the
 * deck layer reads the notes half (src/deck/page-text.ts).
 */
import type { Rect } from "../../../src/deck/notes-layout.ts";
import type { PdfDoc } from "../../../src/deck/mupdf-types.ts";
import { centreIn, readPageText } from "../../../src/deck/page-text.ts";

/** The text of the lines whose centre lies in `rect` (page points from the top-left), a line each. */
export function textIn(doc: PdfDoc, pageIndex: number, rect: Rect): string {
  const page = readPageText(doc, pageIndex);
  if (!page) return "";
  return page.lines
    .filter((line) => centreIn(line.box, rect) && line.text.trim())
    .map((line) => line.text.trim())
    .join("\n");
}
