/**
 * @module deck/notes-layout-detect
 * Find Beamer's `show notes on second screen` layout in a deck: from pdfpc's LaTeX package
 * (XMP `pdfpc:NotesPosition`) when it is there and agrees with the pages, else from the pages:
 *
 * - geometry: every page is exactly twice one of Beamer's slide ratios (4:3, 16:9, 16:10, 14:9,
 *   5:4, 3:2, 1.41) in one direction — 8:3, 32:9, 16:5 … wide, or 2:3, 9:32 … tall — within a
 *   tolerance far tighter than the gap to paper sizes (US Letter portrait is 3% from a halved
 *   3:2; A4 portrait *is* a halved 1.41, which is why tall pages need the structure too);
 * - structure: which half is the notes page. Beamer's default notes page has a header band
 *   (the top quarter) with the date rotated by 90°, the title and frame title, and a miniature
 *   of the slide at a quarter of its size in the top right; the slide half carries Beamer's
 *   navigation symbols, link annotations along its bottom edge.
 *
 * Side-by-side pages with no structure either way are taken as pgfpages' default (notes on
 * the right) with a warning; stacked pages need the structure (else nothing is split). Pages
 * that are partly doubled cannot be split and get a warning. Browser-safe.
 */
import type { PdfDoc, PdfObj } from "./mupdf-types.ts";
import { NO_NOTES_LAYOUT, notesRect, slideRect, type NotesLayout, type NotesPosition, type Rect } from "./notes-layout.ts";
import { centreIn, readPageText, type TextLine } from "./page-text.ts";
import { finding, type Finding } from "./sidecar/findings.ts";
import type { PdfpcMetadata } from "./xmp.ts";

/** Beamer's `aspectratio` values (width / height of one slide). */
export const SLIDE_RATIOS = [4 / 3, 16 / 9, 16 / 10, 14 / 9, 5 / 4, 3 / 2, 1.41] as const;
/**
 * Relative tolerance on a doubled ratio: pdfTeX rounds sizes to 1/65536 pt and writes them with
 * three decimals (≈0.01%); 1.41 is Beamer's 148.5 mm × 105 mm (1.4143). 0.5% keeps US Letter
 * (3% away) and every other paper size out.
 */
const RATIO_TOLERANCE = 0.005;
/** Pages whose text is read to find the notes half: the first few and a spread of the rest. */
const STRUCTURE_SAMPLE = 12;
/** Beamer's notes header is the top quarter of a notes page (`.25\paperheight`); a little slack. */
const HEADER_BAND = 0.3;
/** A miniature's text is a quarter of the slide's (Beamer's `\insertslideintonotes{0.25}`). */
const MINIATURE_FONT_RATIO = 0.45;
/** Navigation symbols sit in the bottom strip of the slide. */
const NAVIGATION_BAND = 0.15;

export type Doubling = "wide" | "tall" | null;

function near(value: number, target: number): boolean {
  return Math.abs(value - target) <= target * RATIO_TOLERANCE;
}

/** Whether a page of this size is twice a slide side by side ("wide") or stacked ("tall"). */
export function doublingOf(size: { w: number; h: number }): Doubling {
  if (!(size.w > 0 && size.h > 0)) return null;
  const ratio = size.w / size.h;
  for (const r of SLIDE_RATIOS) {
    if (near(ratio, 2 * r)) return "wide";
    if (near(ratio, r / 2)) return "tall";
  }
  return null;
}

function readBox(value: PdfObj): Rect | null {
  if (!value.isArray() || value.length !== 4) return null;
  const n: number[] = [];
  for (let i = 0; i < 4; i++) {
    const item = value.get(i);
    if (!item.isNumber() || !Number.isFinite(item.asNumber())) return null;
    n.push(item.asNumber());
  }
  const [a, b, c, d] = n as [number, number, number, number];
  return { x: Math.min(a, c), y: Math.min(b, d), w: Math.abs(c - a), h: Math.abs(d - b) };
}

/** The page's box (CropBox, else MediaBox) in PDF user space, and its /Rotate. */
function rawBox(page: PdfObj): { box: Rect; rotate: number } | null {
  for (const key of ["CropBox", "MediaBox"]) {
    const box = readBox(page.getInheritable(key));
    if (box && box.w > 0 && box.h > 0) {
      const rotate = page.getInheritable("Rotate");
      const r = rotate.isNumber() ? ((Math.round(rotate.asNumber() / 90) % 4) + 4) % 4 : 0;
      return { box, rotate: r };
    }
  }
  return null;
}

/** Every page's size as shown (rotation applied), read from the page objects (no page is loaded). */
export function pageSizes(doc: PdfDoc, pageCount: number): ({ w: number; h: number } | null)[] {
  const sizes: ({ w: number; h: number } | null)[] = [];
  for (let i = 0; i < pageCount; i++) {
    try {
      const raw = rawBox(doc.findPage(i));
      sizes.push(raw ? (raw.rotate % 2 === 1 ? { w: raw.box.h, h: raw.box.w } : { w: raw.box.w, h: raw.box.h }) : null);
    } catch {
      sizes.push(null);
    }
  }
  return sizes;
}

