/**
 * @module client/record/record-control
 * The presenter's *Record* control: the button (and its key) opens the panel
 * (./record-panel-view.ts) where the speaker chooses a talk or a rehearsal, a microphone or
 * none, and whether the talk timer starts too; Start asks the browser for the microphone (its
 * own prompt) and starts the recorder (./recorder.ts). While recording, the REC indicator by
 * the timer (./rec-indicator-view.ts) shows the time, the input level, Pause/Resume and Stop.
 * After a reload, a recording left unfinished is offered to continue or to keep
 * (./resume-offer-view.ts). Everything here is in the presenter window; the projector is
 * never told.
 *
 * For other parts of the presenter (the pace): `recorder` is the Recorder (`subscribe` to its
 * phases, `onFinished` for each recording kept), `start(options, startTimer)` starts one as the
 * panel does, and `choose(kind)` preselects the panel's talk/rehearsal choice.
 */
import { h, replace } from "../lib/dom.ts";
import { formatClock } from "../lib/format.ts";
import { placePanel } from "../live/panel-place.ts";
import type { RecordingStore } from "../storage/recording-store.ts";
import type { RecordingRecord } from "../storage/schema.ts";
import { interruptedRecordings } from "./continuation.ts";
import { listMicrophones, microphoneAvailable, rememberedMicrophone, rememberMicrophone, type MicrophoneChoice } from "./microphone.ts";
import { renderRecIndicator, type RecIndicatorEls } from "./rec-indicator-view.ts";
import { fillSoundChoice, NO_SOUND, recordPanelBody, type PanelHandlers, type PanelModel } from "./record-panel-view.ts";
import type { Recorder, RecordingKind, RecordOptions } from "./recorder.ts";
import { resumeOffer } from "./resume-offer-view.ts";
import { ASSUMED_BYTES_PER_SECOND, estimateStorage, roomOf } from "./storage-room.ts";

/** How often the REC indicator's time and level are drawn. */
const DRAW_MS = 200;

export interface RecordControlDeps {
  recorder: Recorder;
  store: RecordingStore;
  deckId: () => string;
  /** The panel (a non-modal dialog), its body, the button that opens it, the pane it opens over. */
  panel: HTMLElement;
  body: HTMLElement;
  button: HTMLButtonElement;
  anchor: HTMLElement;
  indicator: RecIndicatorEls;
  /** Where the offer to continue an interrupted recording goes (above the stage). */
  notices: HTMLElement;
  /** "Start the talk timer too" was ticked. */
  startTimer: () => void;
  /** Tell the speaker (the presenter's notices). */
  notify: (text: string, kind: "warn" | "info") => void;
}

/** "about 9 hours" / "about 40 minutes": room for a recording, in words. */
function roomText(minutes: number): string {
  if (minutes >= 120) return `Room for about ${Math.floor(minutes / 60)} hours of recording in this browser.`;
  return `Room for about ${Math.floor(minutes)} minutes of recording in this browser.`;
}

