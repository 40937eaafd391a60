/**
 * @module deck/analyze
 * The one analysis that turns an opened PDF into per-slide notes, media and findings. The check
 * report and the presenter's `DeckExtras` both come from here, so the presenter shows
 * exactly what the report says. Browser-safe: mupdf objects come in as parameters.
 *
 * What the presenter shows: per slide, the notes of the first usable source (notes sidecar,
 * notes file beside the PDF, attached pdfpc, the notes half of a Beamer notes page, in-page
 * annotations: analyze/notes); each media sidecar that is not invalid (and, for kind "file",
 * whose binary is not invalid); each page-attached media that is not invalid; each movie the
 * pages name (analyze/movies: played from the deck, or a placeholder over its poster); the
 * timer; and the notes layout (pdfpc.sty's XMP, else the page geometry, or the presenter's
 * override).
 *
 * It runs in phases, one module each under analyze/: read every attachment within the
 * budgets (entries), give each its kind and slide (classify), link media sidecars to their
 * binaries (media), play the movies the pages name from the deck or flag them (movies), place
 * the rest (media), read the deck's own notes (layout: XMP, notes layout, notes halves, the
 * notes file), resolve the presenter's notes (notes), and build the report's parts with the
 * notes text capped (results).
 */
import { discoverAttachments } from "./attachments.ts";
import type { PdfDoc } from "./mupdf-types.ts";
import { classifyEntries } from "./analyze/classify.ts";
import { readEntries } from "./analyze/entries.ts";
import { linkSidecarMedia, placeRemaining } from "./analyze/media.ts";
import { placeMovies } from "./analyze/movies.ts";
import { resolvePresenterNotes } from "./analyze/notes.ts";
import { DEFAULT_ANALYZE_OPTIONS, type AnalyzeOptions } from "./analyze/options.ts";
import { type Analysis, buildResults } from "./analyze/results.ts";
import { newPlacement } from "./analyze/state.ts";
import { readDeckNotes } from "./analyze/layout.ts";

export { DEFAULT_ANALYZE_OPTIONS, type AnalyzeOptions } from "./analyze/options.ts";
export type { Analysis } from "./analyze/results.ts";

export function analyzeDeck(doc: PdfDoc, pageCount: number, options: Partial<AnalyzeOptions> = {}): Analysis {
  const opts: AnalyzeOptions = { ...DEFAULT_ANALYZE_OPTIONS, ...options };
  const discovery = discoverAttachments(doc, pageCount, opts.limits);
  const entries = readEntries(discovery.attachments, opts);
  const state = newPlacement(discovery, pageCount);
  classifyEntries(entries, state);
  linkSidecarMedia(state);
  placeMovies(state);
  placeRemaining(state);
  readDeckNotes(doc, state, opts);
  return buildResults(state, resolvePresenterNotes(state), opts);
}
