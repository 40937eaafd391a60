/**
 * @module client/pages/play
 * /play/{recording} — a recording played back inside deckhand, from this browser's storage,
 * with no network: the sound (one file remuxed from its segments — ../record/recording-sound.ts)
 * and, in step with it, the picture the projector showed, drawn by the audience window's own
 * stage from the PDF (ink, pointer, zoom, black or white, the question or poll shown, the join
 * card) at the sound's position. The slides are listed with the time each began: a click
 * seeks there. A recording without sound plays on a clock of its own.
 */
import { $, h, replace } from "../lib/dom.ts";
import { formatBytes, formatClock, formatDate } from "../lib/format.ts";
import { storedMediaContext } from "../lib/stored-media.ts";
import { Renderer } from "../lib/renderer.ts";
import { JoinCardView } from "../live/talk/join-card.ts";
import { TalkProjectionView } from "../live/talk/talk-projection.ts";
import { audienceChanged, onlyOverlaysChanged, type AudienceState } from "../presenter/audience.ts";
import { AudienceStage } from "../presenter/audience-stage.ts";
import { parseNotesPosition } from "../model/deck-settings.ts";
import { onPlayerClock } from "../record/media-time.ts";
import { SilentClock, SoundClock, type PlaybackClock } from "../record/playback-clock.ts";
import { recordingSound } from "../record/recording-sound.ts";
import { TimelineCursor } from "../record/timeline-cursor.ts";
import { slideSpans, type SlideSpan, type TimelineEvent } from "../record/timeline.ts";
import { DeckStore } from "../storage/deck-store.ts";
import { mountExportPanel } from "../export/export-panel.ts";
import { exportDeck } from "../export/library-recording.ts";
import { storedRecording } from "../export/recording-source.ts";
import type { RecordingRecord } from "../storage/schema.ts";

const notices = $("#notices");
const stageBox = $("#stage-box");
const audio = $("#play-audio") as HTMLAudioElement;
const toggle = $("#play-toggle") as HTMLButtonElement;
const seek = $("#play-seek") as HTMLInputElement;
const time = $("#play-time");
const slideList = $("#play-slides");

let store: DeckStore;
let deckId = "";

const mediaCtx = storedMediaContext("audience", () => store, () => deckId);

const stage = new AudienceStage({ frame: $("#frame"), main: stageBox, canvas: $("#slide") as HTMLCanvasElement, mediaLayer: $("#media-layer"), blankCover: $("#blank-cover"), body: stageBox }, mediaCtx);
const joinCard = new JoinCardView(stageBox, $("#blank-cover"));
const talk = new TalkProjectionView(stageBox, $("#blank-cover"));

function fail(text: string) {
  notices.append(h("div", { class: "notice notice-error", role: "alert" }, text, " ", h("a", { href: "/" }, "Back to your decks")));
  document.body.dataset.ready = "missing";
}

/** The recording's id from /play/{id}. */
function recordingIdFromPath(): string {
  return decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] ?? "");
}

function describe(record: RecordingRecord): string {
  const parts = [record.kind === "talk" ? "Talk" : "Rehearsal", formatClock(record.durationMs / 1000), formatBytes(record.bytes), formatDate(record.createdAt)];
  if (record.state === "interrupted") parts.push("interrupted");
  if (!record.audio) parts.push("no sound");
  return parts.join(" · ");
}

class Player {
  private readonly cursor: TimelineCursor;
  /** The recorded state last shown, and whether the player was playing then (media follow it). */
  private shown: AudienceState | null = null;
  private shownPlaying = false;
  private frame = 0;
  private seeking = false;
  private current = -1;

  constructor(
    events: readonly TimelineEvent[],
    private readonly clock: PlaybackClock,
    private readonly spans: readonly SlideSpan[],
  ) {
    this.cursor = new TimelineCursor(events);
    clock.onEnded = () => this.update();
  }

  /** Draw the picture at the clock's time, and the controls. */
  draw(): void {
    const t = this.clock.now();
    const step = this.cursor.moveTo(t);
    const state = step.picture.state;
    const playing = this.clock.playing();
    // Media on a slide follow the player: re-applied when it starts, stops or jumps.
    const mediaMoved = !!state && Object.keys(state.media).length > 0 && (playing !== this.shownPlaying || step.jumped);
    if (state && (state !== this.shown || mediaMoved)) {
      const previous = this.shown;
      if (previous && !step.jumped && !mediaMoved && onlyOverlaysChanged(state, previous)) stage.applyOverlays(state.overlays);
      else if (!previous || audienceChanged(state, previous) || step.jumped || mediaMoved) stage.apply(onPlayerClock(state, t, Date.now(), playing));
      this.shown = state;
      this.shownPlaying = playing;
    }
    joinCard.show(step.picture.joinCard);
    talk.show(step.picture.talk);
    for (const counts of step.reactions) talk.react(counts);
    this.controls(t);
  }

  private controls(t: number): void {
    replace(time, `${formatClock(t / 1000)} / ${formatClock(this.clock.durationMs / 1000)}`);
    if (!this.seeking) seek.value = String(Math.round(t));
    const playing = this.clock.playing();
    toggle.textContent = playing ? "Pause" : "Play";
    stageBox.dataset.t = String(Math.round(t));
    document.body.dataset.playing = String(playing);
    const index = this.spans.findIndex((s) => t >= s.startMs && t < s.endMs);
    if (index !== this.current) {
      this.current = index;
      slideList.querySelectorAll("button").forEach((b, i) => b.setAttribute("aria-current", String(i === index)));
    }
  }

