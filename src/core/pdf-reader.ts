/**
 * @module core/pdf-reader
 * The port through which the domains (handoff, live) and the HTTP layer read PDFs. The server
 * implements it with a pool of worker processes (pdf/worker/pool.ts), so mupdf never runs on
 * the event loop; declaring it here keeps the domain → worker arrow out of the import graph.
 * It names no implementation: pdf/ implements what it declares, and only deck/'s types are
 * imported below, so nothing of mupdf loads through this module.
 */
import type { AnalyzeOptions } from "../deck/analyze.ts";
import type { CheckReport } from "../deck/report-types.ts";
import type { NotesFileKind } from "../deck/notes-file/types.ts";

/** What the first read of a PDF tells (pdf/open implements it). */
export interface PdfInfo {
  pageCount: number;
  pdfVersion: string | null;
  title: string | null;
}

/** A notes file handed to a PDF job: a local temp file and the name it came with. */
export interface NotesFileInput {
  path: string;
  /** Already made safe (security/filename `notesFilename`). */
  filename: string;
}

/** What present keeps of a notes file that passed (pdf/notes judges it). */
export interface InspectedNotes {
  kind: NotesFileKind;
  /** Slides the file gives notes for. */
  slides: number;
  /** The normalised `.pdfpc` text (format 2) stored with the staged deck. */
  pdfpc: string;
  /** Its warnings (e.g. a slide count that differs from the PDF's): the deck is staged anyway. */
  warnings: Array<{ code: string; message: string }>;
}

/** What a caller already knows of the file it hands over (computed while receiving it). */
export interface FileMeta {
  bytes: number;
  /** Lowercase hex. */
  sha256: string;
}

/** Analysis bounds a check job may override (all JSON-serialisable). */
export type CheckOptions = Partial<Omit<AnalyzeOptions, "verify">>;

/**
 * What an inspect answers: the PDF, the slides the presenter will count in it (page labels
 * joined by its .pdfpc: deck/slide-groups), and the notes file when one came with it.
 */
export type InspectResult = PdfInfo & { slides: number; notes?: InspectedNotes };

/** Reads PDFs for the server; the HTTP layer and the domain see only this. */
export interface PdfReader {
  /**
   * Validate the PDF at `path` (the rule of deck/accept) and describe it; with `notes`, judge
   * the notes file beside it too (pdf/notes: NOTES_FILE_* problems, or its normalised text).
   */
  inspect(path: string, notes?: NotesFileInput): Promise<InspectResult>;
  /** The check report of the PDF at `path` (with `notes`, the report covers that notes file). */
  check(path: string, meta: FileMeta, options?: CheckOptions, notes?: NotesFileInput): Promise<CheckReport>;
  /** The same report as JSON text, for a caller that only sends it on (no parse, no stringify). */
  checkJson(path: string, meta: FileMeta, options?: CheckOptions, notes?: NotesFileInput): Promise<string>;
}
