/**
 * @module client/live/panel-place
 * Where the Live and Questions panels open on the presenter screen: never over the current
 * slide — the speaker must still see what the projector shows. On a laptop screen the panel
 * docks at the outer edge of the current slide's pane and the slide is fitted into the rest of
 * the pane (smaller, whole); the next slide, the timer, the notes and both toolbars stay where
 * they were. Where the pane is too narrow to share (a phone, upright or on its side), the panel
 * takes the largest free part of the window beside or below the slide, above the footer's
 * Previous/Next. In a small window where no part is that free, the pane makes room all the
 * same when the slide stays a fair size beside the panel (a short window, the slide across its
 * width), else the panel takes a smaller free part (the side column of a small window on its
 * side), else the pane makes room whatever the slide keeps: the panel is never over the slide.
 * The box follows the pane (the layout editor moves it, a resize changes it).
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
  /** The panel's box (its height is a maximum: the panel scrolls inside it). */
  box: Rect;
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
/** A free part of the window the panel takes at ease: its code, QR codes and buttons fit. */
const MIN_FREE_WIDTH = 240;
const MIN_FREE_HEIGHT = 160;
/** The least free part the panel takes at all (its code on one line, the rest scrolls). */
const MIN_SMALL_WIDTH = 200;
const MIN_SMALL_HEIGHT = 140;
/** Docked where nothing is free at ease: the panel's share of the pane (at least MIN_FREE_WIDTH). */
const SQUEEZED_SHARE = 0.5;
/** The slide beside a squeezed panel is at least this wide, or a smaller free part is taken first. */
const MIN_SQUEEZED_SLIDE = 200;

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
  const dock = sideOnLeft ? "right" : "left";
  const docked = (w: number): Placement => {
    const left = dock === "left" ? Math.max(0, pane.left) : Math.min(window.width, pane.left + pane.width) - w;
    return { dock, box: { left, top, width: w, height: Math.max(0, paneBottom - top) } };
  };
  if (pane.width - width - MARGIN >= MIN_SLIDE_WIDTH && paneBottom - top >= MIN_FREE_HEIGHT) return docked(width);
  // The free parts of the window around the slide: below it, right of it, left of it.
  const free: Rect[] = [
    { left: MARGIN, top: pane.top + pane.height + MARGIN, width: window.width - 2 * MARGIN, height: bottom - (pane.top + pane.height) - 2 * MARGIN },
    { left: pane.left + pane.width + MARGIN, top: top, width: window.width - (pane.left + pane.width) - 2 * MARGIN, height: bottom - top - MARGIN },
    { left: MARGIN, top: top, width: pane.left - 2 * MARGIN, height: bottom - top - MARGIN },
  ];
  const largest = (w: number, h: number) => free.filter((r) => r.width >= w && r.height >= h).sort((a, b) => b.width * b.height - a.width * a.height)[0];
  const over = (r: Rect): Placement => ({ dock: null, box: { ...r, width: Math.min(r.width, MAX_WIDTH + 120) } });
  const roomy = largest(MIN_FREE_WIDTH, MIN_FREE_HEIGHT);
  if (roomy) return over(roomy);
  const squeezed = Math.round(Math.min(width, Math.max(MIN_FREE_WIDTH, pane.width * SQUEEZED_SHARE)));
  if (pane.width - squeezed - MARGIN >= MIN_SQUEEZED_SLIDE) return docked(squeezed);
  const small = largest(MIN_SMALL_WIDTH, MIN_SMALL_HEIGHT);
  return small ? over(small) : docked(squeezed);
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
 * now, with inline styles. Closing the panel (its `hidden`) gives the pane its room back.
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
    stage.style.setProperty("--dock-width", `${place.box.width}px`);
  } else undock(stage, panel);
  style.left = `${place.box.left}px`;
  style.top = `${place.box.top}px`;
  style.right = "auto";
  style.width = `${place.box.width}px`;
  style.maxHeight = `${place.box.height}px`;
  panel.dataset.placed = place.dock ? "dock" : "free";
}
