/**
 * @module pdf/check
 * Server-side entry of the sidecar check: open the PDF at a path through a file-backed
 * stream and build its report. `POST /api/check`, the MCP `check_pdf` tool and
 * `deckhand check` all call `checkPdfFile`.
 */
import { readNotesBytes } from "./notes.ts";
import type { NotesFileInput } from "../core/pdf-reader.ts";
import { openPdfFile } from "./open.ts";
import { buildCheckReport, type ReportOptions } from "../deck/report.ts";
import type { CheckReport } from "../deck/report-types.ts";

export type { CheckReport, AttachmentResult, ReportIssue } from "../deck/report-types.ts";

/**
 * Check the PDF at `path`. `meta` carries what the caller already computed while receiving
 * the file (its size and SHA-256 hex). Throws `AppError` NOT_A_PDF, PDF_UNREADABLE,
 * PDF_ENCRYPTED, PDF_NO_PAGES or TOO_MANY_PAGES when the PDF itself is unusable; every
 * problem inside a readable PDF is a finding in the report instead — and so is every problem
 * of a notes file given beside it (`notes`): a broken notes file never fails a check.
 */
export async function checkPdfFile(path: string, meta: { bytes: number; sha256: string }, options: ReportOptions = {}, notes?: NotesFileInput): Promise<CheckReport> {
  const opened = await openPdfFile(path);
  try {
    const notesFile = notes ? { bytes: readNotesBytes(notes), filename: notes.filename } : undefined;
    return buildCheckReport(
      opened.mupdf,
      opened.doc,
      { bytes: meta.bytes, sha256: meta.sha256, pdfVersion: opened.info.pdfVersion, title: opened.info.title, pageCount: opened.info.pageCount },
      { ...options, ...(notesFile ? { notesFile } : {}) },
    );
  } finally {
    opened.close();
  }
}
