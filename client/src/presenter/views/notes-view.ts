/**
 * @module client/presenter/views/notes-view
 * The speaker notes of the current page, at the size the presenter chose (pdfpc's +/-),
 * scrolled from the keyboard without changing slides.
 */
import { h, replace } from "../../lib/dom.ts";
import { renderNotes } from "../../lib/notes.ts";

/** Pixels one notes-scroll key moves: most of the visible box, keeping a line for context. */
function scrollStep(el: HTMLElement): number {
  return Math.max(40, el.clientHeight * 0.8);
}

export class NotesView {
  private page = -1;
  private source: string | undefined;

  constructor(private readonly el: HTMLElement) {}

  render(page: number, notes: string | undefined, scale: number): void {
    this.el.style.setProperty("--notes-scale", String(scale));
    if (page === this.page && notes === this.source) return;
    this.page = page;
    this.source = notes;
    if (notes && notes.trim()) replace(this.el, renderNotes(notes));
    else replace(this.el, h("p", { class: "muted notes-empty" }, "No notes for this slide."));
    this.el.scrollTop = 0;
  }

  scroll(direction: 1 | -1): void {
    this.el.scrollBy({ top: direction * scrollStep(this.el), behavior: "instant" as ScrollBehavior });
  }
}
