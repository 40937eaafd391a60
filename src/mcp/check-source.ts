/**
 * @module mcp/check-source
 * Run the sidecar check on a tool's PDF source (and the notes file beside it, when one came).
 * The checker reads files (memory stays flat for large decks), so base64 input goes through a
 * temporary file, written and hashed as the REST uploads' are, that is removed whatever
 * happens.
 */
import { stat } from "node:fs/promises";
import { AppError } from "../base/errors.ts";
import type { ScratchFile } from "../core/blobs.ts";
import { notesFilename } from "../security/filename.ts";
import type { NotesFileInput } from "../core/pdf-reader.ts";
import { digestFile } from "../upload/digest.ts";
import { receiveBytes, receiveNotesBytes } from "../upload/receive.ts";
import { fileTooLarge, notesFileLimit, notesFileTooLarge } from "../tools/upload-limits.ts";
import type { CheckReport } from "../shared/check-report.ts";
import type { NotesSource, PdfSource } from "./server.ts";

export type CheckFile = (path: string, meta: { bytes: number; sha256: string }, notes?: NotesFileInput) => Promise<CheckReport>;

export interface CheckSourceOptions {
  maxBytes: number;
  createTemp: () => ScratchFile;
  checkFile: CheckFile;
}

export async function checkPdfSource(source: PdfSource, options: CheckSourceOptions, notes?: NotesSource): Promise<CheckReport> {
  const notesFile = notes ? await notesInput(notes, options) : null;
  try {
    const check = (path: string, meta: { bytes: number; sha256: string }) => (notesFile ? options.checkFile(path, meta, notesFile.input) : options.checkFile(path, meta));
    if (source.kind === "path") {
      if ((await localFileSize(source.path)) > options.maxBytes) throw fileTooLarge(options.maxBytes);
      return await check(source.path, await digestFile(source.path));
    }
    const { temp, bytes, sha256 } = await receiveBytes(source.bytes, null, options);
    try {
      return await check(temp.path, { bytes, sha256 });
    } finally {
      await temp.discard();
    }
  } finally {
    await notesFile?.discard();
  }
}

/**
 * The notes file as the checker takes it: a local file is read where it is (after its size is
 * checked); bytes go to a temp file, removed by `discard`.
 */
async function notesInput(notes: NotesSource, options: CheckSourceOptions): Promise<{ input: NotesFileInput; discard(): Promise<void> }> {
  const filename = notesFilename(notes.filename);
  if (notes.kind === "path") {
    const limit = notesFileLimit(options.maxBytes);
    if ((await localFileSize(notes.path, "notes file")) > limit) throw notesFileTooLarge(limit);
    return { input: { path: notes.path, filename }, discard: async () => {} };
  }
  const { temp } = await receiveNotesBytes(notes.bytes, notes.filename, options);
  return { input: { path: temp.path, filename }, discard: () => temp.discard() };
}

/** Size of a regular local file, or a failure that names the problem. */
export async function localFileSize(path: string, what: "PDF" | "notes file" = "PDF"): Promise<number> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    throw new AppError("FILE_MISSING", `No readable file at ${JSON.stringify(path)}; give the absolute path of the ${what}.`);
  }
  if (!info.isFile()) throw new AppError("FILE_MISSING", `${JSON.stringify(path)} is not a regular file; give the path of the ${what} file.`);
  if (info.size === 0 && what === "PDF") throw new AppError("NOT_A_PDF", "The file is empty; export the deck as PDF and pass that file.");
  return info.size;
}
