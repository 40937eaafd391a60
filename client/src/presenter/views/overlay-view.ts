/**
 * @module client/presenter/views/overlay-view
 * What the stage tools draw over a slide, the same in the presenter's current slide and the
 * audience window: the page's ink and the stroke being drawn (two canvases, so a moving pen
 * repaints only its own stroke), the laser dot, the spotlight's dimmed page with its circle,
 * and the zoom — the media layer follows the zoomed region. Positions are PDF points from the
 * page's top-left, mapped onto the frame through the region on screen.
 */
import type { Rect, Stroke } from "../ink.ts";
import type { Mode, Overlays } from "../state.ts";
import { devicePixelRatioCapped } from "./slide-view.ts";
import { paintStrokes } from "./ink-paint.ts";

export interface OverlayInput {
  mode: Mode;
  overlays: Overlays;
  ink: readonly Stroke[];
}

export class OverlayView {
  private readonly inkCanvas: HTMLCanvasElement;
  private readonly liveCanvas: HTMLCanvasElement;
  private readonly laser: HTMLElement;
  private readonly spotlight: HTMLElement;
  private last: { input: OverlayInput; page: { w: number; h: number } } | null = null;
  private painted: { ink: readonly Stroke[] | null; live: Stroke | null; view: string; size: string } = { ink: null, live: null, view: "", size: "" };

  constructor(private readonly frame: HTMLElement, private readonly mediaLayer: HTMLElement | null, before: Element | null = null) {
    const make = <K extends keyof HTMLElementTagNameMap>(tag: K, cls: string) => {
      const el = document.createElement(tag);
      el.className = cls;
      el.setAttribute("aria-hidden", "true");
      frame.insertBefore(el, before);
      return el;
    };
    this.inkCanvas = make("canvas", "ink-layer");
    this.liveCanvas = make("canvas", "ink-layer ink-live");
    this.spotlight = make("div", "spotlight");
    this.laser = make("div", "laser");
    this.spotlight.hidden = true;
    this.laser.hidden = true;
    new ResizeObserver(() => this.repaint()).observe(frame);
  }

  /** The region of the page on screen: the zoom, or the whole page. */
  static view(overlays: Overlays, page: { w: number; h: number }): Rect {
    return overlays.zoom ?? { x: 0, y: 0, w: page.w, h: page.h };
  }

  render(input: OverlayInput, page: { w: number; h: number }): void {
    this.last = { input, page };
    const { overlays, mode } = input;
    const view = OverlayView.view(overlays, page);
    const frameW = this.frame.clientWidth;
    const frameH = this.frame.clientHeight;
    const k = frameW / view.w;
    this.sizeCanvases(frameW, frameH);
    const viewKey = `${view.x},${view.y},${view.w},${view.h}`;
    const sizeKey = `${this.inkCanvas.width}x${this.inkCanvas.height}`;
    const moved = viewKey !== this.painted.view || sizeKey !== this.painted.size;
    if (moved || input.ink !== this.painted.ink) paintStrokes(this.inkCanvas, input.ink, view);
    if (moved || overlays.live !== this.painted.live) paintStrokes(this.liveCanvas, overlays.live ? [overlays.live] : [], view, false);
    this.painted = { ink: input.ink, live: overlays.live, view: viewKey, size: sizeKey };

    const p = overlays.pointer;
    const px = p ? (p.x - view.x) * k : 0;
    const py = p ? (p.y - view.y) * k : 0;
    const r = p ? Math.max(2, p.r * k) : 0;
    this.laser.hidden = !(p && mode === "pointer");
    if (!this.laser.hidden) {
      this.laser.style.width = this.laser.style.height = `${2 * r}px`;
      this.laser.style.transform = `translate(${px - r}px, ${py - r}px)`;
    }
    this.spotlight.hidden = !(p && mode === "spotlight");
    if (!this.spotlight.hidden) this.spotlight.style.background = `radial-gradient(circle at ${px}px ${py}px, transparent ${r}px, rgb(0 0 0 / 0.72) ${r + 1.5}px)`;
    this.frame.dataset.zoomed = String(!!overlays.zoom);
    if (this.mediaLayer) {
      // The media follow the zoom: the layer is the page, scaled and moved like the slide.
      const s = page.w / view.w;
      this.mediaLayer.style.transform = overlays.zoom ? `scale(${s}) translate(${(-view.x / page.w) * 100}%, ${(-view.y / page.h) * 100}%)` : "";
    }
    this.frame.dataset.ink = String(input.ink.length);
  }

  private sizeCanvases(w: number, h: number) {
    const dpr = devicePixelRatioCapped();
    const cw = Math.max(1, Math.round(w * dpr));
    const ch = Math.max(1, Math.round(h * dpr));
    for (const c of [this.inkCanvas, this.liveCanvas]) {
      if (c.width !== cw || c.height !== ch) {
        c.width = cw;
        c.height = ch;
      }
    }
  }

  private repaint() {
    if (!this.last) return;
    this.painted = { ink: null, live: null, view: "", size: "" };
    this.render(this.last.input, this.last.page);
  }
}
