/**
 * @module pdf/worker/protocol
 * Messages between the server and its PDF worker processes (JSON over Bun's IPC channel).
 * Everything mupdf does on the server runs in such a process: a job that runs past its
 * deadline or its memory bound is killed with its process, and the server never waits on it.
 */
import type { ErrorCode } from "../../shared/problem.ts";
import type { AnalyzeOptions } from "../../deck/analyze.ts";
import type { InspectedNotes, NotesFileInput } from "../notes.ts";
import type { PdfInfo } from "../open.ts";

/** What a caller already knows of the file it hands over (computed while receiving it). */
export interface FileMeta {
  bytes: number;
  /** Lowercase hex. */
  sha256: string;
}

/** Analysis bounds a check job may override (all JSON-serialisable). */
export type CheckOptions = Partial<Omit<AnalyzeOptions, "verify">>;

/** A notes file beside the PDF (issue 19): read by the same job, after the PDF. */
export type { NotesFileInput } from "../notes.ts";

export type JobRequest =
  | { id: number; kind: "inspect"; path: string; notes?: NotesFileInput }
  | { id: number; kind: "check"; path: string; meta: FileMeta; options?: CheckOptions; notes?: NotesFileInput };

export type WorkerMessage =
  | { type: "ready" }
  /** A check's result is its report as JSON text: serialised off the server's event loop. */
  | { type: "done"; id: number; result: InspectResult | string; rss: number }
  | { type: "failed"; id: number; code: ErrorCode; detail: string; cause?: string; rss: number };

/** What an inspect job answers: the PDF, and the notes file when one came with it. */
export type InspectResult = PdfInfo & { notes?: InspectedNotes };

/** The worker's memory bound in bytes, passed in its environment. */
export const MEMORY_ENV = "DECKHAND_PDF_WORKER_MEMORY";
/** The hidden command of the compiled binary that runs a worker (see main.ts). */
export const WORKER_COMMAND = "__pdf-worker";
