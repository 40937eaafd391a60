/**
 * @module client/lib/fit
 * Size a slide frame to the largest box of the page's aspect ratio inside its container.
 */
/** The device pixel ratio slides are rendered at: the screen's, at most 3 (past that, pixels nobody sees). */
export function devicePixelRatioCapped(): number {
  return Math.min(window.devicePixelRatio || 1, 3);
}

export function fitBox(containerW: number, containerH: number, pageW: number, pageH: number): { w: number; h: number } {
  if (containerW <= 0 || containerH <= 0 || pageW <= 0 || pageH <= 0) return { w: 0, h: 0 };
  const scale = Math.min(containerW / pageW, containerH / pageH);
  return { w: Math.floor(pageW * scale), h: Math.floor(pageH * scale) };
}

export function sizeFrame(frame: HTMLElement, container: HTMLElement, page: { w: number; h: number }): { w: number; h: number } {
  const rect = container.getBoundingClientRect();
  const box = fitBox(rect.width, rect.height, page.w, page.h);
  frame.style.width = `${box.w}px`;
  frame.style.height = `${box.h}px`;
  return box;
}
