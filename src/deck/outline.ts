/**
 * @module deck/outline
 * The PDF's outline — its bookmarks: Beamer's sections and subsections, the slide titles a
 * PowerPoint or Keynote export writes — flattened to entries with their title, the page they
 * open and their depth. An exported recording titles its chapters from it. Browser-safe;
 * never throws (a deck without an outline, or with a broken one, has none).
 */
import type { PdfDoc } from "./mupdf-types.ts";

export interface OutlineEntry {
  title: string;
  /** The page it opens, 1-based. */
  page: number;
  /** 0 for a top-level entry, 1 for its children, … */
  depth: number;
}

/** Entries read at most: a real outline has one per slide or fewer; a hostile one stops here. */
const MAX_ENTRIES = 10_000;
/** Deeper nesting than this is no table of contents. */
const MAX_DEPTH = 16;
/** A title longer than this is cut (a chapter name, not a paragraph). */
const MAX_TITLE = 200;

type Item = { title?: string; page?: number; down?: Item[] };

/** The outline's entries in document order, each naming a page of the deck. */
export function readOutline(doc: PdfDoc, pageCount: number): OutlineEntry[] {
  let items: Item[] | null;
  try {
    items = doc.loadOutline();
  } catch {
    return [];
  }
  const out: OutlineEntry[] = [];
  const visit = (list: readonly Item[], depth: number) => {
    for (const item of list) {
      if (out.length >= MAX_ENTRIES) return;
      const title = (item.title ?? "").replace(/\s+/g, " ").trim().slice(0, MAX_TITLE);
      const page = item.page;
      if (title && typeof page === "number" && Number.isInteger(page) && page >= 0 && page < pageCount) out.push({ title, page: page + 1, depth });
      if (item.down && depth + 1 < MAX_DEPTH) visit(item.down, depth + 1);
    }
  };
  visit(items ?? [], 0);
  return out;
}
