/**
 * @module upload/limits
 * The parts an upload form carries and how large they may be: the field names, the notes
 * file's cap, and the one FILE_TOO_LARGE / NOTES_FILE_TOO_LARGE every upload path (REST, MCP,
 * CLI) answers, naming the limit — also before a byte is read, from the declared length.
 */
import { AppError } from "../errors.ts";

/** Room for multipart boundaries and part headers on top of the file itself. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/** The form field that carries the PDF (spec §4.1). */
export const FILE_FIELD = "file";
/** The form field that may carry a notes file beside the PDF (.pdfpc or .pptx; issue 19). */
export const NOTES_FIELD = "notes";
/**
 * Largest notes file taken beside a PDF (and never more than the PDF's own limit: see
 * `notesFileLimit`); the same cap the notes reader applies (deck/notes-file), so a part the
 * server takes is one the reader reads. A .pptx keeps its pictures and media beside its notes,
 * so real ones run to tens of MB although only the notes XML is read: the part is spooled to
 * disk, never held whole in the server's memory, and a PDF worker (with its memory bound)
 * reads it.
 */
export const NOTES_FILE_MAX_BYTES = 32 * 1024 * 1024;

/** The notes part's limit on a server whose PDFs may be `maxUploadBytes`. */
export function notesFileLimit(maxUploadBytes: number): number {
  return Math.min(NOTES_FILE_MAX_BYTES, maxUploadBytes);
}

function megabytes(bytes: number): number {
  return Math.round((bytes / (1024 * 1024)) * 100) / 100;
}

/** The one NOTES_FILE_TOO_LARGE of every path (REST, MCP, CLI), naming the limit. */
export function notesFileTooLarge(maxBytes: number): AppError {
  return new AppError(
    "NOTES_FILE_TOO_LARGE",
    `The notes file is larger than this server's limit of ${megabytes(maxBytes)} MB for a notes file; save the PowerPoint file without its pictures and media (only its notes are read), or send a .pdfpc file instead.`,
    { headers: { connection: "close" } },
  );
}

/** The one FILE_TOO_LARGE of every upload path (REST and MCP), naming the limit. */
export function fileTooLarge(maxBytes: number): AppError {
  const mb = megabytes(maxBytes);
  // The rest of the body is never read: close the connection rather than keep it (and a
  // graceful shutdown) waiting on bytes nobody wants.
  return new AppError(
    "FILE_TOO_LARGE",
    `The PDF is larger than this server's limit of ${mb} MB; make the PDF smaller (fewer or compressed images) or raise --max-upload-mb.`,
    { headers: { connection: "close" } },
  );
}

/**
 * Reject early, before reading a byte, when the declared length is already too large (for the
 * PDF, and a notes file of up to `notesMaxBytes` beside it).
 */
export function assertDeclaredLength(request: Request, maxBytes: number, notesMaxBytes = 0): void {
  const declared = request.headers.get("content-length");
  if (declared === null || Number(declared) <= maxBytes + notesMaxBytes + MULTIPART_OVERHEAD_BYTES) return;
  if (notesMaxBytes === 0) throw fileTooLarge(maxBytes);
  // Which part is too large cannot be told before reading: the sentence names both limits.
  throw new AppError(
    "FILE_TOO_LARGE",
    `The upload is larger than this server's limits of ${megabytes(maxBytes)} MB for the PDF and ${megabytes(notesMaxBytes)} MB for a notes file beside it; make the PDF smaller (fewer or compressed images), send a smaller notes file (a .pdfpc, or the .pptx without its pictures), or raise --max-upload-mb.`,
    { headers: { connection: "close" } },
  );
}
