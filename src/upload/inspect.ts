/**
 * @module upload/inspect
 * Validate a received PDF and the notes file that came beside it (the `notes` part) in one
 * PDF job, while the PDF's bytes are made durable: the rule both doors that take a deck apply
 * (a present, handoff/service; going live, live/service), so a notes part is judged alike at
 * either — errors refuse the deck with NOTES_FILE_* problems, warnings go along with it.
 */
import type { InspectResult, PdfReader } from "../core/pdf-reader.ts";
import type { ReceivedUpload } from "../core/received-upload.ts";
import type { SessionNotes } from "../core/sessions.ts";
import { notesFilename } from "../security/filename.ts";

export interface InspectedUpload {
  info: InspectResult;
  /** The notes file as a row describes it; null when none came. */
  notes: SessionNotes | null;
  /** Its notes as normalised `.pdfpc` text (format 2), stored with the row; null when none came. */
  notesText: string | null;
  /** Its warnings (the deck is taken anyway). */
  notesWarnings: Array<{ code: string; message: string }>;
}

/** Inspect `upload` (and its notes file, when one came). Throws the PDF's or the notes file's problem. */
export async function inspectUpload(pdf: PdfReader, upload: ReceivedUpload): Promise<InspectedUpload> {
  const notesName = upload.notes ? notesFilename(upload.notes.uploadName) : null;
  // The fsync that makes the bytes durable overlaps their validation by a PDF worker (the
  // notes file is judged in the same job); a refused PDF or notes file is deleted anyway.
  const [info] = await Promise.all([pdf.inspect(upload.temp.path, upload.notes && notesName !== null ? { path: upload.notes.temp.path, filename: notesName } : undefined), upload.temp.sync()]);
  const read = notesName !== null ? info.notes : undefined;
  return {
    info,
    notes: read && notesName !== null ? { filename: notesName, kind: read.kind, slides: read.slides } : null,
    notesText: read?.pdfpc ?? null,
    notesWarnings: read?.warnings ?? [],
  };
}
