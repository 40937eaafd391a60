/**
 * @module client/presenter/ink
 * Ink as plain data and the geometry the tools need: a stroke is a colour, a width and its
 * points (x, y, pressure) in PDF points from the page's top-left, rounded so a stroke stays
 * small in IndexedDB and in every message to the audience. Pure; no DOM.
 */

export interface Point {
  x: number;
  y: number;
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Stroke {
  id: string;
  color: string;
  /** Nominal width in PDF points (perfect-freehand's `size`). */
  width: number;
  /** Flat [x, y, pressure, x, y, pressure, …]; pressure 0..1. */
  points: number[];
  /** The device gave no pressure (a mouse): the renderer simulates it from speed. */
  simulated?: boolean;
}

/** Points are kept to a tenth of a PDF point (1/720 inch): finer than any screen shows. */
const round1 = (v: number) => Math.round(v * 10) / 10;
const round2 = (v: number) => Math.round(v * 100) / 100;

/** A stroke point from an input sample; pressure 0 (a hovering pen) reads as the default. */
export function samplePoint(x: number, y: number, pressure: number | undefined): [number, number, number] {
  const p = pressure && pressure > 0 ? Math.min(1, pressure) : 0.5;
  return [round1(x), round1(y), round2(p)];
}

/** Append samples, skipping a repeat of the last point (a mouse at rest still sends moves). */
export function appendPoints(points: readonly number[], samples: readonly (readonly [number, number, number])[]): number[] {
  const out = points.slice();
  for (const [x, y, p] of samples) {
    const n = out.length;
    if (n >= 3 && out[n - 3] === x && out[n - 2] === y) continue;
    out.push(x, y, p);
  }
  return out;
}

/** Triples of a stroke as perfect-freehand wants them. */
export function pointTriples(stroke: Stroke): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let i = 0; i + 2 < stroke.points.length; i += 3) out.push([stroke.points[i]!, stroke.points[i + 1]!, stroke.points[i + 2]!]);
  return out;
}

function distanceToSegment(p: Point, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len = dx * dx + dy * dy;
  const t = len ? Math.max(0, Math.min(1, ((p.x - ax) * dx + (p.y - ay) * dy) / len)) : 0;
  return Math.hypot(p.x - (ax + t * dx), p.y - (ay + t * dy));
}

/** Whether an eraser of radius `r` at `p` touches the stroke (its centre line plus half its width). */
export function touches(stroke: Stroke, p: Point, r: number): boolean {
  const reach = r + stroke.width / 2;
  const pts = stroke.points;
  if (pts.length < 6) return pts.length >= 3 && Math.hypot(p.x - pts[0]!, p.y - pts[1]!) <= reach;
  for (let i = 0; i + 5 < pts.length; i += 3) {
    if (distanceToSegment(p, pts[i]!, pts[i + 1]!, pts[i + 3]!, pts[i + 4]!) <= reach) return true;
  }
  return false;
}

/** Smallest zoom region, as a fraction of the page: past 8× a slide shows nothing legible. */
const MIN_ZOOM_FRACTION = 1 / 8;

/**
 * The region actually shown for a selected one: grown to the page's aspect ratio (so the
 * frame keeps its size on every screen), at least 1/8 of the page, and inside the page.
 */
export function fitZoom(selected: Rect, page: { w: number; h: number }): Rect {
  const aspect = page.w / page.h;
  let w = Math.max(Math.abs(selected.w), page.w * MIN_ZOOM_FRACTION);
  let h = Math.max(Math.abs(selected.h), page.h * MIN_ZOOM_FRACTION);
  if (w / h > aspect) h = w / aspect;
  else w = h * aspect;
  w = Math.min(w, page.w);
  h = Math.min(h, page.h);
  const cx = Math.min(selected.x, selected.x + selected.w) + Math.abs(selected.w) / 2;
  const cy = Math.min(selected.y, selected.y + selected.h) + Math.abs(selected.h) / 2;
  const x = Math.min(Math.max(0, cx - w / 2), page.w - w);
  const y = Math.min(Math.max(0, cy - h / 2), page.h - h);
  return { x: round1(x), y: round1(y), w: round1(w), h: round1(h) };
}

/** The region around a point at `factor`× (a click instead of a drag while choosing a zoom). */
export function zoomAround(p: Point, factor: number, page: { w: number; h: number }): Rect {
  const w = page.w / factor;
  const h = page.h / factor;
  return fitZoom({ x: p.x - w / 2, y: p.y - h / 2, w, h }, page);
}

/** A short unique id for a stroke (undo and the audience's drawing cache key on it). */
export function strokeId(now: number, seq: number): string {
  return `${now.toString(36)}-${seq.toString(36)}`;
}

/** Strokes read back from storage: anything malformed is dropped, never drawn. */
export function parseStrokes(value: unknown): Stroke[] {
  if (!Array.isArray(value)) return [];
  return value.filter((s): s is Stroke => {
    const v = s as Partial<Stroke> | null;
    return !!v && typeof v.id === "string" && typeof v.color === "string" && /^#[0-9a-f]{6}$/i.test(v.color) && Number.isFinite(v.width) && Array.isArray(v.points) && v.points.length % 3 === 0 && v.points.every(Number.isFinite);
  });
}
