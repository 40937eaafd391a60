/**
 * @module deck/notes-text
 * The text of the notes half of a Beamer "notes on second screen" page: mupdf's structured
 * text of the notes rectangle only, without Beamer's notes-page header — the band at the top
 * with the date (rotated by 90°), the title, section and frame title, and the miniature of the
 * slide (its text a quarter of the slide's size). The header is dropped only where it can be
 * told apart (a rotated line or a miniature in the top band); a notes page without one (the
 * `plain` note template) keeps all its text. Returned as plain text, as drawn (deck/page-text
 * composes pdflatex's accents): a line a line, a bulleted line after "• " (whatever glyph the
 * theme draws), paragraphs by vertical gaps — never escaped into markdown, so `\note[item]`'s
 * "1. Eye contact" reads as it is drawn. Browser-safe.
 */
import type { PdfDoc } from "./mupdf-types.ts";
import { notesRect, slideRect, type NotesPosition, type Rect } from "./notes-layout.ts";
import { notesPageEvidence } from "./notes-layout-detect.ts";
import { centreIn, readPageText, type TextLine } from "./page-text.ts";

/** Beamer's header is `.25\paperheight` (default template) or `.125\paperheight` (compressed). */
const HEADER_HEIGHTS = [0.125, 0.25] as const;
/** The band searched for the header's marks (a little more than the default header). */
const HEADER_SEARCH = 0.3;
/** A miniature's text is about a quarter of the slide's; notes text is not that small. */
const MINIATURE_FONT_RATIO = 0.45;
/** A vertical gap larger than this many line heights starts a new paragraph. */
const PARAGRAPH_GAP = 0.4;
/** Bullets Beamer's itemize draws (default theme: a triangle; others: discs, dashes). */
const BULLET = /^[▶►▸‣•◦∙·–]\s*/u;

/** Where Beamer's header ends inside `notes` (points from the page top), or null when it has none. */
function headerBottom(lines: TextLine[], notes: Rect, slide: Rect): number | null {
  if (!notesPageEvidence(lines, notes, slide)) return null;
  const band: Rect = { x: notes.x, y: notes.y, w: notes.w, h: notes.h * HEADER_SEARCH };
  const slideSizes = lines.filter((l) => centreIn(l.box, slide) && !l.rotated).map((l) => l.size);
  const slideFont = slideSizes.length > 0 ? Math.max(...slideSizes) : 0;
  const marks = lines.filter((l) => centreIn(l.box, band) && (l.rotated || (slideFont > 0 && l.size <= slideFont * MINIATURE_FONT_RATIO)));
  const lowest = Math.max(...marks.map((l) => l.box.y + l.box.h - notes.y), 0);
  const height: number = HEADER_HEIGHTS.find((h) => lowest <= notes.h * h + 1) ?? 0.25;
  return notes.y + notes.h * height;
}

/**
 * The notes half's text of page `pageIndex` (0-based), as plain text; "" when the position
 * is "none", the page cannot be read, or the half holds no text besides Beamer's header.
 */
export function readNotesText(doc: PdfDoc, pageIndex: number, position: NotesPosition): string {
  if (position === "none") return "";
  const page = readPageText(doc, pageIndex);
  if (!page) return "";
  const notes = notesRect(page.size, position);
  if (!notes) return "";
  const slide = slideRect(page.size, position);
  const header = headerBottom(page.lines, notes, slide);
  const body = page.lines.filter((l) => centreIn(l.box, notes) && !l.rotated && (header === null || l.box.y + l.box.h / 2 > header));
  return toText(body);
}

function toText(lines: TextLine[]): string {
  const out: string[] = [];
  let previous: TextLine | null = null;
  for (const line of lines) {
    const bullet = BULLET.exec(line.text);
    const text = bullet ? `• ${line.text.slice(bullet[0].length)}` : line.text;
    if (previous) {
      const gap = line.box.y - (previous.box.y + previous.box.h);
      out.push(gap > PARAGRAPH_GAP * Math.max(previous.box.h, line.box.h) && !bullet ? "\n\n" : "\n");
    }
    out.push(text);
    previous = line;
  }
  return out.join("").trim();
}
