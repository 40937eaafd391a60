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
import { devicePixelRatioCapped } from "../../lib/fit.ts";
import { paintStrokes } from "./ink-paint.ts";

export interface OverlayInput {
  mode: Mode;
  overlays: Overlays;
  ink: readonly Stroke[];
}

/** Write a data attribute only when it changes: each write restyles the page (pointer rates). */
export function setData(el: HTMLElement, key: string, value: string): void {
  if (el.dataset[key] !== value) el.dataset[key] = value;
}

const written = new WeakMap<HTMLElement, Record<string, string>>();

/** Set inline styles, skipping the ones that already have the value (kept here, not read back). */
function setStyle(el: HTMLElement, styles: Record<string, string>): void {
  const last = written.get(el) ?? {};
  for (const [key, value] of Object.entries(styles)) {
    if (last[key] === value) continue;
    last[key] = value;
    el.style.setProperty(key, value);
  }
  written.set(el, last);
}

export class OverlayView {
  private readonly inkCanvas: HTMLCanvasElement;
  private readonly liveCanvas: HTMLCanvasElement;
  private readonly laser: HTMLElement;
  private readonly spotlight: HTMLElement;
  private last: { input: OverlayInput; page: { w: number; h: number } } | null = null;
  private frameSize: { w: number; h: number } | null = null;
  private painted: { ink: readonly Stroke[] | null; live: Stroke | null; view: string; size: string } = { ink: null, live: null, view: "", size: "" };

  /**
   * `drawLaser` false: the presenter's own window aims with the mouse cursor (a crosshair) and
   * leaves the red dot to the audience. A moving element there — or a custom cursor image —
   * is a frame the presenter's window renders on the main thread it shares with the audience
   * window, and it delayed the audience's dot from 10.6 to 18 ms median (bench/pointer.ts).
   */
  constructor(private readonly frame: HTMLElement, private readonly mediaLayer: HTMLElement | null, before: Element | null = null, private readonly drawLaser = true) {
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
    new ResizeObserver(([entry]) => {
      this.frameSize = entry ? { w: entry.contentRect.width, h: entry.contentRect.height } : null;
      this.repaint();
    }).observe(frame);
  }

  /** The region of the page on screen: the zoom, or the whole page. */
  static view(overlays: Overlays, page: { w: number; h: number }): Rect {
    return overlays.zoom ?? { x: 0, y: 0, w: page.w, h: page.h };
  }

  render(input: OverlayInput, page: { w: number; h: number }): void {
    this.last = { input, page };
    const { overlays, mode } = input;
    const view = OverlayView.view(overlays, page);
    // The frame's size from the ResizeObserver: reading it here would force a layout at
    // pointer rates (and the audience shares the main thread with the presenter).
    this.frameSize ??= { w: this.frame.clientWidth, h: this.frame.clientHeight };
    const frameW = this.frameSize.w;
    const frameH = this.frameSize.h;
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
    const laser = !!p && mode === "pointer" && this.drawLaser;
    if (this.laser.hidden === laser) this.laser.hidden = !laser;
    // Only what changed is written: each style write restyles, at pointer rates.
    if (laser) setStyle(this.laser, { width: `${2 * r}px`, height: `${2 * r}px`, transform: `translate(${px - r}px, ${py - r}px)` });
    const spot = !!p && mode === "spotlight";
    if (this.spotlight.hidden === spot) this.spotlight.hidden = !spot;
    if (spot) setStyle(this.spotlight, { background: `radial-gradient(circle at ${px}px ${py}px, transparent ${r}px, rgb(0 0 0 / 0.72) ${r + 1.5}px)` });
    setData(this.frame, "zoomed", String(!!overlays.zoom));
    if (this.mediaLayer) {
      // The media follow the zoom: the layer is the page, scaled and moved like the slide.
      const s = page.w / view.w;
      setStyle(this.mediaLayer, { transform: overlays.zoom ? `scale(${s}) translate(${(-view.x / page.w) * 100}%, ${(-view.y / page.h) * 100}%)` : "" });
    }
    setData(this.frame, "ink", String(input.ink.length));
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
