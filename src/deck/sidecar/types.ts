/**
 * @module deck/sidecar/types
 * What a presenter sees besides the pages: per-slide notes, media and timer settings.
 * Shared by the server-side checker and the browser client, so it must stay free of Node
 * and Bun APIs. Slides are 1-based; rectangles are PDF points measured from the top-left.
 */
import type { NotesLayout } from "../notes-layout.ts";

/**
 * Where a slide's notes came from, in the order the presenter prefers them: a notes sidecar,
 * a notes file beside the PDF (.pdfpc or .pptx), an attached .pdfpc, the notes half of a
 * Beamer "notes on second screen" page, an in-page annotation.
 */
export type NotesSource = "notes-sidecar" | "notes-file" | "pdfpc" | "notes-page" | "annotation";
/**
 * How a note is written, as its source says: `markdown` (a notes sidecar; a .pdfpc, pdfpc.sty's
 * notes, unless `disableMarkdown`) is rendered and sanitised; `text` (PowerPoint notes, the
 * notes half of a page, other in-page notes) is shown as written, its web addresses as links.
 * Every surface (presenter, phone remote, check report) shows a note the same way.
 */
export type NotesFormat = "markdown" | "text";
/** Where a timer setting came from: a notes file beside the PDF, an attached .pdfpc, pdfpc.sty's XMP. */
export type TimerSource = "notes-file" | "pdfpc" | "xmp";
export type MediaKind = "file" | "url" | "youtube" | "vimeo";

export interface MediaRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface SlideMedia {
  id: string;
  kind: MediaKind;
  slide: number;
  rect: MediaRect;
  mime: string | null;
  autoplay: boolean;
  loop: boolean;
  /** For kind "file": the attachment (base name) holding the bytes. */
  attachment?: string;
  /** For kind "url": an http(s) URL; for youtube/vimeo: the canonical watch URL. */
  url?: string;
  /** For youtube/vimeo: the video id. */
  videoId?: string;
  /** Where the placement came from: a media sidecar, or a page annotation's /Rect. */
  source?: "media-sidecar" | "page-annotation";
  /** For source "media-sidecar": the sidecar's base name. */
  sidecar?: string;
  /**
   * A movie of the PDF itself (Beamer's `\movie`, a Launch or `run:` link, a Screen naming a
   * file): the file its annotation names, and whether the deck carries its bytes. Its poster is
   * the page under it: the projector shows the page until the movie plays (as pdfpc does),
   * and keeps showing it when the movie cannot play; a click on it plays or pauses it.
   */
  movie?: { file: string; annotation: "Movie" | "Screen" | "Link"; inDeck: boolean };
}

/** A poll the presenter opens when its slide is reached (a `poll-slide-{N}.json` sidecar). */
export interface SlidePoll {
  slide: number;
  /** Plain text; shown with textContent, never as HTML. */
  question: string;
  /** 2..6 distinct options, in the order viewers see them. */
  options: string[];
  /** True: several options may be picked; false: exactly one. */
  multiple: boolean;
  /** The sidecar's base name. */
  sidecar: string;
}

export interface TimerSettings {
  /** Talk length in minutes (pdfpc `duration`). */
  durationMinutes?: number;
  /** Wall-clock end time "HH:MM" (pdfpc `endTime`). */
  endTime?: string;
  /** Minutes before the end when the timer warns (pdfpc `lastMinutes`). */
  lastMinutes?: number;
  /** Wall-clock start "HH:MM" (pdfpc `startTime`, pdfpc.sty `starttime`). */
  startTime?: string;
  /** The last slide of the talk proper, 1-based (pdfpc `endSlide`, pdfpc.sty `enduserslide`). */
  endSlide?: number;
  /** Where each setting came from (absent for settings not given). */
  sources?: Partial<Record<"durationMinutes" | "endTime" | "lastMinutes" | "startTime" | "endSlide", TimerSource>>;
}

export interface DeckExtras {
  /** The notes layout in force: detected (XMP, else geometry) or the presenter's override. */
  layout: NotesLayout;
  /** slide → the notes the presenter shows (already resolved by source priority), written in `notesFormat[slide]`. */
  notes: Record<number, string>;
  notesSource: Record<number, NotesSource>;
  notesFormat: Record<number, NotesFormat>;
  media: SlideMedia[];
  /** The polls the presenter opens on their slides (valid poll sidecars), by slide. Absent: none. */
  polls?: SlidePoll[];
  timer: TimerSettings;
  /**
   * Pages (1-based, ascending) the speaker hid in pdfpc (`pages[].hidden`): next and previous
   * pass them by, the overview and "go to" still reach them. From the notes file beside the
   * PDF when it hides any, else the first .pdfpc attached to the PDF (the only one used: a
   * second is PDFPC_MULTIPLE), when the analysis could read it. Absent: none. (The pages a
   * .pdfpc joins to the slide before are not here: deck/slide-groups reads them.)
   */
  hidden?: number[];
}

/** Page size in PDF points (the CropBox, else the MediaBox). */
export interface PageBox {
  width: number;
  height: number;
}
