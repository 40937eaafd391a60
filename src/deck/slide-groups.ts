/**
 * @module deck/slide-groups
 * Which pages are one slide, as the deck's own tool says — the same answer for the presenter's
 * counter, go-to, overview and previews (the render worker), the check report and the handoff
 * record's sentence (the server). pdfpc's rule, read from its source (metadata/pdf.vala):
 *
 *   1. consecutive pages with one PDF page label are one slide (Beamer, LaTeX, Touying with
 *      labels; a PDF without labels gives every page its number, so every page is a slide);
 *   2. on top of that, a page a `.pdfpc` marks `forcedOverlay` is one more step of the slide
 *      before it, whatever its label (pdfpc's Ctrl+O; polylux2pdfpc marks every build step
 *      after a Typst slide's first, which is how a Polylux/Touying deck — no page labels —
 *      gets its slides). Both apply at once: a .pdfpc never overrides labels, it only joins.
 *
 * The .pdfpc is the notes file beside the PDF when it marks any overlay (the speaker chose
 * it for this talk), else the first `.pdfpc` attached to the PDF — the one the check's
 * analysis uses (a second is PDFPC_MULTIPLE) — read up to MAX_SIDECAR_BYTES: one that cannot
 * be read within that groups nothing. This is the one route that decides the grouping: the
 * render worker (the presenter's counter), the server's inspect (the record's slide count) and
 * the check report's labels all call readSlideLabels, so a deck whose attachments exhaust the
 * analysis's decode budgets before its .pdfpc still counts its slides the same everywhere.
 * The result is a label per page; consecutive equal labels are one slide. A deck without page
 * labels that a .pdfpc groups is numbered by slide ("1" … "31", pdfpc's user slide numbers,
 * and what Polylux's footer says); a labelled deck keeps its labels, a joined page taking its
 * slide's. Browser-safe: mupdf's document comes in as a parameter.
 */
import { findAttachmentsNamed } from "./attachments.ts";
import type { PdfDoc } from "./mupdf-types.ts";
import { pagesAreNotSlides } from "./page-names.ts";
import { readPageLabels } from "./page-labels.ts";
import { MAX_SIDECAR_BYTES } from "./sidecar/json-text.ts";
import { MAX_NORMALISED_PDFPC_BYTES } from "./notes-file/index.ts";
import { matchAttachmentName } from "./sidecar/names.ts";
import { parsePdfpc } from "./sidecar/pdfpc.ts";
import { concat, decodeStream } from "./stream-decode.ts";

/**
 * The page labels with pdfpc's forced overlays applied (`overlays`: 1-based pages that join
 * the slide before them). Without overlays the labels come back as they are.
 */
export function groupedLabels(labels: readonly string[], overlays: readonly number[]): string[] {
  const joins = new Set(overlays.filter((p) => Number.isInteger(p) && p > 1 && p <= labels.length));
  if (joins.size === 0) return [...labels];
  const numbered = !pagesAreNotSlides(labels);
  const out: string[] = [];
  let slide = 0;
  // pdfpc's auto grouping: a new user slide where the label changes from the one that opened
  // the slide before, unless the page is a forced overlay.
  let opening: string | null = null;
  for (const [i, label] of labels.entries()) {
    if (!joins.has(i + 1) && label !== opening) {
      slide++;
      opening = label;
    }
    out.push(numbered ? String(slide) : (opening as string));
  }
  return out;
}

/** How many slides the labels make: consecutive pages with one label are one slide. */
export function slideCountOf(labels: readonly string[]): number {
  return labels.filter((label, i) => i === 0 || label !== labels[i - 1]).length;
}

/**
 * The forced overlays of the deck's .pdfpc: the notes file's (its normalised text) when it
 * marks any, else the first attached .pdfpc's, decoded up to MAX_SIDECAR_BYTES (a .pdfpc is a
 * few KiB: one read, bounded, whatever the deck holds besides). Never throws.
 */
export function pdfpcOverlays(doc: PdfDoc, pageCount: number, notesFile?: string | null): number[] {
  if (notesFile) {
    const fromFile = parsePdfpc(new TextEncoder().encode(notesFile), "notes.pdfpc", pageCount, MAX_NORMALISED_PDFPC_BYTES).overlays;
    if (fromFile.length > 0) return fromFile;
  }
  try {
    const [first] = findAttachmentsNamed(doc, pageCount, (base) => matchAttachmentName(base).type === "pdfpc");
    if (!first?.stream) return [];
    const parts: Uint8Array[] = [];
    let size = 0;
    const outcome = decodeStream(first.stream, MAX_SIDECAR_BYTES, (chunk) => {
      parts.push(chunk.slice());
      size += chunk.length;
    });
    if (outcome.status !== "ok") return [];
    const parsed = parsePdfpc(concat(parts, size), first.baseName, pageCount);
    return parsed.usable ? parsed.overlays : [];
  } catch {
    // An unreadable structure groups nothing; the check report says what is wrong with it.
    return [];
  }
}

/** The slide label of every page (index 0 = page 1): page labels, joined by the deck's .pdfpc. */
export function readSlideLabels(doc: PdfDoc, pageCount: number, notesFile?: string | null): string[] {
  return groupedLabels(readPageLabels(doc, pageCount), pdfpcOverlays(doc, pageCount, notesFile));
}
