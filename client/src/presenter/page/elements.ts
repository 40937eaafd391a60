/**
 * @module client/presenter/page/elements
 * The presenter window's elements (client/pages/present.html), looked up once, and the
 * notices shown above the stage.
 */
import { $, h } from "../../lib/dom.ts";

export const els = {
  title: $("#deck-title"),
  notices: $("#notices"),
  currentBox: $("#current-box"),
  currentFrame: $("#current-frame"),
  current: $("#current") as HTMLCanvasElement,
  mediaLayer: $("#media-layer"),
  blankCover: $("#blank-cover"),
  blankText: $("#blank-text"),
  nextBox: $("#next-box"),
  nextFrame: $("#next-frame"),
  next: $("#next") as HTMLCanvasElement,
  endCard: $("#end-card"),
  nextLabel: $("#next-label"),
  stepLabel: $("#step-label"),
  stepBox: $("#step-box"),
  stepFrame: $("#step-frame"),
  step: $("#step") as HTMLCanvasElement,
  stepEnd: $("#step-end"),
  counter: $("#counter"),
  steps: $("#steps"),
  autoAdvance: $("#auto-advance"),
  entry: $("#goto"),
  prev: $("#btn-prev") as HTMLButtonElement,
  nextBtn: $("#btn-next") as HTMLButtonElement,
  overview: $("#overview"),
  help: $("#help"),
  wheelSetting: $("#setting-wheel") as HTMLInputElement,
  stage: $("#main"),
  toolbox: $("#toolbox"),
  gotoPanel: $("#goto-panel") as HTMLFormElement,
  gotoInput: $("#goto-input") as HTMLInputElement,
  layoutEditor: $("#layout-editor"),
  questionsButton: $("#btn-questions"),
  talkPanel: $("#talk-panel"),
  timesPanel: $("#times-panel"),
  exportPanel: $("#export-panel"),
};

/** The counter's elements, as views/counter-view.ts takes them. */
export function counterEls() {
  return { counter: els.counter, steps: els.steps, entry: els.entry, prev: els.prev, next: els.nextBtn };
}

export function timerEls() {
  return { elapsed: $("#elapsed"), countdownBox: $("#countdown-box"), countdown: $("#countdown"), wallclock: $("#wallclock"), toggle: $("#btn-timer") as HTMLButtonElement };
}

/** A message for the speaker above the stage, with a button to put it away. */
export function notice(text: string, kind: "warn" | "info" = "info", id?: string): void {
  if (id) document.getElementById(id)?.remove();
  const el = h("div", { class: `notice notice-dismissable notice-${kind === "warn" ? "warn" : "ok"}`, role: "status", id }, h("span", {}, text));
  el.append(h("button", { type: "button", class: "btn btn-small btn-ghost", onclick: () => el.remove() }, "Dismiss"));
  els.notices.append(el);
}
