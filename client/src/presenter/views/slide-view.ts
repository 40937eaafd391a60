/**
 * @module client/presenter/views/slide-view
 * One slide on a canvas: sized to the page's final aspect ratio before anything is rendered
 * (a skeleton the size of the slide, never a 300×150 blank), then painted sharp at the
 * frame's device pixels. The canvas carries the slide's text alternative: its label and the
 * text mupdf finds on the page.
 */
import { devicePixelRatioCapped, sizeFrame } from "../../lib/fit.ts";
import { paint, type Renderer } from "../../lib/renderer.ts";
import type { Clip } from "../../worker/protocol.ts";

export interface PageSizes {
  get(page: number): { w: number; h: number };
  set(page: number, size: { w: number; h: number }): void;
}

/** Page sizes known so far; unknown pages are guessed from page 1 (decks rarely mix sizes). */
export function pageSizes(first: { w: number; h: number }): PageSizes {
  const sizes = new Map<number, { w: number; h: number }>([[1, first]]);
  return {
    get: (page) => sizes.get(page) ?? sizes.get(1)!,
    set: (page, size) => void sizes.set(page, size),
  };
}

export class SlideView {
  private token = 0;
  /** The show() running now: a resize waits for it instead of cutting it short. */
  private inflight: Promise<number | null> | null = null;
  page = 0;
  /** The page a picture handed over from the claim shows until mupdf's own render (see prepaint). */
  private prepainted = 0;
  /** The region shown (a zoom, rendered sharp by mupdf); null = the whole page. */
  zoom: Clip | null = null;

  constructor(
    readonly frame: HTMLElement,
    private readonly box: HTMLElement,
    readonly canvas: HTMLCanvasElement,
    private readonly renderer: () => Renderer | null,
    private readonly sizes: () => PageSizes | null,
    private readonly priority = 100,
  ) {}

  /** Size the frame for `page` at once (the skeleton); returns its CSS box. */
  size(page: number): { w: number; h: number } {
    const sizes = this.sizes();
    if (!sizes) return { w: 0, h: 0 };
    const box = sizeFrame(this.frame, this.box, sizes.get(page));
    if (this.frame.dataset.state === "loading") this.frame.dataset.state = "skeleton";
    return box;
  }

  /**
   * Show `page`: skeleton now, sharp pixels when the worker has them. Resolves with the
   * device-pixel width rendered at, or null when another page was asked for meanwhile.
   */
  show(page: number, label: string): Promise<number | null> {
    const running = this.render(page, label);
    this.inflight = running;
    void running.finally(() => {
      if (this.inflight === running) this.inflight = null;
    });
    return running;
  }

  private async render(page: number, label: string): Promise<number | null> {
    const mine = ++this.token;
    const zoom = this.zoom;
    if (page !== this.page) {
      this.page = page;
      this.frame.dataset.state = page === this.prepainted ? "prepainted" : "skeleton";
      this.canvas.setAttribute("aria-label", label);
    }
    const renderer = this.renderer();
    const sizes = this.sizes();
    if (!renderer || !sizes) return null;
    const box = this.size(page);
    const width = box.w * devicePixelRatioCapped();
    const clip = zoom ?? undefined;
    const result = await renderer.render(page, width, this.priority, clip).catch(() => null);
    if (mine !== this.token || !result) return null;
    sizes.set(page, { w: result.w, h: result.h });
    const fitted = sizeFrame(this.frame, this.box, result);
    const exactWidth = fitted.w * devicePixelRatioCapped();
    let final = result;
    if (Math.abs(exactWidth - result.image.width) > 2) {
      // This page has another size than guessed: render again at the exact width.
      final = (await renderer.render(page, exactWidth, this.priority, clip).catch(() => null)) ?? result;
      if (mine !== this.token) return null;
    }
    paint(this.canvas, final);
    this.prepainted = 0;
    this.frame.dataset.state = "painted";
    this.frame.dataset.page = String(page);
    this.frame.dataset.zoom = zoom ? `${zoom.x},${zoom.y},${zoom.w},${zoom.h}` : "";
    return exactWidth;
  }

  /**
   * Paint `image`, a picture of `page` made elsewhere (lib/first-slide), while the worker
   * has not rendered it yet: only over the skeleton, only unzoomed, and only when it has at
   * least the frame's device pixels (scaled down it stays sharp; scaled up it would blur).
   * The next show() of the page replaces it with mupdf's render at the exact size.
   */
  prepaint(page: number, image: HTMLImageElement, label: string): boolean {
    const state = this.frame.dataset.state;
    if ((this.page !== 0 && this.page !== page) || this.zoom || (state !== "skeleton" && state !== "loading")) return false;
    const box = this.size(page);
    const w = Math.round(box.w * devicePixelRatioCapped());
    const h = Math.round(box.h * devicePixelRatioCapped());
    if (w <= 0 || h <= 0 || image.naturalWidth + 2 < w) return false;
    this.canvas.width = w;
    this.canvas.height = h;
    const ctx = this.canvas.getContext("2d", { alpha: false });
    if (!ctx) return false;
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = "high";
    ctx.drawImage(image, 0, 0, w, h);
    this.prepainted = page;
    this.canvas.setAttribute("aria-label", label);
    this.frame.dataset.state = "prepainted";
    this.frame.dataset.page = String(page);
    return true;
  }

  /** Add the page's own text to the canvas's label once the worker has read it. */
  describe(page: number, label: string): void {
    void this.renderer()?.text(page).then((text) => {
      if (this.page === page) this.canvas.setAttribute("aria-label", text ? `${label}: ${text}` : label);
    }, () => {});
  }

  /**
   * Repaint the current page at a new size (after a resize). A show() still running is let
   * finish first — cutting it short would drop what its caller does after the paint (media,
   * metrics) — and if a newer one started meanwhile, that one renders at the new size anyway.
   */
  async relayout(label: string): Promise<void> {
    const running = this.inflight;
    if (running) {
      await running.catch(() => null);
      if (this.inflight) return;
    }
    if (this.page) await this.show(this.page, label);
  }

  /** Show another region of the page (or the whole page): repaint when it changed. */
  setZoom(zoom: Clip | null, label: string): void {
    const same = zoom === this.zoom || (!!zoom && !!this.zoom && zoom.x === this.zoom.x && zoom.y === this.zoom.y && zoom.w === this.zoom.w && zoom.h === this.zoom.h);
    if (same) return;
    this.zoom = zoom;
    if (this.page) void this.show(this.page, label);
  }

  clear(): void {
    this.token++;
    this.page = 0;
  }

  /**
   * Size the frame for `page` with no slide to show in it — a card over it says why (the last
   * slide, the last step) — and drop any render on its way. The frame stands still: a skeleton
   * left under the card would shimmer for as long as the card is up, a style recalculation every
   * frame (an idle presenter on a deck with builds kept a third of a core busy in Chromium, both
   * cores in WebKit).
   */
  card(page: number): void {
    this.clear();
    this.size(page);
    this.frame.dataset.state = "card";
  }

  /**
   * Blank the canvas now and drop any render on its way (the notes layout changed: what is
   * painted, or about to be, may be another split of the page). The page stays; show() paints it.
   */
  wipe(): void {
    this.token++;
    const ctx = this.canvas.getContext("2d", { alpha: false });
    if (ctx) {
      ctx.fillStyle = "#000";
      ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    }
    this.frame.dataset.state = "skeleton";
  }
}
