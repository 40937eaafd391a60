/**
 * @module client/model/deck-layout
 * Pages and logical slides. Beamer, Typst (Touying, Polylux) and PowerPoint exports give
 * several PDF pages per logical slide — overlays, the steps of a build — and mark them with
 * the same page label, or (a deck without labels) list them in a .pdfpc as forced overlays;
 * the render worker hands over one slide label per page with both applied (deck/slide-groups).
 * As pdfpc does, consecutive pages with one label are one slide: the counter names slides by
 * label, "next slide" skips the rest of a build, and a typed number goes to the slide with
 * that label. Pages with a `/Dur` advance by themselves (../presenter/auto-advance). Pure data, no DOM.
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
  /**
   * Pages the speaker hid in pdfpc (`.pdfpc` `pages[].hidden`): next, previous, ±10 and the
   * previews pass them by; the overview, "go to" and Shift+N / Shift+P still reach them.
   */
  hidden?: ReadonlySet<number>;
  /**
   * Index into `slides` of the talk's last slide (pdfpc's `endSlide`, pdfpc.sty's
   * EndUserSlide): the counter counts to it and End goes there; slides after it are backup.
   */
  endSlide?: number;
  /** Seconds a page with a `/Dur` stays before the presenter advances by itself (page → seconds). */
  durations?: Readonly<Record<number, number>>;
}

/**
 * The layout with what the deck's pdfpc data says about the talk: hidden pages and the end
 * slide (`endSlide` 1-based, counted in slides as pdfpc counts user slides). Out-of-range
 * values are dropped; page 1 is never hidden (pdfpc refuses to hide it too).
 */
export function withTalk(layout: DeckLayout, talk: { hidden?: readonly number[]; endSlide?: number }): DeckLayout {
  const hidden = new Set((talk.hidden ?? []).filter((p) => Number.isInteger(p) && p > 1 && p <= layout.pageCount));
  const end = talk.endSlide !== undefined && Number.isInteger(talk.endSlide) && talk.endSlide >= 1 ? Math.min(talk.endSlide, layout.slides.length) - 1 : undefined;
  const { hidden: _h, endSlide: _e, ...plain } = layout;
  return { ...plain, ...(hidden.size ? { hidden } : {}), ...(end !== undefined ? { endSlide: end } : {}) };
}

export function isHidden(layout: DeckLayout, page: number): boolean {
  return layout.hidden?.has(page) ?? false;
}

/**
 * The nearest page from `page` on (step +1) or back (step -1) that is not hidden, `page`
 * itself included; null when there is none that way (pdfpc's nearest_nonhidden).
 */
export function nearestShown(layout: DeckLayout, page: number, step: 1 | -1): number | null {
  for (let p = page; p >= 1 && p <= layout.pageCount; p += step) if (!isHidden(layout, p)) return p;
  return null;
}

/** The page Next goes to: the next page that is not hidden, or null at the end. */
export function nextShownPage(layout: DeckLayout, page: number): number | null {
  return nearestShown(layout, clampPage(layout, page) + 1, 1);
}

/** The page Previous goes to: the page before that is not hidden, or null at the start. */
export function previousShownPage(layout: DeckLayout, page: number): number | null {
  return nearestShown(layout, clampPage(layout, page) - 1, -1);
}

/** First and last page of slide `index` that are not hidden, or null when all are. */
function shownRange(layout: DeckLayout, index: number): { first: number; last: number } | null {
  const slide = layout.slides[index];
  if (!slide) return null;
  const first = nearestShown(layout, slide.first, 1);
  if (first === null || first > slide.last) return null;
  return { first, last: nearestShown(layout, slide.last, -1)! };
}

/** The nearest slide index from `index` on in direction `step` with a page shown, or null. */
function shownSlide(layout: DeckLayout, index: number, step: 1 | -1): number | null {
  for (let i = index; i >= 0 && i < layout.slides.length; i += step) if (shownRange(layout, i)) return i;
  return null;
}

/**
 * pdfpc's next10/prev10: ten slides on or back (clamped to the deck), the slide finished —
 * its last page that is not hidden, as pdfpc lands. A hidden slide counts, but is passed by
 * to the nearest shown one in the direction of travel. Null when there is nowhere to go.
 */
export function jumpSlides(layout: DeckLayout, page: number, by: number): number | null {
  const from = slideIndexOf(layout, page);
  const target = Math.min(Math.max(0, from + by), layout.slides.length - 1);
  const step = by >= 0 ? 1 : -1;
  const index = shownSlide(layout, target, step) ?? shownSlide(layout, target, step === 1 ? -1 : 1);
  if (index === null) return null;
  const last = shownRange(layout, index)!.last;
  return last === clampPage(layout, page) ? null : last;
}

