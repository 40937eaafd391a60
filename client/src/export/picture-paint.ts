/**
 * @module client/export/picture-paint
 * One frame of an exported video: the projector's picture at an instant, drawn on an
 * OffscreenCanvas the way the audience window draws it — the slide letterboxed on black (or
 * the zoomed region, rendered sharp by mupdf), the page's ink and the stroke being drawn (by
 * the window's own stroke painter), the laser dot, the spotlight, the question or poll, the join card, reactions
 * floating, and a black or white screen over all of it (black means black). The slide's
 * pixels come from the caller (the render worker), so this module draws and waits for nothing.
 */
import { fitBox } from "../lib/fit.ts";
import type { Rect } from "../presenter/ink.ts";
import { drawStrokes } from "../presenter/views/ink-paint.ts";
import type { Picture } from "../record/timeline.ts";
import { paintJoinCard, paintPoll, paintQuestion } from "./card-paint.ts";
import { floatPose, type Float } from "./float-track.ts";

type Ctx = OffscreenCanvasRenderingContext2D;

/** The slide's picture for a frame: `image` shows `view` (the zoom, or the whole page) of a page of size `page`. */
export interface SlidePixels {
  image: CanvasImageSource;
  page: { w: number; h: number };
  view: Rect;
}

/** Where the slide goes: the largest box of the page's shape, centred (the audience window's fit). */
export function slideBox(page: { w: number; h: number }, width: number, height: number): Rect {
  const { w, h } = fitBox(width, height, page.w, page.h);
  return { x: Math.floor((width - w) / 2), y: Math.floor((height - h) / 2), w, h };
}

/** The region of the page on screen: the zoom, or the whole page (the overlay view's rule). */
export function viewOf(picture: Picture, page: { w: number; h: number }): Rect {
  return picture.state?.overlays.zoom ?? { x: 0, y: 0, w: page.w, h: page.h };
}

/** The laser's look: `.laser` in client/styles/presenter.css, a radial gradient over a circle of radius r. */
function paintLaser(ctx: Ctx, x: number, y: number, r: number): void {
  // CSS's `radial-gradient(circle, …)` in a 2r box reaches the box's corner: r√2.
  const g = ctx.createRadialGradient(x, y, 0, x, y, r * Math.SQRT2);
  g.addColorStop(0, "#fff");
  g.addColorStop(0.18, "#fff");
  g.addColorStop(0.3, "#ff2d2d");
  g.addColorStop(0.62, "rgb(255 45 45 / 0.55)");
  g.addColorStop(0.72, "rgb(255 45 45 / 0)");
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.fill();
}

/** The spotlight: the slide dimmed (`rgb(0 0 0 / 0.72)`) but for a clear circle. */
function paintSpotlight(ctx: Ctx, box: Rect, x: number, y: number, r: number): void {
  ctx.save();
  ctx.beginPath();
  ctx.rect(box.x, box.y, box.w, box.h);
  ctx.arc(x, y, r, 0, 2 * Math.PI, true);
  ctx.fillStyle = "rgb(0 0 0 / 0.72)";
  ctx.fill("evenodd");
  ctx.restore();
}

/** `.reaction-float`: the emoji at 4vmin, red where no colour font draws it, with a soft shadow. */
function paintFloats(ctx: Ctx, floats: readonly Float[], t: number, W: number, H: number): void {
  const size = Math.min(Math.max(25.6, (4 * Math.min(W, H)) / 100), 48);
  ctx.save();
  ctx.textAlign = "left";
  ctx.textBaseline = "bottom";
  ctx.fillStyle = "#e11d48";
  ctx.shadowColor = "rgb(0 0 0 / 0.55)";
  ctx.shadowBlur = 0.15 * size;
  for (const float of floats) {
    const pose = floatPose(float, t);
    if (!pose) continue;
    ctx.globalAlpha = pose.opacity;
    ctx.font = `${size * pose.scale}px "Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji", sans-serif`;
    ctx.fillText(float.emoji, float.x * W, H - pose.rise * 0.7 * H);
  }
  ctx.restore();
}

export class PicturePainter {
  readonly canvas: OffscreenCanvas;
  private readonly ctx: Ctx;

  constructor(readonly width: number, readonly height: number) {
    this.canvas = new OffscreenCanvas(width, height);
    this.ctx = this.canvas.getContext("2d", { alpha: false })!;
  }

  /** Draw `picture` at time `t` (for the floats), over `slide`'s pixels (null: nothing rendered yet, black). */
  paint(picture: Picture, slide: SlidePixels | null, floats: readonly Float[], t: number): void {
    const { ctx, width: W, height: H } = this;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    ctx.fillStyle = "#000";
    ctx.fillRect(0, 0, W, H);
    const state = picture.state;
    if (state && slide) {
      const box = slideBox(slide.page, W, H);
      ctx.imageSmoothingEnabled = true;
      ctx.imageSmoothingQuality = "high";
      ctx.drawImage(slide.image, box.x, box.y, box.w, box.h);
      const view = slide.view;
      // The ink, then the stroke being drawn, straight onto the frame (no layers: one frame's
      // fills of cached outlines cost less than two full-size canvases kept and copied).
      ctx.save();
      ctx.beginPath();
      ctx.rect(box.x, box.y, box.w, box.h);
      ctx.clip();
      drawStrokes(ctx, state.ink, view, { x: box.x, y: box.y, width: box.w });
      if (state.overlays.live) drawStrokes(ctx, [state.overlays.live], view, { x: box.x, y: box.y, width: box.w }, false);
      ctx.restore();
      const p = state.overlays.pointer;
      if (p) {
        const k = box.w / view.w;
        const x = box.x + (p.x - view.x) * k;
        const y = box.y + (p.y - view.y) * k;
        const r = Math.max(2, p.r * k);
        if (state.mode === "pointer") paintLaser(ctx, x, y, r);
        else if (state.mode === "spotlight") paintSpotlight(ctx, box, x, y, r);
      }
    }
    if (picture.talk.question) paintQuestion(ctx, picture.talk.question, W, H);
    if (picture.talk.poll) paintPoll(ctx, picture.talk.poll, W, H);
    if (picture.joinCard) paintJoinCard(ctx, picture.joinCard, W, H);
    if (floats.length) paintFloats(ctx, floats, t, W, H);
    if (state && state.blank !== "none") {
      ctx.fillStyle = state.blank === "white" ? "#fff" : "#000";
      ctx.fillRect(0, 0, W, H);
    }
  }
}
