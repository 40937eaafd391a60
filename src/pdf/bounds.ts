/**
 * @module pdf/bounds
 * The problems of a PDF read stopped at one of its bounds: the wall-clock deadline or the
 * memory bound. The server's pool (pdf/worker/pool) and the CLI's in-process reader
 * (pdf/in-process) answer with these same sentences, so a file fails the same way everywhere.
 */
import { AppError } from "../base/errors.ts";

/**
 * Wall-clock deadline of one PDF read (--pdf-timeout). A 300-page deck with 100 attachments
 * checks in ~60 ms and a 100 MB deck opens in ~10 ms; the hostile files this guards against
 * run for minutes.
 */
export const PDF_TIMEOUT_MS = 10_000;
/** Resident-set bound of a process reading one PDF (--pdf-memory-mb): a 200 MB deck checked with its attachments verified peaks near 200 MB. */
export const PDF_MEMORY_BYTES = 512 * 1024 * 1024;

/** PDF_TOO_COMPLEX for a read that ran past `timeoutMs`. */
export function deadlineProblem(timeoutMs: number): AppError {
  const seconds = Math.round(timeoutMs / 100) / 10;
  return new AppError("PDF_TOO_COMPLEX", `Reading this PDF took longer than the ${seconds} s the server allows for one file (a damaged cross-reference table, or an extreme number of objects); export it again from its source.`);
}

/** PDF_TOO_COMPLEX for a read whose process grew past `memoryBytes`. */
export function memoryProblem(memoryBytes: number): AppError {
  const mb = Math.round(memoryBytes / (1024 * 1024));
  return new AppError("PDF_TOO_COMPLEX", `Reading this PDF needed more than the ${mb} MB of memory the server allows for one file; export it again from its source, with fewer or smaller attachments.`);
}
