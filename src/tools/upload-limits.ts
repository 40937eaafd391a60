/**
 * @module tools/upload-limits
 * The upload's form fields and size limits, and the one FILE_TOO_LARGE / NOTES_FILE_TOO_LARGE
 * every path raises (the REST upload, the MCP tools, `deckhand check`, `deckhand present`):
 * kept apart from the multipart receiver (upload/receive) so the CLI and the MCP tools name
 * the limits without loading the receiver's streaming machinery.
 */
import { AppError } from "../base/errors.ts";

/** The form field that carries the PDF: `file`, the name the REST API documents (docs/api/rest.md). */
export const FILE_FIELD = "file";
/** The form field that may carry a notes file beside the PDF (.pdfpc or .pptx). */
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

/** A size in MB as the problem sentences name it (two decimals at most). */
export function megabytes(bytes: number): number {
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
