/**
 * @module mcp/check-source
 * Run the sidecar check on a tool's PDF source. The checker reads files (memory stays flat
 * for large decks), so base64 input goes through a temporary file, written and hashed as the
 * REST uploads' are, that is removed whatever happens.
 */
import { stat } from "node:fs/promises";
import { AppError } from "../errors.ts";
import type { ScratchFile } from "../handoff/ports/blobs.ts";
import { digestFile } from "../upload/digest.ts";
import { fileTooLarge, receiveBytes } from "../upload/receive.ts";
import type { CheckReport } from "../deck/check-report.gen.ts";
import type { PdfSource } from "./server.ts";

export type CheckFile = (path: string, meta: { bytes: number; sha256: string }) => Promise<CheckReport>;

export interface CheckSourceOptions {
  maxBytes: number;
  createTemp: () => ScratchFile;
  checkFile: CheckFile;
}

export async function checkPdfSource(source: PdfSource, options: CheckSourceOptions): Promise<CheckReport> {
  if (source.kind === "path") {
    if ((await localFileSize(source.path)) > options.maxBytes) throw fileTooLarge(options.maxBytes);
    return options.checkFile(source.path, await digestFile(source.path));
  }
  const { temp, bytes, sha256 } = await receiveBytes(source.bytes, null, options);
  try {
    return await options.checkFile(temp.path, { bytes, sha256 });
  } finally {
    await temp.discard();
  }
}

/** Size of a regular local file, or a failure that names the problem. */
export async function localFileSize(path: string): Promise<number> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    throw new AppError("FILE_MISSING", `No readable file at ${JSON.stringify(path)}; give the absolute path of the PDF.`);
  }
  if (!info.isFile()) throw new AppError("FILE_MISSING", `${JSON.stringify(path)} is not a regular file; give the path of the PDF file.`);
  if (info.size === 0) throw new AppError("NOT_A_PDF", "The file is empty; export the deck as PDF and pass that file.");
  return info.size;
}
