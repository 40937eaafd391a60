/**
 * @module client/presenter/deck-layout
 * Pages and logical slides. Beamer, Typst (Touying, Polylux) and PowerPoint exports give
 * several PDF pages per logical slide — overlays, the steps of a build — and mark them with
 * the same page label. As pdfpc does, consecutive pages with one label are one slide: the
 * counter names slides by label, "next slide" skips the rest of a build, and a typed number
 * goes to the slide with that label. Pure data, no DOM.
 */

/** One logical slide: a run of consecutive pages (1-based, inclusive) sharing a label. */
export interface SlideGroup {
  label: string;
  first: number;
  last: number;
}

export interface DeckLayout {
  pageCount: number;
  /** Label of each page, index 0 = page 1. */
  labels: string[];
  slides: SlideGroup[];
  /** Index into `slides` of each page, index 0 = page 1. */
  slideOfPage: number[];
}

/**
 * Group pages by label. A page without a label (mupdf gives the page number then, but a PDF
 * may carry an empty one) is labelled by its number so it never merges with a neighbour.
 */
export function layoutFromLabels(labels: readonly string[]): DeckLayout {
  const clean = labels.map((label, i) => (label.trim() ? label.trim() : String(i + 1)));
  const slides: SlideGroup[] = [];
  const slideOfPage: number[] = [];
  clean.forEach((label, i) => {
    const page = i + 1;
    const last = slides[slides.length - 1];
    if (last && last.label === label && last.last === page - 1) last.last = page;
    else slides.push({ label, first: page, last: page });
    slideOfPage.push(slides.length - 1);
  });
  return { pageCount: clean.length, labels: clean, slides, slideOfPage };
}

/** A deck without page labels: every page its own slide, labelled by its number. */
export function plainLayout(pageCount: number): DeckLayout {
  return layoutFromLabels(Array.from({ length: Math.max(1, pageCount) }, (_, i) => String(i + 1)));
}

export function clampPage(layout: DeckLayout, page: number): number {
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.trunc(page)), Math.max(1, layout.pageCount));
}

export function slideIndexOf(layout: DeckLayout, page: number): number {
  return layout.slideOfPage[clampPage(layout, page) - 1] ?? 0;
}

/** First page of the slide after the one showing `page`, or null at the last slide. */
export function nextSlideStart(layout: DeckLayout, page: number): number | null {
  return layout.slides[slideIndexOf(layout, page) + 1]?.first ?? null;
}

/** First page of the slide before the one showing `page`, or null at the first slide. */
export function previousSlideStart(layout: DeckLayout, page: number): number | null {
  return layout.slides[slideIndexOf(layout, page) - 1]?.first ?? null;
}

/**
 * The page the next-slide preview shows: the last page of the next slide, its finished
 * state (pdfpc's default, `next-slide-first-overlay = false`); null after the last slide.
 */
export function previewPage(layout: DeckLayout, page: number): number | null {
  return layout.slides[slideIndexOf(layout, page) + 1]?.last ?? null;
}

/** The first page whose slide carries `label` (compared as typed, trimmed), or null. */
export function pageForLabel(layout: DeckLayout, label: string): number | null {
  const wanted = label.trim();
  if (!wanted) return null;
  const exact = layout.slides.find((s) => s.label === wanted);
  if (exact) return exact.first;
  // "04" typed for the label "4": compare numbers when both sides are numbers.
  if (/^\d+$/.test(wanted)) return layout.slides.find((s) => /^\d+$/.test(s.label) && Number(s.label) === Number(wanted))?.first ?? null;
  return null;
}

export interface Position {
  /** Label of the current slide. */
  label: string;
  /** Label of the last slide: the counter reads "label / lastLabel". */
  lastLabel: string;
  /** 1-based step within the slide's overlays, and how many it has. */
  step: number;
  steps: number;
  slideIndex: number;
  slideCount: number;
}

export function positionOf(layout: DeckLayout, page: number): Position {
  const index = slideIndexOf(layout, page);
  const slide = layout.slides[index]!;
  return {
    label: slide.label,
    lastLabel: layout.slides[layout.slides.length - 1]!.label,
    step: clampPage(layout, page) - slide.first + 1,
    steps: slide.last - slide.first + 1,
    slideIndex: index,
    slideCount: layout.slides.length,
  };
}
