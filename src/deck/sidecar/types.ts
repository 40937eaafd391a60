/**
 * @module deck/sidecar/types
 * What a presenter sees besides the pages: per-slide notes, media and timer settings.
 * Shared by the server-side checker and the browser client, so it must stay free of Node
 * and Bun APIs. Slides are 1-based; rectangles are PDF points measured from the top-left.
 */

export type NotesSource = "notes-sidecar" | "pdfpc" | "annotation";
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
}

export interface TimerSettings {
  /** Talk length in minutes (pdfpc `duration`). */
  durationMinutes?: number;
  /** Wall-clock end time "HH:MM" (pdfpc `endTime`). */
  endTime?: string;
  /** Minutes before the end when the timer warns (pdfpc `lastMinutes`). */
  lastMinutes?: number;
}

export interface DeckExtras {
  /** slide → markdown notes the presenter shows (already resolved by source priority). */
  notes: Record<number, string>;
  notesSource: Record<number, NotesSource>;
  media: SlideMedia[];
  timer: TimerSettings;
}

/** Page size in PDF points (the CropBox, else the MediaBox). */
export interface PageBox {
  width: number;
  height: number;
}
