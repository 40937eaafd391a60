/**
 * @module deck/page-text
 * The text lines of a page as mupdf's structured text gives them — box (points from the page's
 * top-left, as the notes-layout rectangles are), direction (a rotated line is beamer's date in
 * a notes page's header), largest font size (a miniature's text is tiny) and text. What the
 * notes-layout detection, the notes-half text and the frame counting read. Each line's text is
 * composed as written (deck/text-marks: pdflatex's spacing accents moved onto their letters,
 * NFC). Browser-safe: the mupdf document comes in as a parameter.
 */
import type { PdfDoc } from "./mupdf-types.ts";
import type { Rect } from "./notes-layout.ts";
import { composeLine, type PlacedChar } from "./text-marks.ts";

export interface TextLine {
  box: Rect;
  /** The line does not run left to right (rotated text, or vertical writing). */
  rotated: boolean;
  /** The largest font size on the line, in points. */
  size: number;
  text: string;
}

/** Characters read per page at most: a notes page holds a few hundred; a hostile page, millions. */
export const MAX_PAGE_TEXT_CHARS = 64 * 1024;

/** The page's size as shown (after /Rotate), and its text lines in reading order. Never throws. */
export function readPageText(doc: PdfDoc, pageIndex: number): { size: { w: number; h: number }; lines: TextLine[] } | null {
  let page: ReturnType<PdfDoc["loadPage"]> | null = null;
  let stext: ReturnType<ReturnType<PdfDoc["loadPage"]>["toStructuredText"]> | null = null;
  try {
    page = doc.loadPage(pageIndex);
    const [x0, y0, x1, y1] = page.getBounds() as unknown as [number, number, number, number];
    const size = { w: x1 - x0, h: y1 - y0 };
    stext = page.toStructuredText("preserve-whitespace");
    const lines: TextLine[] = [];
    let chars = 0;
    let current: { box: Rect; rotated: boolean; size: number; text: PlacedChar[] } | null = null;
    stext.walk({
      beginLine(bbox, wmode, direction) {
        const [bx0, by0, bx1, by1] = bbox as unknown as [number, number, number, number];
        const [dx, dy] = direction as unknown as [number, number];
        current = { box: { x: bx0 - x0, y: by0 - y0, w: bx1 - bx0, h: by1 - by0 }, rotated: wmode !== 0 || Math.abs(dy) > 0.05 || dx < 0, size: 0, text: [] };
      },
      onChar(c, _origin, _font, fontSize, quad) {
        if (!current || chars >= MAX_PAGE_TEXT_CHARS) return;
        chars += c.length;
        const [ulx, , urx, , llx, , lrx] = quad as unknown as number[];
        current.text.push({ c, x0: Math.min(ulx ?? 0, llx ?? 0), x1: Math.max(urx ?? 0, lrx ?? 0) });
        if (fontSize > current.size) current.size = fontSize;
      },
      endLine() {
        if (current) {
          const text = composeLine(current.text).trim();
          if (text) lines.push({ box: current.box, rotated: current.rotated, size: current.size, text });
        }
        current = null;
      },
    });
    return { size, lines };
  } catch {
    return null;
  } finally {
    try {
      stext?.destroy();
      page?.destroy();
    } catch {
      // Freeing is best effort; the document owns what is left.
    }
  }
}

/** The centre of `box` lies inside `rect`. */
export function centreIn(box: Rect, rect: Rect): boolean {
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  return cx >= rect.x && cx <= rect.x + rect.w && cy >= rect.y && cy <= rect.y + rect.h;
}
