/**
 * @module client/lib/deck-size
 * A deck's size in the words every screen uses: the presenter counts
 * slides by page label ("4 / 62"), so a Beamer deck of 74 PDF pages is "74 pages · 62 slides"
 * on the start page and in the library — never "74 slides" beside a presenter's "/ 62". A deck
 * whose every page is its own slide is just "12 slides".
 */
import { layoutFromLabels } from "../model/deck-layout.ts";

/**
 * How many slides `pages` pages make with these labels (as the presenter groups them); every
 * page its own slide when the deck has no labels (an empty list); null when not known yet.
 */
export function slidesOf(pages: number, labels: readonly string[] | null | undefined): number | null {
  if (!labels || !(pages > 0)) return null;
  if (labels.length === 0) return pages;
  return labels.length === pages ? layoutFromLabels(labels).slides.length : null;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "12 slides", "74 pages · 62 slides", or "74 pages" while the slides are not known. */
export function deckSize(pages: number, slides: number | null): string {
  if (slides === null) return plural(pages, "page");
  return slides === pages ? plural(slides, "slide") : `${plural(pages, "page")} · ${plural(slides, "slide")}`;
}
