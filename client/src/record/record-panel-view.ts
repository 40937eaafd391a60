/**
 * @module client/record/record-panel-view
 * The presenter's *Record* panel, markup only (./record-control.ts owns the behaviour): what
 * to record (a talk or a rehearsal), the sound (a microphone, or none: the timeline only),
 * whether the talk timer starts too, the room left in this browser, and Start; while a
 * recording runs, its state with Pause/Resume and Stop. In the presenter window only.
 */
import { h } from "../lib/dom.ts";
import { formatClock } from "../lib/format.ts";
import type { MicrophoneChoice } from "./microphone.ts";
import type { RecorderPhase, RecordingKind } from "./recorder.ts";

/** The value of the sound choice that records no sound. */
export const NO_SOUND = "none";

export interface PanelModel {
  phase: RecorderPhase;
  elapsedMs: number;
  kind: RecordingKind;
  microphones: readonly MicrophoneChoice[];
  /** A device id, "" for the browser's default, or NO_SOUND. */
  sound: string;
  /** This page may ask for a microphone at all (https or localhost). */
  soundPossible: boolean;
  startTimer: boolean;
  /** "Room for about 9 hours of recording in this browser", or null while unknown. */
  room: string | null;
  /** A refusal or a note for the speaker. */
  message: { text: string; kind: "warn" | "info" } | null;
}

export interface PanelHandlers {
  kind(kind: RecordingKind): void;
  sound(value: string): void;
  startTimer(on: boolean): void;
  start(): void;
  pause(): void;
  resume(): void;
  stop(): void;
}

function radio(name: string, value: string, checked: boolean, label: string, onPick: () => void): HTMLElement {
  const input = h("input", { type: "radio", name, value, id: `${name}-${value}` }) as HTMLInputElement;
  input.checked = checked;
  input.addEventListener("change", () => {
    if (input.checked) onPick();
  });
  return h("label", { class: "setting", for: `${name}-${value}` }, input, ` ${label}`);
}

/**
 * The sound choice's options for this model, in place (the list arrives after the panel
 * opened: the panel is not drawn again for it, so a click on Start is never lost to a redraw).
 */
export function fillSoundChoice(select: HTMLSelectElement, m: Pick<PanelModel, "microphones" | "sound" | "soundPossible">): void {
  const option = (value: string, label: string) => {
    const el = h("option", { value }, label) as HTMLOptionElement;
    el.selected = m.sound === value;
    return el;
  };
  const options: HTMLOptionElement[] = [];
  if (m.soundPossible) {
    options.push(option("", "The browser's default microphone"));
    for (const mic of m.microphones) options.push(option(mic.deviceId, mic.label));
  }
  options.push(option(NO_SOUND, "No sound: the slides, ink and pointer only"));
  select.replaceChildren(...options);
  // A remembered microphone that is not plugged in now: the default is chosen instead.
  if (!options.some((o) => o.selected)) options[0]!.selected = true;
}

function idleView(m: PanelModel, on: PanelHandlers): (HTMLElement | null)[] {
  const select = h("select", { id: "record-sound" }) as HTMLSelectElement;
  fillSoundChoice(select, m);
  select.addEventListener("change", () => on.sound(select.value));
  const timer = h("input", { type: "checkbox", id: "record-timer" }) as HTMLInputElement;
  timer.checked = m.startTimer;
  timer.addEventListener("change", () => on.startTimer(timer.checked));
  const starting = m.phase === "starting";
  return [
    h("p", { class: "muted" }, "Records your voice and everything the projector shows — slides, ink, pointer, questions and polls — not the screen. Kept in this browser with the deck: play it back or save it as a video from the library."),
    h("fieldset", { class: "record-kind" }, h("legend", { class: "label" }, "Record"), radio("record-kind", "talk", m.kind === "talk", "The talk", () => on.kind("talk")), radio("record-kind", "rehearsal", m.kind === "rehearsal", "A rehearsal", () => on.kind("rehearsal"))),
    h("label", { class: "label", for: "record-sound" }, "Sound"),
    select,
    m.soundPossible ? null : h("p", { class: "muted setting-hint" }, "A microphone can be used only over https or on this computer (localhost)."),
    h("label", { class: "setting" }, timer, " Start the talk timer too"),
    h("div", { class: "actions" }, h("button", { type: "button", class: "btn btn-primary", id: "record-start", disabled: starting, onclick: () => on.start() }, starting ? "Starting…" : "Start recording")),
    // Below Start: it is filled in after the panel opens, and must not move Start under a click.
    h("p", { class: "muted", id: "record-room" }, m.room ?? ""),
  ];
}

function runningView(m: PanelModel, on: PanelHandlers): (HTMLElement | null)[] {
  const paused = m.phase === "paused";
  const stopping = m.phase === "stopping";
  return [
    h("p", { class: "record-state", "data-phase": m.phase }, paused ? "Paused at " : stopping ? "Stopping at " : "Recording — ", formatClock(m.elapsedMs / 1000)),
    h("p", { class: "muted" }, "The projector never shows that it is recorded. Stop keeps the recording in the library."),
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", class: "btn", id: "record-pause", disabled: stopping, onclick: () => (paused ? on.resume() : on.pause()) }, paused ? "Resume" : "Pause"),
      h("button", { type: "button", class: "btn btn-primary", id: "record-stop", disabled: stopping, onclick: () => on.stop() }, "Stop"),
    ),
  ];
}

/** The panel's body for this model. */
export function recordPanelBody(m: PanelModel, on: PanelHandlers): (HTMLElement | null)[] {
  const body = m.phase === "idle" || m.phase === "starting" ? idleView(m, on) : runningView(m, on);
  if (m.message) body.push(h("p", { class: `key-status record-message is-${m.message.kind}`, id: "record-message", role: m.message.kind === "warn" ? "alert" : "status" }, m.message.text));
  return body;
}
