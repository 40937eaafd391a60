/**
 * @module client/worker/protocol
 * Messages between pages and the render worker. Slides are 1-based, sizes in PDF points.
 * Opening a deck answers what the first paint needs (page count, sizes, labels) at once;
 * notes and media (`extras`) and page text come by separate, lower-priority requests so
 * they never hold up the first slide.
 *
 * Notes layouts (Beamer's notes on a second screen): the worker splits every page into its
 * slide half and its notes half. Everything it reports or renders about a page — sizes,
 * renders, clips, page text — is the slide half, in the slide half's coordinates, so no page
 * of the client needs to know; the notes half comes only by the `notes-text` and
 * `notes-picture` requests. `layout` changes the split (the presenter's override); each
 * change carries a generation number that every later render result repeats, so a render
 * made under the old split is never painted.
 */
import type { NotesLayout, NotesPosition } from "../../../src/deck/notes-layout.ts";
import type { DeckExtras } from "../../../src/deck/sidecar/types.ts";
import { NO_NOTES_LAYOUT } from "../../../src/deck/notes-layout.ts";

export interface OpenResult {
  pageCount: number;
  title: string | null;
  /** Size of page 1, so layouts can be sized before the first render. */
  firstPage: { w: number; h: number };
  /**
   * The slide label of every page (index 0 = page 1): its page label, with the pages the deck's
   * .pdfpc marks as overlays joined to the slide before (deck/slide-groups); page numbers when
   * the PDF has neither. Consecutive equal labels are one slide.
   */
  labels: string[];
  /** Seconds each page with a `/Dur` stays before the presenter advances by itself (page → seconds). */
  durations: Record<number, number>;
  /** The split in force (the override asked for at open, else what was detected). */
  layout: NotesLayout;
  /** What the deck itself says (XMP `pdfpc:NotesPosition`, else the page geometry). */
  detected: NotesLayout;
}

/** The answer to a `layout` request: the split now in force and page 1's slide size under it. */
export interface LayoutResult {
  layout: NotesLayout;
  detected: NotesLayout;
  firstPage: { w: number; h: number };
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

/**
 * A render as the worker sends it: straight RGBA pixels in a transferred buffer (no copy).
 * Not an ImageBitmap: WebKitGTK 2.50 (Skia, accelerated) sometimes draws an ImageBitmap made
 * in a worker as nothing once it crossed to the page — a blank slide for the speaker. The
 * page draws the pixels itself (lib/renderer), which every engine does.
 */
export interface RenderedPixels {
  page: number;
  /** Page size in points. */
  w: number;
  h: number;
  /** Device pixels. */
  width: number;
  height: number;
  pixels: ArrayBuffer;
  /** Milliseconds the worker spent rendering. */
  ms: number;
  /** The layout generation it was rendered under (see the `layout` request). */
  gen: number;
}

/**
 * A render on the page side: the worker's pixels wrapped as ImageData (no copy), drawn with
 * putImageData. Not an ImageBitmap made here either: createImageBitmap copied the 8 MB of a
 * 1920 px slide once more and waited a task for it (77–567 ms on a loaded 2-core machine,
 * against 1–6 ms for putImageData — bench note in docs/performance.md).
 */
export interface RenderResult {
  page: number;
  /** Page size in points. */
  w: number;
  h: number;
  image: ImageData;
  /** Milliseconds the worker spent rendering. */
  ms: number;
  /** The layout generation it was rendered under (see the `layout` request). */
  gen: number;
}

export type WorkerRequest =
  /**
   * `notesPosition`: the deck's stored override; absent = detect. Without `data`, the bytes
   * sent by `receive`, which must be `received` bytes in all (else the open fails).
   * `notesFile`: the normalised .pdfpc text stored with the deck, whose forced overlays group
   * the slides (else the PDF's attached .pdfpc does).
   */
  | { id: number; type: "open"; data?: ArrayBuffer; received?: number; notesPosition?: NotesPosition; notesFile?: string }
  /** Split pages at `position` (null = as detected); `gen` numbers the change. */
  | { id: number; type: "layout"; position: NotesPosition | null; gen: number }
  /** `notesFile`: the normalised .pdfpc text stored with the deck (a notes file beside the PDF). */
  | { id: number; type: "extras"; notesFile?: string }
  /** The notes half's text (markdown-escaped plain text); "" without a notes layout. */
  | { id: number; type: "notes-text"; page: number }
  /** The notes half rendered at `width` device pixels (RenderedPixels); fails without a notes layout. */
  | { id: number; type: "notes-picture"; page: number; width: number }
  /** `width` device pixels for the whole page, or for `clip` when given (a zoom, rendered sharp). */
  | { id: number; type: "render"; page: number; width: number; priority: number; clip?: Clip }
  /** A copy of `data` with each stroke written as a PDF Ink annotation; the open deck is untouched. */
  | { id: number; type: "export"; data: ArrayBuffer; ink: PageInk[]; notesPosition?: NotesPosition }
  | { id: number; type: "text"; page: number }
  /** The PDF outline's entries (deck/outline): an exported recording's chapter titles. */
  | { id: number; type: "outline" }
  /** The page rendered at `width` device pixels as a PNG file (a picture kept for another page). */
  | { id: number; type: "picture"; page: number; width: number }
  | { id: number; type: "attachment"; name: string };

/**
 * A chunk of a deck as it downloads, kept by the worker for a later `open` without `data`:
 * `at` is its offset (0 starts a new deck), `total` the announced length. No answer.
 */
export interface ReceiveMessage {
  type: "receive";
  chunk: ArrayBuffer;
  at: number;
  total: number | null;
}

/**
 * The worker's client from now on: the port, in place of the page that started the worker. The
 * export worker is handed the other end: it reaches a render worker the page started, and never
 * starts one itself (Firefox's Worker constructor, called in a worker, sometimes never returned).
 */
export interface ServeMessage {
  type: "serve";
  port: MessagePort;
}

/** What a request or an answer is posted to: a worker, the worker's own scope, or a port. */
export interface PostTarget {
  postMessage(message: unknown, transfer: Transferable[]): void;
}

export type WorkerResponse =
  | { id: number; ok: true; result: unknown }
  /** `code` is set when the deck is refused by the shared rule (src/deck/accept.ts). */
  | { id: number; ok: false; error: string; code?: string };


export const EMPTY_EXTRAS: DeckExtras = { layout: NO_NOTES_LAYOUT, notes: {}, notesSource: {}, notesFormat: {}, media: [], timer: {} };
