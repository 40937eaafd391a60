/**
 * @module client/record/recorder
 * One recording at a time, in the presenter window: the microphone (or none — a silent
 * recording keeps only the timeline), the recording's clock, the timeline's events as the
 * tap hands them over (./tap.ts), and the pieces written as they come (./piece-writer.ts).
 * Start, pause, resume, stop; continue one that a crash or a reload interrupted; a storage
 * check before and during (./storage-room.ts). Anything that ends a recording early says so,
 * and keeps what was written. It never touches the talk timer: starting the timer with the
 * recording is the caller's choice.
 *
 * Listeners hear of every change of phase (the Record control, the REC indicator, and the
 * pace, which reads a finished rehearsal). `elapsedMs()` and `level()` are read on demand.
 */
import type { RecordingRecord } from "../storage/schema.ts";
import type { RecordingStore } from "../storage/recording-store.ts";
import { StorageError } from "../storage/storage-error.ts";
import { chooseCapture, engineAudio } from "./audio-format.ts";
import { openCapture, SLICE_MS, type AudioCapture } from "./capture.ts";
import { RecordingClock } from "./clock.ts";
import { continuation } from "./continuation.ts";
import { LevelMeter } from "./level-meter.ts";
import { onRecordingClock } from "./media-time.ts";
import { openMicrophone, RecordRefusal } from "./microphone.ts";
import { PieceWriter, type PieceWriterStart, type WriteFailure } from "./piece-writer.ts";
import { holdRecordingLock } from "./recording-lock.ts";
import { askPersistence, ASSUMED_BYTES_PER_SECOND, CHECK_EVERY_MS, estimateStorage, LOW_MINUTES, lowRoomThreshold, planningRate, roomOf } from "./storage-room.ts";
import type { PictureMessage } from "./timeline.ts";
import { formatClock } from "../lib/format.ts";

export type RecordingKind = RecordingRecord["kind"];

export interface RecordOptions {
  kind: RecordingKind;
  /** The microphone's device id ("" for the browser's default); null: no sound, the timeline only. */
  microphone: string | null;
}

export type RecorderPhase = "idle" | "starting" | "recording" | "paused" | "stopping";

export interface RecorderStatus {
  phase: RecorderPhase;
  /** The recording being written (null while idle). */
  recording: RecordingRecord | null;
  /** Storage is running low: what to tell the speaker (null when not). */
  warning: string | null;
  /** The browser promised not to clear this site's storage when its disk runs short. */
  persisted: boolean;
}

export interface RecorderDeps {
  store: RecordingStore;
  /** The deck being presented: its id, title and page labels (kept with the recording). */
  deck: () => { id: string; title: string; labels: string[] };
  /** The messages that draw the projector's picture now (the tap's snapshot). */
  snapshot: () => PictureMessage[];
  /** Tell the speaker (never the projector). */
  notify: (text: string, kind: "warn" | "info") => void;
  /** Monotonic milliseconds (performance.now). */
  clockSource?: () => number;
}

/** How often the piece being gathered is checked: a piece without sound is closed after SLICE_MS. */
const TICK_MS = 250;

/** "Talk 29 Nov 2026, 14:05": a new recording's title. */
function titleOf(kind: RecordingKind, at: Date): string {
  return `${kind === "talk" ? "Talk" : "Rehearsal"} ${at.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}`;
}

/** The sentence for a refused write, with what is kept. */
function failureText(failure: WriteFailure, keptMs: number): string {
  const kept = `What was recorded until ${formatClock(keptMs / 1000)} is kept in the library.`;
  if (failure.kind === "gone") return `Recording stopped: it was deleted in another window.`;
  if (failure.error.kind === "quota") return `Recording stopped: this browser has no more room to store it. ${kept} Delete recordings or decks you no longer need to make room.`;
  return `Recording stopped: this browser refused to store more of it. ${kept}`;
}

export class Recorder {
  private phase: RecorderPhase = "idle";
  private record: RecordingRecord | null = null;
  private warning: string | null = null;
  private warnedAt = Infinity;
  /** Whether the browser promised to keep this site's storage (asked at each start). */
  private persisted = false;
  private clock = new RecordingClock();
  private writer: PieceWriter | null = null;
  private capture: AudioCapture | null = null;
  private stream: MediaStream | null = null;
  private meter: LevelMeter | null = null;
  private releaseLock: (() => void) | null = null;
  private tick: ReturnType<typeof setInterval> | undefined;
  private roomCheck: ReturnType<typeof setInterval> | undefined;
  private readonly listeners = new Set<(status: RecorderStatus) => void>();
  private readonly finishedListeners = new Set<(recording: RecordingRecord) => void>();

  constructor(private readonly deps: RecorderDeps) {}

  get status(): RecorderStatus {
    return { phase: this.phase, recording: this.record, warning: this.warning, persisted: this.persisted };
  }