/**
 * The page End goes to: the end slide finished (pdfpc's gotoLast); from there or past it,
 * the deck's last page (the backup slides' end). Without an end slide, the last page.
 */
export function endPage(layout: DeckLayout, page: number): number {
  const last = nearestShown(layout, layout.pageCount, -1) ?? layout.pageCount;
  if (layout.endSlide === undefined) return last;
  const end = shownRange(layout, shownSlide(layout, layout.endSlide, -1) ?? 0)?.last ?? last;
  return clampPage(layout, page) >= end ? last : end;
}

/** The page's `/Dur` in seconds, or null when it waits for the speaker. */
export function pageDuration(layout: DeckLayout, page: number): number | null {
  return layout.durations?.[page] ?? null;
}

/**
 * pdfpc's "next overlay" preview: the next step of the slide being shown (the page Next
 * brings when it stays on this slide), or null on a slide's last step. Steps that advance by
 * themselves (a `/Dur` above 0) are passed by, as pdfpc's next_in_overlay passes them: the
 * preview shows where the speaker's next press matters.
 */
export function nextStepPage(layout: DeckLayout, page: number): number | null {
  const slide = slideIndexOf(layout, page);
  for (let next = nextShownPage(layout, page); next !== null && slideIndexOf(layout, next) === slide; next = nextShownPage(layout, next)) {
    if (!((pageDuration(layout, next) ?? 0) > 0)) return next;
  }
  return null;
}

/**
 * Group pages by label. A page without a label (mupdf gives the page number then, but a PDF
 * may carry an empty one) is labelled by its number so it never merges with a neighbour.
 */
export function layoutFromLabels(labels: readonly string[], durations?: Readonly<Record<number, number>>): DeckLayout {
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
  const timed = durations && Object.keys(durations).length > 0 ? { durations } : {};
  return { pageCount: clean.length, labels: clean, slides, slideOfPage, ...timed };
}

/** A deck without page labels: every page its own slide, labelled by its number. */
export function plainLayout(pageCount: number, durations?: Readonly<Record<number, number>>): DeckLayout {
  return layoutFromLabels(Array.from({ length: Math.max(1, pageCount) }, (_, i) => String(i + 1)), durations);
}

/** The layout of an opened deck: its slide labels (page numbers when they do not fit) and its page durations. */
export function openedLayout(opened: { pageCount: number; labels: readonly string[]; durations?: Readonly<Record<number, number>> }): DeckLayout {
  return opened.labels.length === opened.pageCount ? layoutFromLabels(opened.labels, opened.durations) : plainLayout(opened.pageCount, opened.durations);
}

export function clampPage(layout: DeckLayout, page: number): number {
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.trunc(page)), Math.max(1, layout.pageCount));
}

export function slideIndexOf(layout: DeckLayout, page: number): number {
  return layout.slideOfPage[clampPage(layout, page) - 1] ?? 0;
}

/** First shown page of the slide after the one showing `page` (hidden ones passed by), or null at the last slide. */
export function nextSlideStart(layout: DeckLayout, page: number): number | null {
  const index = shownSlide(layout, slideIndexOf(layout, page) + 1, 1);
  return index === null ? null : shownRange(layout, index)!.first;
}

/** First shown page of the slide before the one showing `page` (hidden ones passed by), or null at the first slide. */
export function previousSlideStart(layout: DeckLayout, page: number): number | null {
  const index = shownSlide(layout, slideIndexOf(layout, page) - 1, -1);
  return index === null ? null : shownRange(layout, index)!.first;
}

/**
 * The page the next-slide preview shows: the last page of the next slide, its finished
 * state (pdfpc's default, `next-slide-first-overlay = false`); hidden pages and slides are
 * passed by, as Next passes them; null after the last slide.
 */
export function previewPage(layout: DeckLayout, page: number): number | null {
  const index = shownSlide(layout, slideIndexOf(layout, page) + 1, 1);
  return index === null ? null : shownRange(layout, index)!.last;
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
  /** Label of the talk's last slide (the end slide, else the deck's last): the counter reads "label / lastLabel". */
  lastLabel: string;
  /** Past the end slide: a backup slide. */
  backup: boolean;
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
    lastLabel: layout.slides[layout.endSlide ?? layout.slides.length - 1]!.label,
    backup: layout.endSlide !== undefined && index > layout.endSlide,
    step: clampPage(layout, page) - slide.first + 1,
    steps: slide.last - slide.first + 1,
    slideIndex: index,
    slideCount: layout.slides.length,
  };
}
