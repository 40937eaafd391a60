/**
 * @module deck/analyze/state
 * Where the phases of an analysis put the entries: on a slide (notes or media), among the
 * orphans, or with the whole document (pdfpc) — and what they found along the way.
 */
import type { Discovery } from "../attachments.ts";
import type { AttachmentKind, PageResult } from "../report-types.ts";
import type { NameMatch } from "../sidecar/names.ts";
import type { PdfpcResult } from "../sidecar/pdfpc.ts";
import type { SlideMedia, SlidePoll } from "../sidecar/types.ts";
import { NO_NOTES_LAYOUT, type NotesLayout } from "../notes-layout.ts";
import type { PdfpcMetadata } from "../xmp.ts";
import type { Entry } from "./entries.ts";

export interface Placement {
  pageCount: number;
  discovery: Discovery;
  pages: PageResult[];
  /** Entries with a unique base name (the first of each name), in discovery order. */
  unique: Entry[];
  byBase: Map<string, Entry>;
  notesEntries: [number, Entry][];
  mediaEntries: [number, Entry][];
  pollEntries: [number, Entry][];
  orphans: Entry[];
  documentEntries: Entry[];
  /** Usable notes sidecars' markdown per slide. */
  notesBySlide: Map<number, { markdown: string; attachment: string }>;
  /** Usable poll sidecars per slide (what the presenter opens there). */
  pollsBySlide: Map<number, SlidePoll>;
  /** Parsed media sidecars, to be linked to their binaries. */
  sidecarMedia: { entry: Entry; media: SlideMedia }[];
  pdfpc: { entry: Entry; result: PdfpcResult } | null;
  /** Binaries some media sidecar links to. */
  referenced: Set<Entry>;
  /** The media the presenter shows (not invalid). */
  shownMedia: SlideMedia[];
  /** The notes file beside the PDF (normalised .pdfpc), parsed; null without one. */
  notesFile: PdfpcResult | null;
  /** pdfpc.sty's XMP fields; null without them. */
  metadata: PdfpcMetadata | null;
  /** The notes layout in force (detected or overridden). */
  layout: NotesLayout;
  /** slide → plain text of the notes half (Beamer notes on a second screen). */
  notesPages: Map<number, string>;
}

export function newPlacement(discovery: Discovery, pageCount: number): Placement {
  return {
    pageCount,
    discovery,
    pages: Array.from({ length: pageCount }, (_, i) => ({ page: i + 1, notes: null, media: [], presenterNotes: null, issues: [] })),
    unique: [],
    byBase: new Map(),
    notesEntries: [],
    mediaEntries: [],
    pollEntries: [],
    orphans: [],
    documentEntries: [],
    notesBySlide: new Map(),
    pollsBySlide: new Map(),
    sidecarMedia: [],
    pdfpc: null,
    referenced: new Set(),
    shownMedia: [],
    notesFile: null,
    metadata: null,
    layout: NO_NOTES_LAYOUT,
    notesPages: new Map(),
  };
}

export function kindOfMatch(match: NameMatch): AttachmentKind {
  switch (match.type) {
    case "notes":
      return "notes";
    case "media-sidecar":
      return "media";
    case "media-file":
      return "media-file";
    case "poll":
      return "poll";
    case "pdfpc":
      return "pdfpc";
    default:
      return "unknown";
  }
}

/** A placed media as the report shows it (`data` of a media attachment). */
export function mediaData(media: SlideMedia): Record<string, unknown> {
  const data: Record<string, unknown> = { kind: media.kind, id: media.id, slide: media.slide, rect: { ...media.rect }, mime: media.mime, autoplay: media.autoplay, loop: media.loop };
  if (media.attachment !== undefined) data.attachment = media.attachment;
  if (media.url !== undefined) data.url = media.url;
  if (media.videoId !== undefined) data.videoId = media.videoId;
  if (media.movie) {
    data.file = media.movie.file;
    data.inDeck = media.movie.inDeck;
  }
  return data;
}

/** Put `entry` on `slide` (as its notes, its poll or among its media), or among the orphans. */
export function place(state: Placement, entry: Entry, slide: number | null): void {
  entry.placed = true;
  if (slide === null) state.orphans.push(entry);
  else (entry.kind === "notes" ? state.notesEntries : entry.kind === "poll" ? state.pollEntries : state.mediaEntries).push([slide, entry]);
}
