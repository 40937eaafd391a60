/**
 * @module client/presenter/gestures
 * Touch and wheel as slide changes, as pdfpc does with the wheel and as phones expect of a
 * swipe: left = next, right = previous; wheel down = next, up = previous. Only over the slide
 * panes, so the notes still scroll with the wheel and a finger; off by a setting.
 */

/** A swipe is a mostly horizontal move of at least this many CSS pixels… */
const SWIPE_MIN_PX = 50;
/** …done within this time (a slow drag is reading, not a swipe). */
const SWIPE_MAX_MS = 800;
/** Wheel travel that makes one step; a notched wheel gives ~100 per notch, a trackpad less. */
const WHEEL_STEP_PX = 60;
/** After a step the wheel rests this long: one trackpad fling is one slide, not ten. */
const WHEEL_REST_MS = 450;

/** A click this soon after a swipe is the swipe's own tap, not a "next". */
const CLICK_AFTER_SWIPE_MS = 600;

export type Step = (direction: "next" | "prev") => void;

export interface Gestures {
  /** Whether a swipe just ended (its trailing click must not also step). */
  swipedRecently(): boolean;
}

export function watchGestures(areas: HTMLElement[], enabled: () => boolean, step: Step): Gestures {
  let swipedAt = -Infinity;
  let start: { x: number; y: number; t: number } | null = null;
  let travel = 0;
  let restUntil = 0;
  for (const area of areas) {
    area.addEventListener("touchstart", (event) => {
      const touch = event.touches.length === 1 ? event.touches[0] : undefined;
      start = touch ? { x: touch.clientX, y: touch.clientY, t: performance.now() } : null;
    }, { passive: true });
    area.addEventListener("touchend", (event) => {
      const touch = event.changedTouches[0];
      const from = start;
      start = null;
      if (!from || !touch || !enabled()) return;
      const dx = touch.clientX - from.x;
      const dy = touch.clientY - from.y;
      if (performance.now() - from.t > SWIPE_MAX_MS || Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) < 1.5 * Math.abs(dy)) return;
      // The tap that ends a swipe must not also count as a click (click = next); some engines
      // send the click anyway, hence swipedRecently().
      event.preventDefault();
      swipedAt = performance.now();
      step(dx < 0 ? "next" : "prev");
    });
    area.addEventListener("wheel", (event) => {
      if (!enabled()) return;
      event.preventDefault();
      const now = performance.now();
      if (now < restUntil) return;
      const px = event.deltaMode === 1 ? event.deltaY * 40 : event.deltaMode === 2 ? event.deltaY * 400 : event.deltaY;
      travel += px;
      if (Math.abs(travel) < WHEEL_STEP_PX) return;
      step(travel > 0 ? "next" : "prev");
      travel = 0;
      restUntil = now + WHEEL_REST_MS;
    }, { passive: false });
  }
  return { swipedRecently: () => performance.now() - swipedAt < CLICK_AFTER_SWIPE_MS };
}
