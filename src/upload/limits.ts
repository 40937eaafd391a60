/**
 * @module upload/limits
 * The receiver's own bound before it reads a byte: the declared length against the limits of
 * the parts (the fields and limits themselves are tools/upload-limits, shared with the CLI and
 * the MCP tools), with room for the multipart framing.
 */
import { AppError } from "../base/errors.ts";
import { fileTooLarge, megabytes } from "../tools/upload-limits.ts";

/** Room for multipart boundaries and part headers on top of the file itself. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

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
