/**
 * @module client/worker/protocol
 * Messages between pages and the render worker. Slides are 1-based, sizes in PDF points.
 * Opening a deck answers what the first paint needs (page count, sizes, labels) at once;
 * notes and media (`extras`) and page text come by separate, lower-priority requests so
 * they never hold up the first slide.
 */
import type { DeckExtras } from "../../../src/deck/sidecar/types.ts";
import { NO_NOTES_LAYOUT } from "../../../src/deck/notes-layout.ts";

export interface OpenResult {
  pageCount: number;
  title: string | null;
  /** Size of page 1, so layouts can be sized before the first render. */
  firstPage: { w: number; h: number };
  /** Page label of every page (index 0 = page 1); page numbers when the PDF has none. */
  labels: string[];
}

/** A region of a page in PDF points from its top-left (a zoom). */
export interface Clip {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One page's ink for export: strokes as presenter/ink.ts keeps them. */
export interface PageInk {
  page: number;
  strokes: { color: string; width: number; points: number[] }[];
}

export interface RenderResult {
  page: number;
  /** Page size in points. */
  w: number;
  h: number;
  bitmap: ImageBitmap;
  /** Milliseconds the worker spent rendering. */
  ms: number;
}

export type WorkerRequest =
  | { id: number; type: "open"; data: ArrayBuffer }
  | { id: number; type: "extras" }
  /** `width` device pixels for the whole page, or for `clip` when given (a zoom, rendered sharp). */
  | { id: number; type: "render"; page: number; width: number; priority: number; clip?: Clip }
  /** A copy of `data` with each stroke written as a PDF Ink annotation; the open deck is untouched. */
  | { id: number; type: "export"; data: ArrayBuffer; ink: PageInk[] }
  | { id: number; type: "text"; page: number }
  /** The page rendered at `width` device pixels as a PNG file (a picture kept for another page). */
  | { id: number; type: "picture"; page: number; width: number }
  | { id: number; type: "attachment"; name: string };

export type WorkerResponse =
  | { id: number; ok: true; result: unknown }
  /** `code` is set when the deck is refused by the shared rule (src/deck/accept.ts). */
  | { id: number; ok: false; error: string; code?: string };


export const EMPTY_EXTRAS: DeckExtras = { layout: NO_NOTES_LAYOUT, notes: {}, notesSource: {}, media: [], timer: {} };
