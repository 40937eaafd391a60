/**
 * @module pdf/worker/protocol
 * Messages between the server and its PDF worker processes (JSON over Bun's IPC channel).
 * Everything mupdf does on the server runs in such a process: a job that runs past its
 * deadline or its memory bound is killed with its process, and the server never waits on it.
 */
import type { ErrorCode } from "../../shared/problem.ts";
import type { CheckOptions, FileMeta, InspectResult, NotesFileInput } from "../../core/pdf-reader.ts";

/** A job for a worker: the PdfReader's calls (core/pdf-reader), numbered. */
export type JobRequest =
  | { id: number; kind: "inspect"; path: string; notes?: NotesFileInput }
  | { id: number; kind: "check"; path: string; meta: FileMeta; options?: CheckOptions; notes?: NotesFileInput };

export type WorkerMessage =
  | { type: "ready" }
  /** A check's result is its report as JSON text: serialised off the server's event loop. */
  | { type: "done"; id: number; result: InspectResult | string; rss: number }
  | { type: "failed"; id: number; code: ErrorCode; detail: string; cause?: string; rss: number };

/** The worker's memory bound in bytes, passed in its environment. */
export const MEMORY_ENV = "DECKHAND_PDF_WORKER_MEMORY";
/** The hidden command of the compiled binary that runs a worker (see main.ts). */
export const WORKER_COMMAND = "__pdf-worker";
