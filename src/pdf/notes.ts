/**
 * @module pdf/notes
 * The notes file that came beside a PDF (a `.pdfpc` or a PowerPoint `.pptx`), read
 * in a PDF worker process like the PDF itself: a hostile file (a zip bomb, XML with entity
 * expansion, ten thousand notes slides) costs a worker with its deadline and memory bound,
 * never the server's event loop. deck/notes-file does the reading (the browser uses the same
 * code); here its findings become present's answer: errors refuse the deck with a coded
 * problem that quotes the first of them, warnings go along with it.
 */
import { readFileSync } from "node:fs";
import { AppError } from "../base/errors.ts";
import { MAX_NORMALISED_PDFPC_BYTES, readNotesFile } from "../deck/notes-file/index.ts";
import type { NotesFileResult } from "../deck/notes-file/types.ts";
import type { FindingCode } from "../deck/sidecar/findings.ts";
import type { InspectedNotes, NotesFileInput } from "../core/pdf-reader.ts";

/**
 * Longest normalised notes text stored with a staged deck: the reader's own cap (it refuses a
 * longer one with a finding); checked again here because it bounds what a present holds in
 * memory and writes to the row.
 */
export const MAX_NOTES_TEXT_BYTES = MAX_NORMALISED_PDFPC_BYTES;

/**
 * Findings that mean the notes file could not be read (safely) at all: not a .pdfpc or .pptx,
 * a damaged zip, a zip bomb, XML with a DOCTYPE, too many slides. They refuse the deck with
 * NOTES_FILE_UNREADABLE; any other error (a readable file whose content is wrong, e.g. notes
 * for a slide the PDF lacks) with NOTES_FILE_INVALID.
 */
const UNREADABLE = new Set<FindingCode>([
  "NOTES_FILE_UNRECOGNIZED",
  "PPTX_ZIP_INVALID",
  "PPTX_ZIP_BOMB",
  "PPTX_PART_TOO_LARGE",
  "PPTX_PART_MALFORMED",
  "PPTX_TOO_MANY_SLIDES",
  "XML_DOCTYPE_REFUSED",
  "INVALID_UTF8",
  "INVALID_JSON",
  "PDFPC_FORMAT_UNSUPPORTED",
]);

/** Read the notes file's bytes (the worker's memory bound covers them). */
export function readNotesBytes(input: NotesFileInput): Uint8Array {
  try {
    return readFileSync(input.path);
  } catch (cause) {
    throw new AppError("INTERNAL", undefined, { cause });
  }
}

/** The detail of a refused notes file: its first error, and how many more there are. */
function errorDetail(result: NotesFileResult): string | undefined {
  const errors = result.issues.filter((issue) => issue.level === "error");
  const first = errors[0];
  if (!first) return undefined;
  const more = errors.length - 1;
  const rest = more > 0 ? ` (${more} more ${more === 1 ? "error" : "errors"}: POST /api/check with the same notes part lists every finding)` : "";
  return `${result.filename}: ${first.message}${rest}`;
}

/**
 * Judge the notes file for a deck of `pageCount` pages. Throws NOTES_FILE_UNREADABLE (not a
 * .pdfpc or .pptx, or one that cannot be read safely), NOTES_FILE_INVALID (readable, with
 * errors) or NOTES_FILE_TOO_LARGE (its notes text over MAX_NOTES_TEXT_BYTES).
 */
export function inspectNotesFile(input: NotesFileInput, pageCount: number): InspectedNotes {
  const bytes = readNotesBytes(input);
  let result: NotesFileResult;
  try {
    result = readNotesFile(bytes, input.filename, pageCount);
  } catch (cause) {
    // deck/notes-file guards itself; this is the last line against what nobody foresaw.
    throw new AppError("NOTES_FILE_UNREADABLE", undefined, { cause });
  }
  const firstError = result.issues.find((issue) => issue.level === "error");
  if (firstError?.code === "NOTES_FILE_TOO_LARGE") throw new AppError("NOTES_FILE_TOO_LARGE", errorDetail(result));
  if (result.kind === null || (firstError && UNREADABLE.has(firstError.code))) throw new AppError("NOTES_FILE_UNREADABLE", errorDetail(result));
  if (firstError || result.pdfpc === null) throw new AppError("NOTES_FILE_INVALID", errorDetail(result));
  if (Buffer.byteLength(result.pdfpc) > MAX_NOTES_TEXT_BYTES) {
    throw new AppError(
      "NOTES_FILE_TOO_LARGE",
      `${result.filename}: its notes come to more than the ${MAX_NOTES_TEXT_BYTES / (1024 * 1024)} MB of text this server keeps with a deck; shorten the notes or split the deck.`,
    );
  }
  return {
    kind: result.kind,
    slides: result.notes.size,
    pdfpc: result.pdfpc,
    warnings: result.issues.filter((issue) => issue.level === "warning").map((issue) => ({ code: issue.code, message: issue.message })),
  };
}
