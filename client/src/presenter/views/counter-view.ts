/**
 * @module client/presenter/views/counter-view
 * Where the talk is, in the presenter's footer: "4 / 6" by page label (pdfpc's and
 * Keynote's way of counting slides, not PDF pages) and, when a slide has several pages
 * (overlays), "page 5 / 8" under it — the start page and the library say "8 pages · 6 slides"
 * of the same deck —, a dot per overlay step of the current slide, the number being typed for
 * number + Enter (with the tool a lone digit picks if no Enter follows), and the window's title.
 */
import { h, replace } from "../../lib/dom.ts";
import { positionOf, type DeckLayout } from "../../model/deck-layout.ts";
import type { Mode, PresenterState } from "../state.ts";

const TOOL_NAMES: Record<Mode, string> = { normal: "Normal", pointer: "Pointer", pen: "Pen", eraser: "Eraser", spotlight: "Spotlight" };

/** The footer's prompt for a typed number: where Enter goes, and the tool it is otherwise. */
export function entryText(state: PresenterState): string {
  if (!state.entry) return "";
  const tool = state.entry.length === 1 && state.entryTool && state.entryTool !== state.mode ? ` · or ${TOOL_NAMES[state.entryTool]}` : "";
  return `Go to ${state.entry} ⏎${tool}`;
}

export function slideName(layout: DeckLayout, page: number): string {
  const p = positionOf(layout, page);
  return p.steps > 1 ? `Slide ${p.label} of ${p.lastLabel}, step ${p.step} of ${p.steps}` : `Slide ${p.label} of ${p.lastLabel}`;
}

/** Whether the deck has more PDF pages than slides (overlays): then both are named. */
function pagesDiffer(layout: DeckLayout): boolean {
  return layout.pageCount !== layout.slides.length;
}

/**
 * The card in place of the next-step preview when no step is left on this slide: what the
 * next click does — the next slide, or nothing on the deck's last slide (the next-slide box
 * says *End of deck* beside it).
 */
export function stepEndText(steps: number, lastSlide: boolean): string {
  if (steps <= 1) return "No build on this slide";
  return lastSlide ? "Last step — the end of the deck" : "Last step — Next goes to the next slide";
}

export function renderCounter(els: { counter: HTMLElement; steps: HTMLElement; entry: HTMLElement; prev: HTMLButtonElement; next: HTMLButtonElement }, layout: DeckLayout, state: PresenterState, title: string): void {
  const p = positionOf(layout, state.page);
  const pages = pagesDiffer(layout) ? ` (page ${state.page} of ${layout.pageCount})` : "";
  replace(els.counter, h("strong", {}, p.label), ` / ${p.lastLabel}`);
  els.counter.setAttribute("aria-label", slideName(layout, state.page) + pages);
  // The PDF page under the slide count (its own line; the counter's label already says it).
  const pageLine = document.getElementById("counter-pages");
  if (pageLine) {
    pageLine.hidden = !pages;
    pageLine.setAttribute("aria-hidden", "true");
    replace(pageLine, pages ? `page ${state.page} / ${layout.pageCount}` : "");
  }
  els.steps.hidden = p.steps <= 1;
  if (p.steps > 1) {
    replace(els.steps, ...Array.from({ length: p.steps }, (_, i) => h("span", { class: i < p.step ? "dot on" : "dot", "aria-hidden": "true" })));
    // A label needs a role to be allowed on a span (axe: aria-prohibited-attr): the dots are a picture.
    els.steps.setAttribute("role", "img");
    els.steps.setAttribute("aria-label", `step ${p.step} of ${p.steps}`);
  }
  const text = state.entry ? entryText(state) : (state.notice ?? "");
  els.entry.hidden = !text;
  els.entry.classList.toggle("is-notice", !state.entry && !!state.notice);
  replace(els.entry, text);
  els.prev.disabled = state.page <= 1;
  els.next.disabled = state.page >= layout.pageCount;
  document.title = `${p.label}/${p.lastLabel} · ${title} — deckhand`;
}
