/**
 * @module mcp/check-source
 * Run the sidecar check on a tool's PDF source. The checker reads files (memory stays flat
 * for large decks), so base64 input goes through a temporary file that is removed whatever
 * happens.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat, writeFile } from "node:fs/promises";
import { AppError } from "../errors.ts";
import type { TempFile } from "../store/files.ts";
import { fileTooLarge } from "./limits.ts";
import type { CheckReportObject, PdfSource } from "./server.ts";
import { ToolFailure } from "./tool-failure.ts";

export type CheckFile = (path: string, meta: { bytes: number; sha256: string }) => Promise<CheckReportObject>;

export interface CheckSourceOptions {
  maxBytes: number;
  createTemp: () => TempFile;
  checkFile: CheckFile;
}

export async function checkPdfSource(source: PdfSource, options: CheckSourceOptions): Promise<CheckReportObject> {
  if (source.kind === "path") {
    const bytes = await localFileSize(source.path);
    if (bytes > options.maxBytes) throw fileTooLarge(options.maxBytes);
    return options.checkFile(source.path, { bytes, sha256: await sha256OfFile(source.path) });
  }
  const temp = options.createTemp();
  try {
    await writeFile(temp.path, source.bytes, { flag: "wx" });
    const sha256 = createHash("sha256").update(source.bytes).digest("hex");
    return await options.checkFile(temp.path, { bytes: source.bytes.length, sha256 });
  } finally {
    temp.discard();
  }
}

/** Size of a regular local file, or a failure that names the problem. */
export async function localFileSize(path: string): Promise<number> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    throw new ToolFailure("FILE_MISSING", `No readable file at ${JSON.stringify(path)}; give the absolute path of the PDF.`);
  }
  if (!info.isFile()) throw new ToolFailure("FILE_MISSING", `${JSON.stringify(path)} is not a regular file; give the path of the PDF file.`);
  if (info.size === 0) throw new AppError("NOT_A_PDF", "The file is empty; export the deck as PDF and pass that file.");
  return info.size;
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
