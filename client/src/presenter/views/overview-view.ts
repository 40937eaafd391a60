/**
 * @module client/presenter/views/overview-view
 * All slides in a grid, one per logical slide (its finished state, as pdfpc shows them),
 * driven from the keyboard: opening it focuses the current slide, arrow keys move in the
 * grid, Enter goes to the slide (Shift+Enter to its first overlay, as in pdfpc), Esc closes.
 * Thumbnails render only when they scroll into view. A slide hidden in pdfpc (every page of
 * it) is dimmed and says so — it can still be chosen here —, the slides after pdfpc's
 * end slide say they are backup, and a slide the last rehearsal ran long on is marked
 * (../../record/pace.ts longSlides).
 */
import { h } from "../../lib/dom.ts";
import { paint, type Renderer } from "../../lib/renderer.ts";
import { isHidden, slideIndexOf, type DeckLayout } from "../deck-layout.ts";
import { devicePixelRatioCapped } from "../../lib/fit.ts";
import type { PageSizes } from "./slide-view.ts";

/** CSS pixels a thumbnail is rendered at: the grid's column width. */
const THUMB_WIDTH = 280;

const NO_SLIDES: ReadonlySet<number> = new Set();

export class OverviewView {
  private built = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly grid: HTMLElement,
    private readonly go: (page: number) => void,
  ) {
    grid.addEventListener("keydown", (event) => this.onKey(event));
  }

  private buttons(): HTMLButtonElement[] {
    return Array.from(this.grid.querySelectorAll<HTMLButtonElement>("button.thumb"));
  }

  private build(layout: DeckLayout, renderer: Renderer, sizes: PageSizes) {
    this.built = true;
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        const canvas = entry.target as HTMLCanvasElement;
        void renderer.renderOnce(Number(canvas.dataset.page), THUMB_WIDTH * devicePixelRatioCapped(), 5).then((r) => {
          paint(canvas, r);
          canvas.dataset.painted = "true";
        }, () => {});
      }
    }, { root: this.root });
    for (const slide of layout.slides) {
      const canvas = h("canvas", { "data-page": slide.last, "aria-hidden": "true" });
      const size = sizes.get(slide.last);
      canvas.style.aspectRatio = `${size.w} / ${size.h}`;
      const button = h("button", { type: "button", class: "thumb", "data-first": slide.first, "data-last": slide.last }, canvas, h("span", { class: "thumb-num" }));
      button.addEventListener("click", (event) => this.go(event.shiftKey ? slide.first : slide.last));
      this.grid.append(h("li", {}, button));
      observer.observe(canvas);
    }
  }

  /** Show the grid with the current slide marked and focused, and the slides the rehearsal ran long on (`long`, by slide index). */
  open(layout: DeckLayout, renderer: Renderer, sizes: PageSizes, page: number, long: ReadonlySet<number> = NO_SLIDES): void {
    if (!this.built) this.build(layout, renderer, sizes);
    const current = slideIndexOf(layout, page);
    this.buttons().forEach((b, i) => {
      // Named here, not at build: the deck's pdfpc data (hidden pages, end slide) comes later.
      const slide = layout.slides[i]!;
      const steps = slide.last - slide.first + 1;
      let hidden = true;
      for (let p = slide.first; p <= slide.last && hidden; p++) hidden = isHidden(layout, p);
      const backup = layout.endSlide !== undefined && i > layout.endSlide;
      b.querySelector(".thumb-num")!.textContent = `Slide ${slide.label}` + (steps > 1 ? ` (${steps} steps)` : "") + (hidden ? " — hidden" : backup ? " — backup" : "") + (long.has(i) ? " — ran long in rehearsal" : "");
      b.parentElement!.classList.toggle("is-hidden", hidden);
      b.parentElement!.classList.toggle("is-long", long.has(i));
      b.parentElement!.classList.toggle("is-current", i === current);
      if (i === current) b.setAttribute("aria-current", "true");
      else b.removeAttribute("aria-current");
    });
    const button = this.buttons()[current];
    button?.scrollIntoView({ block: "center" });
    button?.focus();
  }

  /** Move focus in the grid: columns are counted from the laid-out rows. */
  private onKey(event: KeyboardEvent) {
    const buttons = this.buttons();
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    if (event.key === "Enter") {
      // Handled here rather than left to the button's click: one path in every engine, and
      // Shift+Enter (pdfpc: the slide's first overlay) carries its modifier.
      event.preventDefault();
      event.stopPropagation();
      const b = buttons[at]!;
      this.go(Number(event.shiftKey ? b.dataset.first : b.dataset.last));
      return;
    }
    const top = buttons[0]!.getBoundingClientRect().top;
    const columns = Math.max(1, buttons.findIndex((b) => b.getBoundingClientRect().top > top + 1) === -1 ? buttons.length : buttons.findIndex((b) => b.getBoundingClientRect().top > top + 1));
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns, ArrowUp: -columns, PageDown: columns, PageUp: -columns, Home: -at, End: buttons.length - 1 - at };
    const delta = moves[event.key];
    if (delta === undefined) return;
    event.preventDefault();
    event.stopPropagation();
    const target = buttons[Math.min(buttons.length - 1, Math.max(0, at + delta))];
    target?.focus();
    target?.scrollIntoView({ block: "nearest" });
  }
}