export class RecordControl {
  private open = false;
  private kind: RecordingKind = "talk";
  private sound = microphoneAvailable() ? rememberedMicrophone() : NO_SOUND;
  private startTimerToo = false;
  private microphones: MicrophoneChoice[] = [];
  private room: string | null = null;
  private message: PanelModel["message"] = null;
  private drawTimer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly deps: RecordControlDeps) {
    deps.recorder.subscribe((status) => {
      document.body.dataset.recording = status.phase;
      deps.button.dataset.recording = status.phase;
      deps.button.setAttribute("aria-pressed", String(status.phase !== "idle"));
      this.draw();
      clearInterval(this.drawTimer);
      if (status.phase !== "idle") this.drawTimer = setInterval(() => this.draw(), DRAW_MS);
      this.render();
    });
    document.body.dataset.recording = "idle";
    // Leaving the page (a reload, a closed tab): write what is gathered now rather than lose it.
    window.addEventListener("pagehide", () => deps.recorder.flushNow());
    deps.indicator.pause.addEventListener("click", () => (deps.recorder.status.phase === "paused" ? deps.recorder.resume() : deps.recorder.pause()));
    deps.indicator.stop.addEventListener("click", () => void this.stop());
  }

  get recorder(): Recorder {
    return this.deps.recorder;
  }

  /** The button and the key: open the panel, or close it. */
  toggle(): void {
    this.show(!this.open);
  }

  close(): void {
    if (this.open) this.show(false);
  }

  /** Preselect what the panel records (the pace offers a rehearsal this way). */
  choose(kind: RecordingKind): void {
    this.kind = kind;
    this.render();
  }

  /** Start a recording as the panel's Start does; false (with the reason on the panel) when refused. */
  async start(options: RecordOptions, startTimer = false): Promise<boolean> {
    this.message = null;
    this.render();
    try {
      await this.deps.recorder.start(options);
    } catch (error) {
      this.message = { text: error instanceof Error ? error.message : String(error), kind: "warn" };
      this.show(true);
      return false;
    }
    if (options.microphone !== null) rememberMicrophone(options.microphone);
    if (startTimer) this.deps.startTimer();
    // The microphone's name is readable now that the speaker allowed it.
    void this.refreshMicrophones();
    this.close();
    return true;
  }

  /** Offer to continue (or keep) each of this deck's recordings a window left unfinished. */
  async offerInterrupted(): Promise<void> {
    const found = await interruptedRecordings(this.deps.store, this.deps.deckId()).catch(() => [] as RecordingRecord[]);
    for (const record of found) {
      const offer = resumeOffer(record, {
        continue: (r) => void this.continueRecording(r, offer),
        keep: (r) => {
          offer.remove();
          void this.deps.store.updateRecording(r.id, { state: "stopped" }).catch(() => {});
        },
      });
      this.deps.notices.append(offer);
    }
    document.body.dataset.recordingOffers = String(found.length);
  }

  private async continueRecording(record: RecordingRecord, offer: HTMLElement): Promise<void> {
    offer.querySelectorAll("button").forEach((b) => (b.disabled = true));
    try {
      await this.deps.recorder.continueRecording(record, rememberedMicrophone());
      offer.remove();
    } catch (error) {
      offer.querySelectorAll("button").forEach((b) => (b.disabled = false));
      this.deps.notify(error instanceof Error ? error.message : String(error), "warn");
    }
  }

  private async stop(): Promise<void> {
    const persisted = this.deps.recorder.status.persisted;
    const kept = await this.deps.recorder.stop();
    const caution = persisted ? "" : " This browser did not promise to keep stored data when its disk runs short: save the ones you need.";
    if (kept) this.deps.notify(`Recording kept: ${formatClock(kept.durationMs / 1000)}. Play it back or save it from the library.${caution}`, "info");
  }

  private show(open: boolean): void {
    this.open = open;
    this.deps.panel.hidden = !open;
    this.deps.button.setAttribute("aria-expanded", String(open));
    if (!open) return;
    placePanel(this.deps.panel, this.deps.anchor);
    this.render();
    void this.refreshMicrophones();
    void this.refreshRoom();
    this.deps.panel.querySelector<HTMLElement>("#record-start, #record-stop")?.focus();
  }

  /** The microphones' names (readable once one was allowed), into the open panel in place. */
  private async refreshMicrophones(): Promise<void> {
    this.microphones = await listMicrophones();
    const select = this.deps.body.querySelector<HTMLSelectElement>("#record-sound");
    if (!select) return;
    fillSoundChoice(select, this.model());
    this.sound = select.value;
  }

  /** The room left, into the open panel in place. */
  private async refreshRoom(): Promise<void> {
    const room = roomOf(await estimateStorage(), ASSUMED_BYTES_PER_SECOND);
    this.room = room.minutes === null ? null : roomText(room.minutes);
    const line = this.deps.body.querySelector("#record-room");
    if (line) line.textContent = this.room ?? "";
  }

  private model(): PanelModel {
    const recorder = this.deps.recorder;
    return {
      phase: recorder.status.phase,
      elapsedMs: recorder.elapsedMs(),
      kind: this.kind,
      microphones: this.microphones,
      sound: this.sound,
      soundPossible: microphoneAvailable(),
      startTimer: this.startTimerToo,
      room: this.room,
      message: this.message,
    };
  }

  private readonly handlers: PanelHandlers = {
    kind: (kind) => {
      this.kind = kind;
    },
    sound: (value) => {
      this.sound = value;
    },
    startTimer: (on) => {
      this.startTimerToo = on;
    },
    start: () => void this.start({ kind: this.kind, microphone: this.sound === NO_SOUND ? null : this.sound }, this.startTimerToo),
    pause: () => this.deps.recorder.pause(),
    resume: () => this.deps.recorder.resume(),
    stop: () => void this.stop(),
  };

  private render(): void {
    if (!this.open) return;
    const focused = document.activeElement?.id;
    replace(this.deps.body, ...recordPanelBody(this.model(), this.handlers));
    // What the choice shows is what Start records (a remembered microphone may be gone).
    const select = this.deps.body.querySelector<HTMLSelectElement>("#record-sound");
    if (select) this.sound = select.value;
    if (focused) document.getElementById(focused)?.focus();
  }

  /** The indicator's time and level, and the panel's time while it is open. */
  private draw(): void {
    const recorder = this.deps.recorder;
    const phase = recorder.status.phase;
    renderRecIndicator(this.deps.indicator, phase, recorder.elapsedMs(), recorder.level(), !!recorder.status.recording?.audio);
    const time = this.deps.body.querySelector(".record-state");
    if (time && this.open && phase !== "idle") replace(time, h("span", {}, phase === "paused" ? "Paused at " : phase === "stopping" ? "Stopping at " : "Recording — ", formatClock(recorder.elapsedMs() / 1000)));
  }
}
