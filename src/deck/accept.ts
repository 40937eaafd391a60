/**
 * @module deck/accept
 * The one rule for which PDFs deckhand presents. The server (present, check, MCP) and the
 * browser (local import, the render worker) both judge an opened document here, so a deck
 * the server refuses is refused by the browser with the same code, and the other way round.
 * Browser-safe: the document comes in as a parameter; no Bun, Node or mupdf import.
 */
import type { PdfDoc } from "./mupdf-types.ts";

/** Decks longer than this are refused: no talk has 3000 slides, and a hostile page tree could. */
export const MAX_PAGES = 3000;

/** Why a readable-looking file is refused; the same codes as the server's problem documents. */
export type RefusalCode = "PDF_UNREADABLE" | "PDF_ENCRYPTED" | "PDF_NO_PAGES" | "TOO_MANY_PAGES";

export interface AcceptedPdf {
  ok: true;
  pageCount: number;
  pdfVersion: string | null;
  title: string | null;
}

export interface RefusedPdf {
  ok: false;
  code: RefusalCode;
  /** One sentence for a person: what is wrong and what to do. */
  detail: string;
}

/** The sentences both sides show; the server uses them as problem details. */
export const REFUSAL_DETAIL: Record<RefusalCode, string> = {
  PDF_UNREADABLE: "The PDF is damaged and cannot be read; export it again from its source.",
  PDF_ENCRYPTED: "The PDF needs a password to open; export it without a password and open it again.",
  PDF_NO_PAGES: "The PDF has no pages; export the deck again.",
  TOO_MANY_PAGES: `The PDF has more pages than deckhand presents (${MAX_PAGES}); split the deck.`,
};

const refuse = (code: RefusalCode, detail = REFUSAL_DETAIL[code]): RefusedPdf => ({ ok: false, code, detail });

/**
 * Judge an opened document. Every page object must be reachable: a page tree that loops
 * or points at garbage makes `findPage` throw, and a deck with a page nobody can show is
 * damaged, whether it is presented or checked.
 */
export function assessPdf(doc: PdfDoc): AcceptedPdf | RefusedPdf {
  try {
    if (doc.needsPassword()) return refuse("PDF_ENCRYPTED");
    const pageCount = doc.countPages();
    // A badly truncated file can be "repaired" into zero pages: that is damage, not an empty deck.
    if (pageCount <= 0) return refuse(doc.wasRepaired() ? "PDF_UNREADABLE" : "PDF_NO_PAGES");
    if (pageCount > MAX_PAGES) {
      return refuse("TOO_MANY_PAGES", `The PDF has ${pageCount} pages; deckhand presents at most ${MAX_PAGES}. Split the deck.`);
    }
    for (let index = 0; index < pageCount; index++) {
      try {
        doc.findPage(index);
      } catch {
        return refuse("PDF_UNREADABLE", `Page ${index + 1} of the PDF cannot be read (its page tree is damaged); export the deck again from its source.`);
      }
    }
    const version = doc.getVersion();
    return {
      ok: true,
      pageCount,
      pdfVersion: version > 0 ? `${Math.floor(version / 10)}.${version % 10}` : null,
      title: doc.getMetaData("info:Title")?.trim() || null,
    };
  } catch {
    return refuse("PDF_UNREADABLE");
  }
}
