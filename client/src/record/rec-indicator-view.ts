/**
 * @module client/record/rec-indicator-view
 * The REC indicator beside the presenter's timer: a red REC (grey PAUSED), the recorded time
 * and the microphone's level, with Pause/Resume and Stop. It lives in the presenter window's
 * own markup and is drawn from the recorder only: nothing of it is ever sent to the audience
 * window, so the projector cannot show it.
 */
import { replace } from "../lib/dom.ts";
import { formatClock } from "../lib/format.ts";
import type { RecorderPhase } from "./recorder.ts";

export interface RecIndicatorEls {
  box: HTMLElement;
  label: HTMLElement;
  elapsed: HTMLElement;
  level: HTMLElement;
  levelBar: HTMLElement;
  pause: HTMLButtonElement;
  stop: HTMLButtonElement;
}

/**
 * Show the indicator for a phase, time and level (0–1, or null when the browser cannot measure
 * it: the bar then says so instead of showing silence); hidden while nothing records.
 */
export function renderRecIndicator(els: RecIndicatorEls, phase: RecorderPhase, elapsedMs: number, level: number | null, sound: boolean): void {
  const shown = phase !== "idle" && phase !== "starting";
  els.box.hidden = !shown;
  if (!shown) return;
  els.box.dataset.phase = phase;
  replace(els.label, phase === "paused" ? "PAUSED" : "REC");
  replace(els.elapsed, formatClock(elapsedMs / 1000));
  els.elapsed.dataset.ms = String(Math.round(elapsedMs));
  els.level.hidden = !sound;
  if (level === null) {
    els.level.dataset.level = "unknown";
    els.level.setAttribute("aria-valuenow", "0");
    els.level.setAttribute("aria-valuetext", "not measured by this browser");
    els.level.title = "This browser does not measure the microphone's level here; the sound is still recorded.";
    els.levelBar.style.transform = "scaleX(0)";
  } else {
    const percent = Math.round(Math.min(1, Math.max(0, level)) * 100);
    els.level.setAttribute("aria-valuenow", String(percent));
    els.level.removeAttribute("aria-valuetext");
    els.level.title = "";
    els.level.dataset.level = String(percent);
    els.levelBar.style.transform = `scaleX(${percent / 100})`;
  }
  els.pause.textContent = phase === "paused" ? "Resume" : "Pause";
  els.pause.disabled = phase === "stopping";
  els.stop.disabled = phase === "stopping";
}