  /** Hear of every change of phase (and of the warning); returns the way to stop hearing. */
  subscribe(listener: (status: RecorderStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Hear of each recording kept when it stops (by Stop or cut short): the pace reads a finished rehearsal so. */
  onFinished(listener: (recording: RecordingRecord) => void): () => void {
    this.finishedListeners.add(listener);
    return () => this.finishedListeners.delete(listener);
  }

  /** Milliseconds on the recording's clock (0 while idle). */
  elapsedMs(): number {
    return this.phase === "idle" ? 0 : this.clock.now();
  }

  /** The microphone's level now, 0–1 (0 without one or while paused); null when the browser cannot measure it. */
  level(): number | null {
    if (this.phase !== "recording") return 0;
    return this.meter ? this.meter.level() : this.stream ? null : 0;
  }

  /** The clock time up to which the recording is written (the most a crash can take is the rest). */
  keptMs(): number {
    return this.writer?.keptMs ?? 0;
  }

  /** A picture message the projector was sent (from the tap): an event, while recording. */
  take(message: PictureMessage): void {
    if (this.phase !== "recording" || !this.writer) return;
    const t = this.clock.now();
    this.writer.event({ t, m: onRecordingClock(message, t, Date.now()) });
  }

  /**
   * Start a new recording of the deck. Throws a RecordRefusal — a sentence for the speaker —
   * when it cannot (no room, no microphone allowed, storage refused); nothing is kept then.
   */
  async start(options: RecordOptions): Promise<void> {
    if (this.phase !== "idle") return;
    this.set("starting");
    try {
      await this.checkRoomBeforeStart();
      const audio = options.microphone === null ? null : await this.openSound(options.microphone);
      const deck = this.deps.deck();
      const record = await this.deps.store.createRecording({ deckId: deck.id, kind: options.kind, title: titleOf(options.kind, new Date()), audio: audio ? { mimeType: audio.capture.mimeType } : null, labels: deck.labels });
      if (!record) throw new RecordRefusal("This deck is no longer stored in this browser, so nothing can be recorded with it.");
      await this.begin(record, { recordingId: record.id, segment: 0, seq: 0, startMs: 0 }, audio);
    } catch (error) {
      this.teardown();
      // A recording that never got going leaves nothing behind.
      if (this.record) await this.deps.store.deleteRecording(this.record.id).catch(() => {});
      this.record = null;
      this.set("idle");
      throw this.refusal(error);
    }
  }

  /** Continue an interrupted recording: a new segment from the length kept. Throws a RecordRefusal like start. */
  async continueRecording(interrupted: RecordingRecord, microphone: string): Promise<void> {
    if (this.phase !== "idle") return;
    this.set("starting");
    try {
      await this.checkRoomBeforeStart();
      const record = await this.deps.store.getRecording(interrupted.id);
      if (!record) throw new RecordRefusal("This recording is no longer stored in this browser.");
      // It keeps its kind of sound: a silent one stays silent, one with sound records the microphone again.
      const audio = record.audio ? await this.openSound(microphone) : null;
      const start = continuation(record, await this.deps.store.lastPiece(record.id));
      await this.deps.store.updateRecording(record.id, { state: "recording" });
      await this.begin({ ...record, state: "recording" }, start, audio);
    } catch (error) {
      this.teardown();
      // It stays as it was kept: interrupted, to continue or keep later.
      if (this.record) await this.deps.store.updateRecording(this.record.id, { state: "interrupted" }).catch(() => {});
      this.record = null;
      this.set("idle");
      throw this.refusal(error);
    }
  }

  /** Write what is gathered now (the page is being left: a reload, a closed tab). */
  flushNow(): void {
    if (this.phase === "recording" || this.phase === "paused") void this.writer?.flush(this.clock.now());
  }

  pause(): void {
    if (this.phase !== "recording") return;
    this.capture?.pause();
    this.clock.hold();
    // Paused is a good moment to have everything on disk.
    void this.writer?.flush(this.clock.now());
    this.set("paused");
  }

  resume(): void {
    if (this.phase !== "paused") return;
    this.capture?.resume();
    this.clock.run();
    this.set("recording");
    // What changed on the projector while paused is not recorded: the picture now is.
    this.logSnapshot();
  }

  /** Stop and keep the recording; resolves with it once everything is written. */
  async stop(): Promise<RecordingRecord | null> {
    if (this.phase !== "recording" && this.phase !== "paused") return null;
    this.set("stopping");
    this.clock.hold();
    clearInterval(this.tick);
    clearInterval(this.roomCheck);
    await this.capture?.stop().catch(() => {});
    const writer = this.writer!;
    await writer.flush(this.clock.now());
    const id = this.record!.id;
    // Even after a refused write: marking it stopped is a small write that may still pass (if
    // not, the next presenter window offers it as interrupted).
    await this.deps.store.updateRecording(id, { state: "stopped" }).catch(() => {});
    this.teardown();
    const kept = await this.deps.store.getRecording(id).catch(() => undefined);
    this.record = null;
    this.warning = null;
    this.set("idle");
    if (kept) for (const listener of this.finishedListeners) listener(kept);
    return kept ?? null;
  }

  private async checkRoomBeforeStart(): Promise<void> {
    const room = roomOf(await estimateStorage(), ASSUMED_BYTES_PER_SECOND);
    if (room.minutes !== null && room.minutes < LOW_MINUTES) {
      throw new RecordRefusal(`Not enough room to record: this browser lets deckhand store only about ${Math.floor(room.minutes)} more minutes (at least ${LOW_MINUTES} are needed). Delete recordings or decks you no longer need in the library, then try again.`);
    }
    // Not awaited: Firefox asks the speaker in a prompt of its own, which must not hold up the start.
    this.persisted = false;
    void askPersistence().then((granted) => (this.persisted = granted));
  }

  private async openSound(deviceId: string): Promise<{ stream: MediaStream; capture: AudioCapture }> {
    const choice = chooseCapture(await engineAudio());
    if (!choice) throw new RecordRefusal("This browser cannot record sound. Record without sound (the slides, the pen and the pointer are kept), or use Chrome, Edge or Firefox.");
    const stream = await openMicrophone(deviceId);
    this.stream = stream;
    try {
      const capture = await openCapture(choice, stream, (message) => void this.fail(`Recording stopped: ${message} What was recorded until ${formatClock(this.keptMs() / 1000)} is kept in the library.`));
      return { stream, capture };
    } catch (error) {
      throw new RecordRefusal(`This browser could not start recording sound (${error instanceof Error ? error.message : String(error)}). Record without sound, or try another browser.`);
    }
  }

  private async begin(record: RecordingRecord, start: PieceWriterStart, audio: { stream: MediaStream; capture: AudioCapture } | null): Promise<void> {
    this.record = record;
    this.warning = null;
    this.warnedAt = Infinity;
    this.clock = new RecordingClock(start.startMs, this.deps.clockSource);
    this.writer = new PieceWriter(this.deps.store, start, (failure) => void this.fail(failureText(failure, this.writer?.keptMs ?? start.startMs)));
    this.releaseLock = holdRecordingLock(record.id);
    if (audio) {
      this.capture = audio.capture;
      try {
        this.meter = new LevelMeter(audio.stream);
      } catch {
        this.meter = null;
      }
      await audio.capture.start((slice) => this.onSound(slice));
      for (const track of audio.stream.getAudioTracks()) track.addEventListener("ended", () => void this.fail(`Recording stopped: the microphone went away. What was recorded until ${formatClock(this.keptMs() / 1000)} is kept in the library.`));
    }
    this.clock.run();
    this.set("recording");
    this.logSnapshot();
    this.tick = setInterval(() => this.onTick(), TICK_MS);
    this.roomCheck = setInterval(() => void this.checkRoom(), CHECK_EVERY_MS);
  }

  private logSnapshot(): void {
    for (const message of this.deps.snapshot()) this.take(message);
  }

  /** A slice of sound: written at once with the events gathered since the last piece. */
  private onSound(slice: Blob): void {
    const writer = this.writer;
    if (!writer || this.phase === "idle") return;
    writer.sound(slice);
    void writer.flush(this.clock.now());
  }

  /** A piece that waited a slice's length for sound (a silent recording, a quiet capture) is written anyway. */
  private onTick(): void {
    const writer = this.writer;
    if (writer && this.phase === "recording" && this.clock.now() - writer.pieceStartMs >= SLICE_MS) void writer.flush(this.clock.now());
  }

  private async checkRoom(): Promise<void> {
    const record = this.record && (await this.deps.store.getRecording(this.record.id).catch(() => undefined));
    if (!record || this.phase === "idle" || this.phase === "stopping") return;
    const room = roomOf(await estimateStorage(), planningRate(record.bytes, record.durationMs));
    if (room.minutes === null) return;
    const threshold = lowRoomThreshold(room.minutes, this.warnedAt);
    if (threshold === null) return;
    this.warnedAt = threshold;
    this.warning = `Storage is running low: about ${Math.max(0, Math.floor(room.minutes))} minutes of recording left. Delete recordings or decks you no longer need, or stop soon.`;
    this.deps.notify(this.warning, "warn");
    this.emit();
  }

  /** End the recording early (a refused write, a lost microphone): stop, keep what was written, say why. */
  private async fail(message: string): Promise<void> {
    if (this.phase === "idle" || this.phase === "stopping") return;
    await this.stop();
    this.deps.notify(message, "warn");
  }

  private refusal(error: unknown): RecordRefusal {
    if (error instanceof RecordRefusal) return error;
    if (error instanceof StorageError) return new RecordRefusal(error.kind === "quota" ? "This browser has no room to store a recording. Delete recordings or decks you no longer need in the library, then try again." : "This browser refuses to store a recording here (a private window, or storage turned off).");
    return new RecordRefusal(`The recording could not start: ${error instanceof Error ? error.message : String(error)}`);
  }

  /** Let go of the microphone, the meter, the lock and the timers. */
  private teardown(): void {
    clearInterval(this.tick);
    clearInterval(this.roomCheck);
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
    this.meter?.close();
    this.meter = null;
    this.capture = null;
    this.releaseLock?.();
    this.releaseLock = null;
  }

  private set(phase: RecorderPhase): void {
    this.phase = phase;
    this.emit();
  }

  private emit(): void {
    const status = this.status;
    for (const listener of this.listeners) listener(status);
  }
}
