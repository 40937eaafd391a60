/**
 * @module pdf/open
 * Open a PDF from a file through a file-backed mupdf stream (memory stays flat whatever the
 * file size) and turn every way it can fail into the documented problem codes.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { AppError } from "../base/errors.ts";
import { assessPdf, REFUSAL_DETAIL } from "../deck/accept.ts";
import { loadMupdf, type Mupdf } from "./mupdf.ts";
import type { PdfInfo } from "../core/pdf-reader.ts";
import { readSlideLabels, slideCountOf } from "../deck/slide-groups.ts";
/** PDF readers accept the `%PDF-` header anywhere in the first 1024 bytes (ISO 32000 Annex H). */
const HEADER_WINDOW = 1024;

export type PdfDocument = InstanceType<Mupdf["PDFDocument"]>;

export interface OpenedPdf {
  mupdf: Mupdf;
  doc: PdfDocument;
  info: PdfInfo;
  close(): void;
}

/** True when the first 1 KiB contains the `%PDF-` marker. The bytes decide, never the name. */
export function hasPdfHeader(head: Uint8Array): boolean {
  const window = head.subarray(0, HEADER_WINDOW);
  outer: for (let i = 0; i + 5 <= window.length; i++) {
    const marker = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"
    for (let j = 0; j < marker.length; j++) if (window[i + j] !== marker[j]) continue outer;
    return true;
  }
  return false;
}

function readHead(fd: number): Uint8Array {
  const head = new Uint8Array(HEADER_WINDOW);
  const n = readSync(fd, head, 0, HEADER_WINDOW, 0);
  return head.subarray(0, n);
}

/**
 * Open and validate the PDF at `path`. Throws `AppError` with NOT_A_PDF, PDF_UNREADABLE,
 * PDF_ENCRYPTED, PDF_NO_PAGES or TOO_MANY_PAGES. The caller must `close()` the result.
 */
export async function openPdfFile(path: string): Promise<OpenedPdf> {
  const fd = openSync(path, "r");
  let fdOwnedByStream = false;
  try {
    const size = fstatSync(fd).size;
    if (size === 0 || !hasPdfHeader(readHead(fd))) throw new AppError("NOT_A_PDF");
    const mupdf = await loadMupdf();
    const stream = new mupdf.Stream({
      fileSize: () => size,
      read: (memory, offset, length, position) => readSync(fd, memory, offset, length, position),
      close: () => closeSync(fd),
    });
    fdOwnedByStream = true;
    let document: InstanceType<Mupdf["Document"]>;
    try {
      document = mupdf.Document.openDocument(stream, "application/pdf");
    } catch (cause) {
      stream.destroy();
      throw new AppError("PDF_UNREADABLE", undefined, { cause });
    }
    const doc = document.asPDF();
    const close = () => {
      document.destroy();
      stream.destroy();
    };
    try {
      if (!doc) throw new AppError("PDF_UNREADABLE");
      // The same rule as the browser's local import (deck/accept).
      const verdict = assessPdf(doc);
      // The server's own default sentence ("upload again") unless the verdict is specific.
      if (!verdict.ok) throw new AppError(verdict.code, verdict.detail === REFUSAL_DETAIL[verdict.code] ? undefined : verdict.detail);
      const { ok: _, ...info } = verdict;
      return { mupdf, doc, info, close };
    } catch (error) {
      close();
      throw error;
    }
  } catch (error) {
    if (!fdOwnedByStream) closeSync(fd);
    throw error instanceof AppError ? error : new AppError("PDF_UNREADABLE", undefined, { cause: error });
  }
}

/**
 * Validate the PDF at `path` and return what the handoff record needs: the page count, and
 * how many slides the presenter will count (page labels joined by the deck's .pdfpc — the
 * notes file beside it, `notesFile` as its normalised text, else an attached one). Slides are
 * counted only once the PDF passed; a deck whose labels cannot be read counts its pages.
 */
export async function inspectPdf(path: string, notesFile?: (pageCount: number) => string | null): Promise<PdfInfo & { slides: number }> {
  const opened = await openPdfFile(path);
  try {
    const { pageCount } = opened.info;
    const pdfpc = notesFile?.(pageCount) ?? null;
    let slides = pageCount;
    try {
      slides = slideCountOf(readSlideLabels(opened.doc, pageCount, pdfpc));
    } catch {
      // Counted as pages: the record's sentence then says "N slides" as before.
    }
    return { ...opened.info, slides };
  } finally {
    opened.close();
  }
}
