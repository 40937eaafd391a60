/**
 * @module client/worker/notes-fallback
 * TEMPORARY stand-ins for part A's deck-layer functions (detectNotesLayout, readNotesText),
 * with the plan's signatures, so the stage can be built and tested before A's branch lands.
 * Removed once src/deck/notes-layout-detect.ts and src/deck/notes-text.ts exist.
 */
import { layoutOf, NO_NOTES_LAYOUT, notesRect, type NotesLayout, type NotesPosition } from "../../../src/deck/notes-layout.ts";
import { textIn } from "./page-text.ts";
import type { PdfDoc } from "../../../src/deck/mupdf-types.ts";

/** Usual slide ratios (4:3, 16:10, 16:9, 14:9, 5:4, 3:2), one of which a half must match. */
const RATIOS = [4 / 3, 16 / 10, 16 / 9, 14 / 9, 5 / 4, 3 / 2];
const TOLERANCE = 0.02;

const near = (value: number) => RATIOS.some((r) => Math.abs(value - r) / r < TOLERANCE);

export function detectNotesLayout(doc: PdfDoc, pageCount: number, metadata: { notesPosition?: NotesPosition } | null): { layout: NotesLayout; issues: unknown[] } {
  if (metadata?.notesPosition) return { layout: layoutOf(metadata.notesPosition, "xmp"), issues: [] };
  try {
    let position: NotesPosition | null = null;
    for (let i = 0; i < Math.min(pageCount, 20); i++) {
      const page = doc.loadPage(i);
      const [x0, y0, x1, y1] = page.getBounds();
      page.destroy();
      const ratio = (x1 - x0) / (y1 - y0);
      const here: NotesPosition | null = near(ratio / 2) ? "right" : near(ratio * 2) ? "bottom" : null;
      if (!here || (position && here !== position)) return { layout: NO_NOTES_LAYOUT, issues: [] };
      position = here;
    }
    return { layout: position ? { kind: "beamer-second-screen", position, from: "geometry" } : NO_NOTES_LAYOUT, issues: [] };
  } catch {
    return { layout: NO_NOTES_LAYOUT, issues: [] };
  }
}

export function readNotesText(doc: PdfDoc, pageIndex: number, position: NotesPosition): string {
  const page = doc.loadPage(pageIndex);
  const [x0, y0, x1, y1] = page.getBounds();
  page.destroy();
  const rect = notesRect({ w: x1 - x0, h: y1 - y0 }, position);
  return rect ? textIn(doc, pageIndex, rect) : "";
}
