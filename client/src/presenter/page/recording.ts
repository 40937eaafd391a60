/**
 * @module client/presenter/page/recording
 * Recording in the presenter window (client/record/): the channel to the audience window is
 * tapped where boot opens it (`recordedChannel`), so every picture message any part of the
 * presenter posts is also the recording's; `wireRecording` makes the Record control — its
 * panel, the REC indicator by the timer, the offer to continue an interrupted recording — and
 * keeps the pace's rehearsal (`session.rehearsal`: the deck's newest rehearsal recording) up to
 * date, read at the start and again whenever a rehearsal is kept.
 */
import { $ } from "../../lib/dom.ts";
import { RecordControl } from "../../record/record-control.ts";
import { lastRehearsal } from "../../record/rehearsal.ts";
import { Recorder } from "../../record/recorder.ts";
import { tapChannel, type TappedChannel } from "../../record/tap.ts";
import type { Channel } from "../channel.ts";
import { els, notice } from "./elements.ts";
import { renderPaceLine } from "./pace.ts";
import { presenter } from "./presenter.ts";
import { session } from "./session.ts";

let tapped: TappedChannel | null = null;

/** The audience channel, tapped: posts go on as before and picture messages reach the recorder. */
export function recordedChannel(channel: Channel): Channel {
  tapped = tapChannel(channel, (message) => session.recording?.recorder.take(message));
  return tapped;
}

/** The deck's newest rehearsal recording, as the pace reads it (record/rehearsal.ts), into the session. */
async function loadRehearsal(): Promise<void> {
  const recordings = session.store.recordings;
  const last = lastRehearsal(await recordings.listRecordings(session.deck.id));
  session.rehearsal = last ? { events: await recordings.timeline(last.id), durationMs: last.durationMs } : null;
  renderPaceLine();
}

/**
 * Make the Record control (once the deck and the channel are open) and offer what a reload
 * interrupted. Resolves once the deck's rehearsal has been read the first time (or found
 * unreadable): the pace line it may bring is in the clocks from then on.
 */
export function wireRecording(): Promise<void> {
  const recorder = new Recorder({
    store: session.store.recordings,
    deck: () => ({ id: session.deck.id, title: session.deck.title, labels: session.layout.labels }),
    snapshot: () => tapped?.snapshot() ?? [],
    notify: (text, kind) => notice(text, kind, "record-notice"),
  });
  const control = new RecordControl({
    recorder,
    store: session.store.recordings,
    deckId: () => session.deck.id,
    panel: $("#record-panel"),
    body: $("#record-body"),
    button: $("#btn-record") as HTMLButtonElement,
    anchor: $(".current-pane"),
    indicator: {
      box: $("#rec"),
      label: $("#rec-label"),
      elapsed: $("#rec-elapsed"),
      level: $("#rec-level"),
      levelBar: $("#rec-level-bar"),
      pause: $("#rec-pause") as HTMLButtonElement,
      stop: $("#rec-stop") as HTMLButtonElement,
    },
    notices: els.notices,
    startTimer: () => {
      if (presenter.current.timer.status !== "running") presenter.dispatch("timerStart");
    },
    notify: (text, kind) => notice(text, kind, "record-notice"),
  });
  session.recording = control;
  // A rehearsal kept now paces the talk from now on.
  recorder.onFinished((kept) => {
    if (kept.kind === "rehearsal") void loadRehearsal().catch(() => {});
  });
  // After the offers (they mark what a crash left as interrupted: such a rehearsal counts for what it has).
  return control.offerInterrupted().then(loadRehearsal).catch(() => {});
}
