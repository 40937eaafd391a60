/**
 * @module client/presenter/slide-input
 * The pointer on the presenter's current slide, turned into stage-tool actions: moves are
 * the laser pointer or the spotlight; pen and eraser strokes (every coalesced sample, with
 * its pressure when the device gives one); a drag or a click picking the zoom region after
 * `z`. Screen positions become PDF points through the region on screen (the zoom, if any).
 * Normal mode is left to the page (a click is "next").
 */
import type { ActionName } from "./actions.ts";
import type { Rect } from "./ink.ts";
import type { PresenterState } from "./state.ts";

export interface SlideInputDeps {
  frame: HTMLElement;
  /** The rectangle drawn while choosing a zoom region. */
  zoomBox: HTMLElement;
  state(): PresenterState;
  /** The current page's size in PDF points. */
  pageSize(): { w: number; h: number };
  dispatch(name: ActionName, arg?: unknown): void;
  /** Told the epoch time of the input event behind each pointer action (latency metric). */
  inputAt(epochMs: number): void;
}

interface Sample {
  x: number;
  y: number;
  pressure?: number;
  hasPressure?: boolean;
}

export function watchSlideInput(deps: SlideInputDeps): void {
  const { frame, zoomBox } = deps;
  let drawing: number | null = null;
  let zoomFrom: { x: number; y: number; cx: number; cy: number } | null = null;

  const view = (): Rect => deps.state().overlays.zoom ?? { x: 0, y: 0, ...deps.pageSize() };
  const toPage = (e: PointerEvent): Sample => {
    const rect = frame.getBoundingClientRect();
    const v = view();
    const sample: Sample = { x: v.x + ((e.clientX - rect.left) / rect.width) * v.w, y: v.y + ((e.clientY - rect.top) / rect.height) * v.h };
    // A mouse reports 0.5 while pressed and no real pressure; pens and touch do.
    if (e.pointerType !== "mouse") {
      sample.pressure = e.pressure;
      sample.hasPressure = true;
    }
    return sample;
  };
  const stamp = (e: Event) => deps.inputAt(performance.timeOrigin + e.timeStamp);

  frame.addEventListener("pointerdown", (e) => {
    const s = deps.state();
    if (s.panel !== "none" || e.button !== 0) return;
    if (s.zoomSelect) {
      e.preventDefault();
      frame.setPointerCapture(e.pointerId);
      const p = toPage(e);
      zoomFrom = { x: p.x, y: p.y, cx: e.clientX, cy: e.clientY };
      return;
    }
    if (s.mode !== "pen" && s.mode !== "eraser") return;
    e.preventDefault();
    frame.setPointerCapture(e.pointerId);
    drawing = e.pointerId;
    stamp(e);
    deps.dispatch("strokeStart", toPage(e));
  });

  frame.addEventListener("pointermove", (e) => {
    if (zoomFrom) {
      const rect = frame.getBoundingClientRect();
      const x = Math.min(zoomFrom.cx, e.clientX) - rect.left;
      const y = Math.min(zoomFrom.cy, e.clientY) - rect.top;
      zoomBox.hidden = false;
      zoomBox.style.transform = `translate(${x}px, ${y}px)`;
      zoomBox.style.width = `${Math.abs(e.clientX - zoomFrom.cx)}px`;
      zoomBox.style.height = `${Math.abs(e.clientY - zoomFrom.cy)}px`;
      return;
    }
    if (drawing === e.pointerId) {
      stamp(e);
      // Every sample the device gave since the last event: smooth strokes at any frame rate.
      const events = typeof e.getCoalescedEvents === "function" ? e.getCoalescedEvents() : [];
      deps.dispatch("strokeMove", (events.length ? events : [e]).map(toPage));
      return;
    }
    const mode = deps.state().mode;
    if (mode === "pointer" || mode === "spotlight") {
      stamp(e);
      deps.dispatch("pointer", toPage(e));
    }
  });

  const end = (e: PointerEvent) => {
    if (zoomFrom) {
      const p = toPage(e);
      const from = zoomFrom;
      zoomFrom = null;
      zoomBox.hidden = true;
      // The press and release of the drag also make a click, which would step the talk (a
      // zoom on any slide but the last moved on and lost the zoom): swallow that one click.
      const swallow = (click: Event) => {
        click.stopImmediatePropagation();
        click.preventDefault();
      };
      frame.addEventListener("click", swallow, { capture: true, once: true });
      setTimeout(() => frame.removeEventListener("click", swallow, { capture: true }), 0);
      deps.dispatch("zoomTo", { x: Math.min(from.x, p.x), y: Math.min(from.y, p.y), w: Math.abs(p.x - from.x), h: Math.abs(p.y - from.y) });
      return;
    }
    if (drawing !== e.pointerId) return;
    drawing = null;
    stamp(e);
    deps.dispatch("strokeEnd");
  };
  frame.addEventListener("pointerup", end);
  frame.addEventListener("pointercancel", end);
  frame.addEventListener("pointerleave", (e) => {
    if (drawing !== null || zoomFrom) return;
    const mode = deps.state().mode;
    if (mode === "pointer" || mode === "spotlight") {
      stamp(e);
      deps.dispatch("pointer", null);
    }
  });
}
