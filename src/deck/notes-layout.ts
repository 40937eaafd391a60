/**
 * @module deck/notes-layout
 * Notes in the pages themselves: Beamer's `show notes on second screen=right|left|bottom|top`
 * (pgfpages) draws each page twice a slide's size, the slide in one half and its notes page
 * in the other. This module names such a layout and gives the two halves as rectangles; the
 * detection (XMP `pdfpc:NotesPosition`, else the page geometry) lives beside it. Everything
 * that shows a slide — the audience, viewers, thumbnails, zoom, ink — uses `slideRect`; the
 * presenter's notes come from `notesRect`. Browser-safe: pure data.
 */

/** pdfpc's `-n` values: where the notes half sits, or "none" for plain slides. */
export const NOTES_POSITIONS = ["none", "right", "left", "bottom", "top"] as const;
export type NotesPosition = (typeof NOTES_POSITIONS)[number];

/** Where a layout was learnt: pdfpc.sty's XMP field, the page geometry, or the presenter's override. */
export type NotesLayoutFrom = "xmp" | "geometry" | "override";

export interface NotesLayout {
  /** "none": every page is one slide; "beamer-second-screen": each page is slide + notes. */
  kind: "none" | "beamer-second-screen";
  position: NotesPosition;
  from: NotesLayoutFrom | null;
}

export const NO_NOTES_LAYOUT: NotesLayout = { kind: "none", position: "none", from: null };

/** A rectangle in PDF points from the page's top-left (as media rectangles and zoom clips are). */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export function isNotesPosition(value: unknown): value is NotesPosition {
  return typeof value === "string" && (NOTES_POSITIONS as readonly string[]).includes(value);
}

/** The layout a position makes (an override, or the position pdfpc.sty wrote). */
export function layoutOf(position: NotesPosition, from: NotesLayoutFrom): NotesLayout {
  return position === "none" ? { kind: "none", position: "none", from } : { kind: "beamer-second-screen", position, from };
}

/** The slide's half of a page of `size` (the whole page without a notes layout). */
export function slideRect(size: { w: number; h: number }, position: NotesPosition): Rect {
  const { w, h } = size;
  switch (position) {
    case "right":
      return { x: 0, y: 0, w: w / 2, h };
    case "left":
      return { x: w / 2, y: 0, w: w / 2, h };
    case "bottom":
      return { x: 0, y: 0, w, h: h / 2 };
    case "top":
      return { x: 0, y: h / 2, w, h: h / 2 };
    default:
      return { x: 0, y: 0, w, h };
  }
}

/** The notes half of a page of `size`, or null without a notes layout. */
export function notesRect(size: { w: number; h: number }, position: NotesPosition): Rect | null {
  const { w, h } = size;
  switch (position) {
    case "right":
      return { x: w / 2, y: 0, w: w / 2, h };
    case "left":
      return { x: 0, y: 0, w: w / 2, h };
    case "bottom":
      return { x: 0, y: h / 2, w, h: h / 2 };
    case "top":
      return { x: 0, y: 0, w, h: h / 2 };
    default:
      return null;
  }
}