/** Rectangles (top-left points) of the page's navigation links: Beamer's `Navigation<n>` targets and viewer actions. */
function navigationLinks(doc: PdfDoc, pageIndex: number): Rect[] {
  const rects: Rect[] = [];
  try {
    const page = doc.findPage(pageIndex);
    const raw = rawBox(page);
    if (!raw || raw.rotate !== 0) return rects;
    const annots = page.get("Annots");
    if (!annots.isArray()) return rects;
    const count = Math.min(annots.length, 200);
    for (let i = 0; i < count; i++) {
      const annot = annots.get(i);
      if (!annot.isDictionary() || annot.get("Subtype").isNull() || annot.get("Subtype").asName() !== "Link") continue;
      const action = annot.get("A");
      if (!action.isDictionary()) continue;
      const kind = action.get("S");
      const dest = action.get("D");
      const isNav = (kind.isName() && kind.asName() === "Named") || (dest.isString() && /^Navigation\d+$/.test(dest.asString()));
      if (!isNav) continue;
      const r = readBox(annot.get("Rect"));
      if (r) rects.push({ x: r.x - raw.box.x, y: raw.box.y + raw.box.h - (r.y + r.h), w: r.w, h: r.h });
    }
  } catch {
    // A page whose annotations cannot be read gives no evidence.
  }
  return rects;
}

/** Beamer notes-page evidence in `half`: a rotated line or a miniature's tiny text in its header band. */
export function notesPageEvidence(lines: TextLine[], half: Rect, otherHalf: Rect): boolean {
  const band: Rect = { x: half.x, y: half.y, w: half.w, h: half.h * HEADER_BAND };
  const inBand = lines.filter((l) => centreIn(l.box, band));
  if (inBand.some((l) => l.rotated)) return true;
  const slideSizes = lines.filter((l) => centreIn(l.box, otherHalf) && !l.rotated).map((l) => l.size);
  const slideFont = slideSizes.length > 0 ? Math.max(...slideSizes) : 0;
  // The miniature sits in the header's right part; its text is about a quarter of the slide's.
  const miniature: Rect = { x: half.x + half.w * 0.6, y: half.y, w: half.w * 0.4, h: half.h * HEADER_BAND };
  return slideFont > 0 && lines.some((l) => centreIn(l.box, miniature) && l.size <= slideFont * MINIATURE_FONT_RATIO);
}

function navigationEvidence(links: Rect[], half: Rect): boolean {
  const strip: Rect = { x: half.x, y: half.y + half.h * (1 - NAVIGATION_BAND), w: half.w, h: half.h * NAVIGATION_BAND };
  return links.filter((r) => centreIn(r, strip)).length >= 2;
}

/** Indices of pages to read for structure: the first few, then evenly spread. */
function samplePages(pageCount: number): number[] {
  if (pageCount <= STRUCTURE_SAMPLE) return Array.from({ length: pageCount }, (_, i) => i);
  const picks = new Set<number>([0, 1, 2, 3]);
  for (let k = 0; picks.size < STRUCTURE_SAMPLE; k++) picks.add(Math.min(pageCount - 1, Math.floor(((k + 1) * pageCount) / (STRUCTURE_SAMPLE - 3))));
  return [...picks].sort((a, b) => a - b);
}

/**
 * Which position the pages' structure shows (votes over a sample of pages), or null when the
 * sample shows none. `doubling` says which pair of halves to compare.
 */
export function structurePosition(doc: PdfDoc, pageCount: number, doubling: "wide" | "tall"): { position: NotesPosition | null; notesPages: number } {
  const candidates: NotesPosition[] = doubling === "wide" ? ["right", "left"] : ["bottom", "top"];
  const votes = new Map<NotesPosition, number>();
  let notesPages = 0;
  for (const index of samplePages(pageCount)) {
    const text = readPageText(doc, index);
    if (!text) continue;
    const links = navigationLinks(doc, index);
    for (const position of candidates) {
      const notes = notesRect(text.size, position) as Rect;
      const slide = slideRect(text.size, position);
      const notesHere = notesPageEvidence(text.lines, notes, slide);
      const notesThere = notesPageEvidence(text.lines, slide, notes);
      const navHere = navigationEvidence(links, slide);
      const navThere = navigationEvidence(links, notes);
      if ((notesHere && !notesThere) || (navHere && !navThere && !notesThere)) {
        votes.set(position, (votes.get(position) ?? 0) + 1);
        if (notesHere) notesPages++;
        break;
      }
    }
  }
  const ranked = [...votes.entries()].sort((a, b) => b[1] - a[1]);
  const best = ranked[0];
  const runnerUp = ranked[1]?.[1] ?? 0;
  // A clear majority of the pages that show any structure.
  return { position: best && best[1] > 2 * runnerUp ? best[0] : null, notesPages };
}

