/**
 * @module client/presenter/views/notes-view
 * The speaker notes of the current page, at the size the presenter chose (pdfpc's +/-),
 * scrolled from the keyboard without changing slides. With a notes layout (Beamer's notes on
 * a second screen) the notes may show as the picture of the page's notes half instead —
 * formulas and drawings survive, as in pdfpc — fitted to the pane's width.
 */
import { h, replace } from "../../lib/dom.ts";
import { renderNotes } from "../../lib/notes.ts";
import type { NotesFormat } from "../../../../src/deck/sidecar/types.ts";
import { paint } from "../../lib/renderer.ts";
import type { RenderResult } from "../../worker/protocol.ts";

/** Pixels one notes-scroll key moves: most of the visible box, keeping a line for context. */
function scrollStep(el: HTMLElement): number {
  return Math.max(40, el.clientHeight * 0.8);
}

export class NotesView {
  private page = -1;
  private source: string | undefined;
  private format: NotesFormat | undefined;

  constructor(private readonly el: HTMLElement) {}

  /** A picture being shown (its page), so a late render of another page is not painted. */
  private picturePage = 0;

  /** Show `page`'s notes, written in `format` (markdown when not said). */
  render(page: number, notes: string | undefined, scale: number, format: NotesFormat = "markdown"): void {
    this.el.style.setProperty("--notes-scale", String(scale));
    if (page === this.page && notes === this.source && format === this.format) return;
    this.page = page;
    this.source = notes;
    this.format = format;
    this.picturePage = 0;
    delete this.el.dataset.notes;
    if (notes && notes.trim()) replace(this.el, renderNotes(notes, format));
    else replace(this.el, h("p", { class: "muted notes-empty" }, "No notes for this slide."));
    this.el.scrollTop = 0;
  }

  /** The pane's width in device pixels: what a picture of the notes half is rendered at. */
  pictureWidth(): number {
    return Math.max(160, this.el.clientWidth) * Math.min(2, devicePixelRatio || 1);
  }

  /** Show the notes half of `page` as a picture (`render` resolves to it, or null when it failed). */
  async picture(page: number, render: Promise<RenderResult | null>): Promise<void> {
    this.page = page;
    this.source = undefined;
    this.picturePage = page;
    const result = await render;
    if (this.picturePage !== page) return;
    if (!result) {
      replace(this.el, h("p", { class: "muted notes-empty" }, "The notes half of this page could not be drawn."));
      return;
    }
    const canvas = h("canvas", { class: "notes-picture", role: "img", "aria-label": "The notes half of the page, as a picture" }) as HTMLCanvasElement;
    paint(canvas, result);
    replace(this.el, canvas);
    this.el.dataset.notes = "picture";
    this.el.scrollTop = 0;
  }

  /** Forget what is shown, so the next render or picture paints again (the layout changed). */
  reset(): void {
    this.page = -1;
    this.source = undefined;
    this.format = undefined;
    this.picturePage = 0;
  }

  scroll(direction: 1 | -1): void {
    this.el.scrollBy({ top: direction * scrollStep(this.el), behavior: "instant" as ScrollBehavior });
  }
}
