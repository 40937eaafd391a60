/**
 * @module pdf/page-labels
 * The label of every page, as the PDF's /PageLabels number tree gives it ("1", "2", "2", "3"
 * for a deck whose second slide has two overlays — what Beamer, Typst and Touying write).
 * Read through mupdf's own `Page.getLabel()`, which applies the ranges' styles, prefixes and
 * start values. The presenter groups consecutive equal labels into one slide, so labels it
 * cannot trust are replaced here:
 *
 * Beamer with pgfpages (`show notes on second screen`) writes labels that alternate `u:1`, `1`,
 * `u:2`, `2`… (hyperref's label of the logical page lands on the wrong physical page), which
 * pair pages up whatever the frames are. For those, the frames are counted from what Beamer
 * draws on every slide: its navigation symbols link to the first and last page of the current
 * frame (`Navigation<page>` targets), which gives each page's frame exactly; where they are
 * missing or inconsistent, every page is its own slide (page numbers). Never a label that would
 * make a key press do nothing. Browser-safe: the render worker calls it with its document.
 */
import type { PdfDoc, PdfObj } from "./mupdf-types.ts";

/** Number-tree entries read at most: a real deck has one range per frame or fewer. */
const MAX_LABEL_ENTRIES = 20_000;
/** Annotations read per page for navigation links: Beamer draws ~20. */
const MAX_PAGE_LINKS = 200;

/**
 * Labels for pages 1..pageCount (index 0 = page 1). A document without /PageLabels gets the
 * page numbers without loading a page (loading costs ~35 µs a page: 0.1 s at 3000 pages).
 * A page whose label cannot be read is labelled by its number.
 */
export function readPageLabels(doc: PdfDoc, pageCount: number): string[] {
  const numbers = () => Array.from({ length: pageCount }, (_, i) => String(i + 1));
  try {
    const tree = doc.getTrailer().get("Root", "PageLabels");
    if (tree.isNull()) return numbers();
    if (hasPgfpagesLabels(tree)) return beamerFrames(doc, pageCount) ?? numbers();
  } catch {
    return numbers();
  }
  const labels: string[] = [];
  for (let i = 0; i < pageCount; i++) {
    let label = "";
    try {
      const page = doc.loadPage(i);
      label = page.getLabel();
      page.destroy();
    } catch {
      // A damaged page keeps its number; assessPdf has refused decks with unreachable pages.
    }
    labels.push(label.trim() || String(i + 1));
  }
  return labels;
}

/** The label dictionaries of a /PageLabels number tree (Nums, and Kids iteratively, bounded). */
function labelEntries(tree: PdfObj): PdfObj[] {
  const out: PdfObj[] = [];
  const stack: PdfObj[] = [tree];
  let visited = 0;
  while (stack.length > 0 && out.length < MAX_LABEL_ENTRIES && visited++ < MAX_LABEL_ENTRIES) {
    const node = stack.pop() as PdfObj;
    if (!node.isDictionary()) continue;
    const nums = node.get("Nums");
    if (nums.isArray()) for (let i = 1; i < nums.length && out.length < MAX_LABEL_ENTRIES; i += 2) out.push(nums.get(i));
    const kids = node.get("Kids");
    if (kids.isArray()) for (let i = kids.length - 1; i >= 0; i--) stack.push(kids.get(i));
  }
  return out;
}

/**
 * pgfpages' tell: ranges whose prefix is a bare number with no numbering style, alternating
 * with decimal ranges (`<</P(1)>> <</S/D>> <</P(2)>> <</S/D/St 2>>`…: hyperref labels the
 * logical pages, slide and notes page, on the physical ones). qpdf's JSON shows those
 * prefixes as "u:1" — its mark of a Unicode string, not part of the label.
 */
export function hasPgfpagesLabels(tree: PdfObj): boolean {
  let pairs = 0;
  let expectPrefix = true;
  for (const entry of labelEntries(tree)) {
    if (!entry.isDictionary()) return false;
    const prefix = entry.get("P");
    const style = entry.get("S");
    const prefixOnly = prefix.isString() && /^(u:)?\d+$/.test(prefix.asString()) && style.isNull();
    const decimal = style.isName() && style.asName() === "D" && entry.get("P").isNull();
    if (expectPrefix ? !prefixOnly : !decimal) return false;
    if (!expectPrefix) pairs++;
    if (pairs >= 2) return true;
    expectPrefix = !expectPrefix;
  }
  return false;
}

/** The `Navigation<n>` page a link annotation goes to, "named" for a viewer action, or null. */
function linkTarget(annot: PdfObj): number | "named" | null {
  if (!annot.isDictionary()) return null;
  const subtype = annot.get("Subtype");
  if (!subtype.isName() || subtype.asName() !== "Link") return null;
  const action = annot.get("A");
  if (!action.isDictionary()) return null;
  const kind = action.get("S");
  if (kind.isName() && kind.asName() === "Named") return "named";
  const dest = action.get("D");
  if (!dest.isString()) return null;
  const m = /^Navigation(\d+)$/.exec(dest.asString());
  return m ? Number(m[1]) : null;
}

/**
 * The first and last page of the frame shown on page `number` (1-based), from Beamer's
 * navigation symbols: the slide symbol is three links (previous slide, the viewer's "go to
 * page", next slide); the frame symbol follows with four (end of the previous frame, start of
 * this frame, end of this frame, start of the next).
 */
function frameOfPage(page: PdfObj, number: number): { start: number; end: number } | null {
  const annots = page.get("Annots");
  if (!annots.isArray()) return null;
  const targets: (number | "named" | null)[] = [];
  for (let i = 0; i < Math.min(annots.length, MAX_PAGE_LINKS); i++) targets.push(linkTarget(annots.get(i)));
  for (let i = 1; i + 5 < targets.length; i++) {
    if (targets[i] !== "named" || typeof targets[i - 1] !== "number" || typeof targets[i + 1] !== "number") continue;
    const start = targets[i + 3];
    const end = targets[i + 4];
    if (typeof targets[i + 2] === "number" && typeof start === "number" && typeof end === "number" && typeof targets[i + 5] === "number" && start <= number && number <= end) return { start, end };
  }
  return null;
}

/**
 * Frame numbers as labels, when every page's navigation symbols say which frame it shows and
 * the frames tile the deck; null otherwise.
 */
function beamerFrames(doc: PdfDoc, pageCount: number): string[] | null {
  const labels: string[] = [];
  let frame = 0;
  let currentEnd = 0;
  for (let i = 0; i < pageCount; i++) {
    const number = i + 1;
    let found: { start: number; end: number } | null;
    try {
      found = frameOfPage(doc.findPage(i), number);
    } catch {
      return null;
    }
    if (!found) return null;
    if (found.start === number) {
      // A new frame must start right after the previous one ended.
      if (number !== currentEnd + 1) return null;
      frame++;
      currentEnd = found.end;
    } else if (found.end !== currentEnd || number > currentEnd) return null;
    labels.push(String(frame));
  }
  return currentEnd === pageCount ? labels : null;
}
