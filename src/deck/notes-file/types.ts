/**
 * @module deck/notes-file/types
 * A notes file that comes beside the PDF (not attached to it): a `.pdfpc` (format 1 or 2) or a
 * PowerPoint `.pptx` whose notes slides hold the notes. Whatever it was, it is carried on as
 * one normalised `.pdfpc` document (format 2): that is what the server stores with a staged
 * deck, hands over with it and the browser keeps with the deck. Browser-safe.
 */
import type { Finding } from "../sidecar/findings.ts";
import type { NotesFormat, TimerSettings } from "../sidecar/types.ts";

export type NotesFileKind = "pdfpc" | "pptx";

export interface NotesFileResult {
  /** What the bytes turned out to be; null when they are neither (a finding says so). */
  kind: NotesFileKind | null;
  /** The name it came with (path parts removed), for the report. */
  filename: string;
  /** slide (1-based) → the notes as written, in `notesFormat`. */
  notes: Map<number, string>;
  /** Markdown (a .pdfpc without disableMarkdown) or plain text (a .pptx, or disableMarkdown). */
  notesFormat: NotesFormat;
  timer: TimerSettings;
  /** pdfpc: pages (1-based) the speaker hid in pdfpc; kept in the normalised text. */
  hidden: number[];
  /** pdfpc: pages (1-based) that are overlays of the slide before them (`forcedOverlay`); kept in the normalised text. */
  overlays: number[];
  /** pptx: slides in the presentation (hidden ones included); pdfpc: pages it names. */
  slideCount: number | null;
  /** The normalised `.pdfpc` text (format 2) to store and hand over; null when unusable. */
  pdfpc: string | null;
  issues: Finding[];
}
