/**
 * @module client/live/panel-place
 * Where the live panel opens: over the current slide's pane — the one part of the presenter
 * window the speaker can spare while reading the panel, since the projector shows that very
 * slide — so the next slide, the timer, the notes and both toolbars stay in view. The box
 * follows the pane (the layout editor moves it left or right, a resize changes it); where the
 * pane is too small to hold a usable panel (a phone), the stylesheet's own placement applies.
 */

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Space kept between the panel and the pane's edges, so the pane's own frame still shows. */
const MARGIN = 8;
/** The panel's widest: the code, two QR codes side by side and a row of buttons. */
const MAX_WIDTH = 460;
/** Below this the panel's QR codes and buttons no longer fit side by side: leave it to the stylesheet. */
const MIN_WIDTH = 280;
/** Below this the panel would show little more than its head: leave it to the stylesheet. */
const MIN_HEIGHT = 220;

/** The panel's box (its height is a maximum: the panel scrolls inside it), or null for the stylesheet's placement. */
export function panelBox(pane: Rect, viewport: { width: number; height: number }): Rect | null {
  const top = Math.max(0, pane.top) + MARGIN;
  const bottom = Math.min(viewport.height, pane.top + pane.height) - MARGIN;
  const left = Math.max(0, pane.left) + MARGIN;
  const right = Math.min(viewport.width, pane.left + pane.width) - MARGIN;
  if (right - left < MIN_WIDTH || bottom - top < MIN_HEIGHT) return null;
  return { left, top, width: Math.min(MAX_WIDTH, right - left), height: bottom - top };
}

/** Put `panel` over `pane` now (inline styles), or hand it back to the stylesheet. */
export function placePanel(panel: HTMLElement, pane: HTMLElement): void {
  const r = pane.getBoundingClientRect();
  const box = panelBox({ left: r.left, top: r.top, width: r.width, height: r.height }, { width: window.innerWidth, height: window.innerHeight });
  const style = panel.style;
  if (!box) {
    for (const p of ["left", "top", "right", "width", "max-height"]) style.removeProperty(p);
    delete panel.dataset.placed;
    return;
  }
  style.left = `${box.left}px`;
  style.top = `${box.top}px`;
  style.right = "auto";
  style.width = `${box.width}px`;
  style.maxHeight = `${box.height}px`;
  panel.dataset.placed = "pane";
}
