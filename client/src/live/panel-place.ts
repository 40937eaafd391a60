/**
 * @module client/live/panel-place
 * Where the Live and Questions panels open on the presenter screen: never over the current
 * slide — the speaker must still see what the projector shows. On a laptop screen the panel
 * docks at the outer edge of the current slide's pane and the slide is fitted into the rest of
 * the pane (smaller, whole); the next slide, the timer, the notes and both toolbars stay where
 * they were. Where the pane is too narrow to share (a phone, upright or on its side), the panel
 * takes the largest free part of the window beside or below the slide, above the footer's
 * Previous/Next. The box follows the pane (the layout editor moves it, a resize changes it).
 */

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Placement {
  /** The pane's side the panel docks on (the pane makes room for it), or null: over free space. */
  dock: "left" | "right" | null;
  /** The panel's box (its height is a maximum: the panel scrolls inside it), or null for the stylesheet's placement. */
  box: Rect | null;
}

/** Space between the panel and what is next to it. */
const MARGIN = 8;
/** The panel's widest: the code, two QR codes side by side and a row of buttons. */
const MAX_WIDTH = 440;
/** The panel's narrowest when docked: the QR codes and the buttons still fit. */
const MIN_WIDTH = 300;
/** The share of the pane a docked panel takes (between the two widths above). */
const DOCK_SHARE = 0.38;
/** The slide beside a docked panel is at least this wide, or the panel does not dock. */
const MIN_SLIDE_WIDTH = 280;
/** Below this the panel would show little more than its head: leave it to the stylesheet. */
const MIN_FREE_WIDTH = 240;
const MIN_FREE_HEIGHT = 160;

/**
 * Where the panel goes: `pane` is the current slide's pane, `window` the viewport with the
 * footer's top as its usable bottom, `sideOnLeft` whether the column of next slide, timer and
 * notes is left of the pane (the panel then docks on the pane's right, its outer edge).
 */
export function panelPlacement(pane: Rect, window: { width: number; height: number; bottom?: number }, sideOnLeft: boolean): Placement {
  const bottom = Math.min(window.height, window.bottom ?? window.height);
  const top = Math.max(0, pane.top);
  const paneBottom = Math.min(bottom, pane.top + pane.height);
  const width = Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, pane.width * DOCK_SHARE)));
  if (pane.width - width - MARGIN >= MIN_SLIDE_WIDTH && paneBottom - top >= MIN_FREE_HEIGHT) {
    const dock = sideOnLeft ? "right" : "left";
    const left = dock === "left" ? Math.max(0, pane.left) : Math.min(window.width, pane.left + pane.width) - width;
    return { dock, box: { left, top, width, height: paneBottom - top } };
  }
  // The free parts of the window around the slide: below it, right of it, left of it.
  const free: Rect[] = [
    { left: MARGIN, top: pane.top + pane.height + MARGIN, width: window.width - 2 * MARGIN, height: bottom - (pane.top + pane.height) - 2 * MARGIN },
    { left: pane.left + pane.width + MARGIN, top: top, width: window.width - (pane.left + pane.width) - 2 * MARGIN, height: bottom - top - MARGIN },
    { left: MARGIN, top: top, width: pane.left - 2 * MARGIN, height: bottom - top - MARGIN },
  ].filter((r) => r.width >= MIN_FREE_WIDTH && r.height >= MIN_FREE_HEIGHT);
  const best = free.sort((a, b) => b.width * b.height - a.width * a.height)[0];
  return { dock: null, box: best ? { ...best, width: Math.min(best.width, MAX_WIDTH + 120) } : null };
}

/** Panels already watched for closing (a closed panel gives the pane its room back). */
const watched = new WeakSet<HTMLElement>();

/** Give the pane its room back, if `panel` is the one docked there. */
function undock(stage: HTMLElement, panel: HTMLElement): void {
  if (stage.dataset.dockedBy !== panel.id) return;
  delete stage.dataset.dock;
  delete stage.dataset.dockedBy;
  stage.style.removeProperty("--dock-width");
}

/**
 * Put the open `panel` beside the current slide (`pane`: it makes room) or over free space,
 * now, with inline styles; or hand it back to the stylesheet. Closing the panel (its `hidden`)
 * gives the pane its room back.
 */
export function placePanel(panel: HTMLElement, pane: HTMLElement): void {
  placeNow(panel, pane);
  // Once more when the browser has laid the window out for what changed (a resize's toolbar
  // wrapping moves the pane after the observers ran); the same box costs nothing.
  requestAnimationFrame(() => placeNow(panel, pane));
}

function placeNow(panel: HTMLElement, pane: HTMLElement): void {
  const stage = pane.parentElement ?? pane;
  if (!watched.has(panel)) {
    watched.add(panel);
    new MutationObserver(() => {
      if (panel.hidden) undock(stage, panel);
    }).observe(panel, { attributes: true, attributeFilter: ["hidden"] });
  }
  if (panel.hidden) return undock(stage, panel);
  const r = pane.getBoundingClientRect();
  const footer = document.querySelector(".pfoot")?.getBoundingClientRect();
  const place = panelPlacement({ left: r.left, top: r.top, width: r.width, height: r.height }, { width: window.innerWidth, height: window.innerHeight, bottom: footer?.height ? footer.top : undefined }, stage.dataset.side === "left");
  const style = panel.style;
  if (place.dock) {
    stage.dataset.dock = place.dock;
    stage.dataset.dockedBy = panel.id;
    stage.style.setProperty("--dock-width", `${place.box!.width}px`);
  } else undock(stage, panel);
  if (!place.box) {
    for (const p of ["left", "top", "right", "width", "max-height"]) style.removeProperty(p);
    delete panel.dataset.placed;
    return;
  }
  style.left = `${place.box.left}px`;
  style.top = `${place.box.top}px`;
  style.right = "auto";
  style.width = `${place.box.width}px`;
  style.maxHeight = `${place.box.height}px`;
  panel.dataset.placed = place.dock ? "dock" : "free";
}
