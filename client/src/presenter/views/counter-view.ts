/**
 * @module client/presenter/views/counter-view
 * Where the talk is, in the presenter's footer: "4 / 6" by page label (pdfpc's and
 * Keynote's way of counting slides, not PDF pages), a dot per overlay step of the current
 * slide, the digits being typed for number + Enter, and the window's title.
 */
import { h, replace } from "../../lib/dom.ts";
import { positionOf, type DeckLayout } from "../deck-layout.ts";
import type { PresenterState } from "../state.ts";

export function slideName(layout: DeckLayout, page: number): string {
  const p = positionOf(layout, page);
  return p.steps > 1 ? `Slide ${p.label} of ${p.lastLabel}, step ${p.step} of ${p.steps}` : `Slide ${p.label} of ${p.lastLabel}`;
}

export function renderCounter(els: { counter: HTMLElement; steps: HTMLElement; entry: HTMLElement; prev: HTMLButtonElement; next: HTMLButtonElement }, layout: DeckLayout, state: PresenterState, title: string): void {
  const p = positionOf(layout, state.page);
  replace(els.counter, h("strong", {}, p.label), ` / ${p.lastLabel}`);
  els.counter.setAttribute("aria-label", slideName(layout, state.page));
  els.steps.hidden = p.steps <= 1;
  if (p.steps > 1) {
    replace(els.steps, ...Array.from({ length: p.steps }, (_, i) => h("span", { class: i < p.step ? "dot on" : "dot", "aria-hidden": "true" })));
    els.steps.setAttribute("aria-label", `step ${p.step} of ${p.steps}`);
  }
  const text = state.entry ? `Go to ${state.entry} ⏎` : (state.notice ?? "");
  els.entry.hidden = !text;
  els.entry.classList.toggle("is-notice", !state.entry && !!state.notice);
  replace(els.entry, text);
  els.prev.disabled = state.page <= 1;
  els.next.disabled = state.page >= layout.pageCount;
  document.title = `${p.label}/${p.lastLabel} · ${title} — deckhand`;
}
