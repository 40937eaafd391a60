/**
 * @module client/presenter/views/ink-paint
 * Strokes onto a canvas: perfect-freehand turns each stroke's points into the outline of a
 * pressure-shaped line (simulated from speed for a mouse), filled as one path. The outline is
 * computed once per stroke in PDF points and cached, so every screen — whatever its size or
 * zoom — paints the same shape by a transform. An exported video's frames are painted by this
 * same code on an OffscreenCanvas in a worker (client/export/picture-paint).
 */
import { getStroke } from "perfect-freehand";
import { pointTriples, type Rect, type Stroke } from "../ink.ts";

const outlines = new WeakMap<Stroke, Path2D>();

/** perfect-freehand's settings for a marker-like pen that still shows pressure. */
const FREEHAND = { thinning: 0.55, smoothing: 0.5, streamline: 0.4 } as const;

function outline(stroke: Stroke, last: boolean): Path2D {
  const cached = last ? outlines.get(stroke) : undefined;
  if (cached) return cached;
  const points = getStroke(pointTriples(stroke), { ...FREEHAND, size: stroke.width, simulatePressure: !!stroke.simulated, last });
  const path = new Path2D();
  if (points.length) {
    path.moveTo(points[0]![0]!, points[0]![1]!);
    for (let i = 1; i < points.length; i++) path.lineTo(points[i]![0]!, points[i]![1]!);
    path.closePath();
  }
  if (last) outlines.set(stroke, path);
  return path;
}

/**
 * Paint `strokes` seen through `view` (the page region on screen; the whole page unless
 * zoomed) into the `width`-pixel-wide box at (`x`, `y`) of `ctx`, over what is there.
 * `finished` is false for the stroke still being drawn.
 */
export function drawStrokes(ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D, strokes: readonly Stroke[], view: Rect, box: { x: number; y: number; width: number }, finished = true): void {
  if (!strokes.length || view.w <= 0) return;
  const scale = box.width / view.w;
  ctx.setTransform(scale, 0, 0, scale, box.x - view.x * scale, box.y - view.y * scale);
  for (const stroke of strokes) {
    ctx.fillStyle = stroke.color;
    ctx.fill(outline(stroke, finished));
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
}

/** Clear `canvas` and paint `strokes` seen through `view` over all of it (drawStrokes). */
export function paintStrokes(canvas: HTMLCanvasElement, strokes: readonly Stroke[], view: Rect, finished = true): void {
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  drawStrokes(ctx, strokes, view, { x: 0, y: 0, width: canvas.width }, finished);
}
