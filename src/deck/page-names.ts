/**
 * @module deck/page-names
 * How the check report names a page for people. The conventions (`notes-slide-{N}.json`,
 * a .pdfpc's `idx`, page annotations) count PDF pages, but in a deck with builds — Beamer
 * overlays, Typst/Touying animations — several pages are one slide with one label, and the
 * presenter counts slides by label. "Slide 14" for the third step of slide 10 sent authors
 * to the wrong slide, so such a deck's pages are named by both: "page 14 (slide 10)". A deck
 * whose every page is its own slide, labelled by its number, keeps "slide 14". Browser-safe.
 */

/** Whether any two pages share a label or a label differs from its page number: page ≠ slide. */
export function pagesAreNotSlides(labels: readonly string[]): boolean {
  return labels.some((label, i) => label !== String(i + 1));
}

/**
 * A page as the reader counts it: "page 14 (slide 10)" where pages and slides differ,
 * "slide 14" where they do not (or the label is unknown). Lower-case; capitalise at a
 * sentence's start.
 */
export function pageName(page: number, labels: readonly string[]): string {
  const label = labels[page - 1];
  if (label === undefined || !pagesAreNotSlides(labels)) return `slide ${page}`;
  return `page ${page} (slide ${label})`;
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A finding's message with its page named by page and slide label: "slide 14" and "page 14"
 * (the number of the finding's own page) become "page 14 (slide 10)". Other numbers, file
 * names (`notes-slide-14.json`) and pages outside the deck are left as they are.
 */
export function nameSlidesIn(message: string, page: number | undefined, labels: readonly string[]): string {
  if (page === undefined || labels[page - 1] === undefined || !pagesAreNotSlides(labels)) return message;
  const name = pageName(page, labels);
  return message.replace(new RegExp(`\\b(slide|page) ${page}\\b(?! \\(slide )`, "gi"), (word) => (word[0] === word[0]!.toUpperCase() ? capitalise(name) : name));
}