const DIRECTION: Record<NotesPosition, Doubling> = { none: null, right: "wide", left: "wide", bottom: "tall", top: "tall" };

/**
 * The deck's notes layout. XMP's `pdfpc:NotesPosition` wins when the pages are doubled in its
 * direction and their structure does not show the other half; otherwise the pages decide and a
 * finding says what disagreed. Never throws.
 */
export function detectNotesLayout(doc: PdfDoc, pageCount: number, metadata: PdfpcMetadata | null): { layout: NotesLayout; issues: Finding[] } {
  const issues: Finding[] = [];
  try {
    return detect(doc, pageCount, metadata, issues);
  } catch {
    return { layout: NO_NOTES_LAYOUT, issues };
  }
}

function detect(doc: PdfDoc, pageCount: number, metadata: PdfpcMetadata | null, issues: Finding[]): { layout: NotesLayout; issues: Finding[] } {
  const xmp = metadata?.notesPosition;
  const none = { layout: NO_NOTES_LAYOUT, issues };
  if (pageCount <= 0) return none;
  const sizes = pageSizes(doc, pageCount);
  const doublings = sizes.map((s) => (s ? doublingOf(s) : null));
  const wide = doublings.filter((d) => d === "wide").length;
  const tall = doublings.filter((d) => d === "tall").length;
  const direction: Doubling = wide === pageCount ? "wide" : tall === pageCount ? "tall" : null;

  if (direction === null) {
    const doubled = wide + tall;
    // Some pages doubled, some not: the look of a notes layout that cannot be split.
    const dominant = wide >= tall ? "wide" : "tall";
    if (doubled > 0) {
      const structure = structurePosition(doc, pageCount, dominant);
      if (structure.notesPages > 0 || (xmp !== undefined && xmp !== "none") || doubled * 2 >= pageCount) {
        issues.push(finding("NOTES_LAYOUT_UNSPLITTABLE", `${doubled} of the ${pageCount} pages are twice a slide's size (slide and notes side by side or stacked), the others are not, so no page is split and the audience would see the notes. Build the whole deck with \\setbeameroption{show notes on second screen} or without it.`));
      }
    } else if (xmp !== undefined && xmp !== "none") {
      issues.push(finding("NOTES_LAYOUT_MISMATCH", `pdfpc's metadata says the notes are on the ${xmp} of each page, but the pages are ordinary slides (not twice a slide's size); the pages are shown whole. Remove notesposition=${xmp} from \\usepackage{pdfpc}.`));
    }
    return none;
  }

  const structure = structurePosition(doc, pageCount, direction);
  if (xmp !== undefined && xmp !== "none") {
    if (DIRECTION[xmp] === direction && (structure.position === null || structure.position === xmp)) {
      return { layout: { kind: "beamer-second-screen", position: xmp, from: "xmp" }, issues };
    }
    const shown = structure.position ?? (direction === "wide" ? "right" : null);
    issues.push(
      finding(
        "NOTES_LAYOUT_MISMATCH",
        shown
          ? `pdfpc's metadata says the notes are on the ${xmp} of each page, but the pages show them on the ${shown}; the ${shown} half is used as notes. Fix notesposition in \\usepackage{pdfpc}, or set the position in the presenter.`
          : `pdfpc's metadata says the notes are on the ${xmp} of each page, but the pages are ${direction === "wide" ? "side by side" : "stacked"} halves with no notes page found; the pages are shown whole. Fix notesposition in \\usepackage{pdfpc}, or set the position in the presenter.`,
      ),
    );
    return shown ? { layout: { kind: "beamer-second-screen", position: shown, from: "geometry" }, issues } : none;
  }
  if (structure.position) {
    if (xmp === "none") issues.push(finding("NOTES_LAYOUT_MISMATCH", `pdfpc's metadata says the pages hold no notes, but every page is a slide with its notes page on the ${structure.position}; the ${structure.position} half is used as notes. Set notesposition=${structure.position} in \\usepackage{pdfpc}.`));
    return { layout: { kind: "beamer-second-screen", position: structure.position, from: "geometry" }, issues };
  }
  if (xmp === "none") return none;
  if (direction === "wide") {
    issues.push(finding("NOTES_LAYOUT_UNCERTAIN", "Every page is two slides wide, as Beamer's notes on a second screen make them, but no notes page was recognised; the right half is taken as the notes (pgfpages' default). If the slides are meant to be this wide, set the notes position to none in the presenter."));
    return { layout: { kind: "beamer-second-screen", position: "right", from: "geometry" }, issues };
  }
  issues.push(finding("NOTES_LAYOUT_UNCERTAIN", "Every page is two slides tall, as Beamer's notes on a second screen (bottom or top) make them, but no notes page was recognised, so the pages are shown whole. If one half holds notes, set the notes position in the presenter, or add \\usepackage[notesposition=bottom]{pdfpc}."));
  return none;
}
