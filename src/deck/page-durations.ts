/**
 * @module deck/page-durations
 * How long each page stays before the deck moves on by itself: the page object's `/Dur`
 * (seconds; ISO 32000 12.4.4.1), what Beamer's `\transduration` writes. pdfpc advances such
 * a page after that time while its talk timer runs; the presenter does the same
 * (client/presenter/auto-advance). Only raw objects are read
 * (`findPage`), so a deck without durations costs one dictionary look-up a page. Browser-safe.
 */
import type { PdfDoc } from "./mupdf-types.ts";

/** Longest duration taken as given: a day. Beyond that a value is a mistake, not a pause. */
const MAX_DURATION_SECONDS = 86_400;

/**
 * Page (1-based) → seconds, for the pages whose `/Dur` is a number from 0 (advance at once, as
 * pdfpc does) to a day. Pages without one are absent. Never throws.
 */
export function readPageDurations(doc: PdfDoc, pageCount: number): Record<number, number> {
  const out: Record<number, number> = {};
  for (let i = 0; i < pageCount; i++) {
    try {
      const dur = doc.findPage(i).get("Dur");
      if (!dur.isNumber()) continue;
      // mupdf keeps PDF reals as 32-bit floats (0.2 reads 0.20000000298…): back to the written digits.
      const seconds = Math.round(dur.asNumber() * 1e6) / 1e6;
      if (Number.isFinite(seconds) && seconds >= 0 && seconds <= MAX_DURATION_SECONDS) out[i + 1] = seconds;
    } catch {
      // An unreadable page has no duration; assessPdf has refused decks whose pages cannot be reached.
    }
  }
  return out;
}