  private loop = () => {
    this.draw();
    this.frame = this.clock.playing() ? requestAnimationFrame(this.loop) : 0;
  };

  update(): void {
    cancelAnimationFrame(this.frame);
    this.loop();
  }

  async toggle(): Promise<void> {
    if (this.clock.playing()) this.clock.pause();
    else {
      try {
        await this.clock.play();
      } catch {
        notices.append(h("div", { class: "notice notice-warn", role: "status" }, "The browser did not start the sound. Press Play again."));
      }
    }
    this.update();
  }

  seekTo(ms: number): void {
    this.clock.seek(ms);
    this.update();
  }

  wire(): void {
    toggle.addEventListener("click", () => void this.toggle());
    seek.addEventListener("input", () => {
      this.seeking = true;
      this.seekTo(Number(seek.value));
    });
    seek.addEventListener("change", () => {
      this.seeking = false;
      this.seekTo(Number(seek.value));
    });
    audio.addEventListener("seeked", () => this.update());
    audio.addEventListener("pause", () => this.update());
    audio.addEventListener("play", () => this.update());
  }
}

function slideButtons(spans: readonly SlideSpan[], player: Player) {
  const label = (span: SlideSpan) => `Slide ${stage.layout.slides[span.slide]?.label ?? span.slide + 1}`;
  replace(
    slideList,
    ...spans.map((span) =>
      h("li", {}, h("button", { type: "button", class: "btn btn-small btn-ghost", "data-start": span.startMs, "data-page": span.page, onclick: () => player.seekTo(span.startMs) }, h("span", {}, label(span)), " ", h("span", { class: "muted" }, formatClock(span.startMs / 1000)))),
    ),
  );
}

/** The sound as one file, or null for a silent recording (or sound this browser cannot read). */
async function soundOf(record: RecordingRecord): Promise<Blob | null> {
  if (!record.audio) return null;
  const segments = await store.recordings.segmentAudio(record.id);
  try {
    return await recordingSound(segments);
  } catch (error) {
    console.warn("The recording's sound could not be remuxed; playing its first segment as stored.", error);
    return segments[0]?.audio ?? null;
  }
}

async function main() {
  const id = recordingIdFromPath();
  try {
    store = await DeckStore.open();
  } catch {
    return fail("This browser refuses storage here (a private window, or storage turned off), so no recording can be played.");
  }
  const record = await store.recordings.getRecording(id);
  if (!record) return fail("This recording is not in this browser. Recordings stay in the browser that made them.");
  deckId = record.deckId;
  const found = await store.getDeckWithBytes(record.deckId);
  if (!found) return fail("The deck of this recording is no longer stored in this browser.");
  document.title = `${record.title} — ${found.deck.title} — deckhand`;
  replace($("#play-title"), `${found.deck.title}`);
  replace($("#play-meta"), describe(record));
  try {
    await stage.open(new Renderer(), found.bytes, found.deck.pageSize, parseNotesPosition(found.deck.notesPosition), found.deck.notes?.pdfpc);
  } catch {
    return fail("The stored PDF of this recording's deck could not be read.");
  }
  // An hour of sound takes a few seconds to join into one file (../record/recording-sound.ts).
  if (record.audio) replace(time, "Preparing the sound…");
  const [events, sound] = await Promise.all([store.recordings.timeline(id), soundOf(record)]);
  let clock: PlaybackClock;
  if (sound) {
    audio.src = URL.createObjectURL(sound);
    await new Promise<void>((resolve) => {
      if (audio.readyState >= 1) return resolve();
      audio.addEventListener("loadedmetadata", () => resolve(), { once: true });
      audio.addEventListener("error", () => resolve(), { once: true });
    });
    const soundMs = Number.isFinite(audio.duration) ? audio.duration * 1000 : record.durationMs;
    clock = new SoundClock(audio, Math.max(record.durationMs, soundMs));
    document.body.dataset.sound = audio.error ? "unplayable" : "ready";
    if (audio.error) notices.append(h("div", { class: "notice notice-warn", role: "status" }, "This browser cannot play this recording's sound (it was recorded in another format). The slides still play on their own clock."));
    if (audio.error) clock = new SilentClock(record.durationMs);
  } else {
    clock = new SilentClock(record.durationMs);
    document.body.dataset.sound = "none";
  }
  const spans = slideSpans(events, stage.layout, record.durationMs);
  const player = new Player(events, clock, spans);
  slideButtons(spans, player);
  seek.max = String(Math.round(clock.durationMs));
  seek.disabled = false;
  toggle.disabled = false;
  player.wire();
  player.draw();
  // Save video and Save audio, as on the recording's row in the library.
  mountExportPanel($("#play-actions"), { recording: storedRecording(record), deck: () => exportDeck(store, record.deckId) });
  (window as unknown as { __deckhand: unknown }).__deckhand = { player: () => ({ t: clock.now(), durationMs: clock.durationMs, playing: clock.playing(), soundMs: Number.isFinite(audio.duration) ? audio.duration * 1000 : null, spans }) };
  document.body.dataset.ready = "true";
}

void main();
