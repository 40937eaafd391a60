/**
 * @module deck/page-geometry
 * Where things are on a PDF page, in points: a page's box (CropBox, else MediaBox, inherited;
 * US Letter when neither can be read), an annotation's /Rect, and whether two rectangles
 * overlap. Browser-safe: raw objects in, numbers out.
 */
import type { MediaRect, PageBox } from "./sidecar/types.ts";
import type { PdfObj } from "./mupdf-types.ts";

/** US Letter, for a page whose box cannot be read. */
export const FALLBACK_BOX: PageBox & { x0: number; y1: number } = { width: 612, height: 792, x0: 0, y1: 792 };

export function pageBox(page: PdfObj): PageBox & { x0: number; y1: number } {
  for (const key of ["CropBox", "MediaBox"]) {
    const box = readRect(page.getInheritable(key));
    if (box && box.x1 - box.x0 > 0 && box.y1 - box.y0 > 0) return { width: box.x1 - box.x0, height: box.y1 - box.y0, x0: box.x0, y1: box.y1 };
  }
  return FALLBACK_BOX;
}

export function overlaps(a: MediaRect, b: MediaRect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

export function readRect(value: PdfObj): { x0: number; y0: number; x1: number; y1: number } | null {
  if (!value.isArray() || value.length !== 4) return null;
  const n: number[] = [];
  for (let i = 0; i < 4; i++) {
    const item = value.get(i);
    if (!item.isNumber()) return null;
    const v = item.asNumber();
    if (!Number.isFinite(v)) return null;
    n.push(v);
  }
  const [a, b, c, d] = n as [number, number, number, number];
  return { x0: Math.min(a, c), y0: Math.min(b, d), x1: Math.max(a, c), y1: Math.max(b, d) };
}
