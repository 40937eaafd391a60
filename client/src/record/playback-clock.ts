/**
 * @module client/record/playback-clock
 * The player's time, in milliseconds on the recording's clock: the sound's own position when
 * the recording has sound (the picture follows the voice, never the other way round), or a
 * clock of its own for a silent recording. Play, pause, seek, the end.
 */

export interface PlaybackClock {
  readonly durationMs: number;
  now(): number;
  playing(): boolean;
  play(): Promise<void>;
  pause(): void;
  seek(ms: number): void;
  /** Called when playing reaches the end. */
  onEnded: () => void;
}

/** The time of an <audio> element playing the recording's sound. */
export class SoundClock implements PlaybackClock {
  onEnded = () => {};

  constructor(
    private readonly audio: HTMLAudioElement,
    readonly durationMs: number,
  ) {
    audio.addEventListener("ended", () => this.onEnded());
  }

  now(): number {
    return this.audio.currentTime * 1000;
  }

  playing(): boolean {
    return !this.audio.paused && !this.audio.ended;
  }

  async play(): Promise<void> {
    if (this.audio.ended) this.audio.currentTime = 0;
    await this.audio.play();
  }

  pause(): void {
    this.audio.pause();
  }

  seek(ms: number): void {
    this.audio.currentTime = Math.max(0, Math.min(ms, this.durationMs)) / 1000;
  }
}

/** A clock of its own for a recording without sound: it runs at real speed from where it was sought. */
export class SilentClock implements PlaybackClock {
  onEnded = () => {};
  private from = 0;
  private since: number | null = null;
  private endTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly durationMs: number,
    private readonly source: () => number = () => performance.now(),
  ) {}

  now(): number {
    return Math.min(this.durationMs, this.since === null ? this.from : this.from + (this.source() - this.since));
  }

  playing(): boolean {
    return this.since !== null;
  }

  async play(): Promise<void> {
    if (this.since !== null) return;
    if (this.from >= this.durationMs) this.from = 0;
    this.since = this.source();
    this.schedule();
  }

  pause(): void {
    this.from = this.now();
    this.since = null;
    clearTimeout(this.endTimer);
  }

  seek(ms: number): void {
    this.from = Math.max(0, Math.min(ms, this.durationMs));
    if (this.since !== null) this.since = this.source();
    this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.endTimer);
    if (this.since === null) return;
    this.endTimer = setTimeout(() => {
      // A timer may fire a moment early: the end is the end.
      this.from = this.durationMs;
      this.since = null;
      this.onEnded();
    }, this.durationMs - this.now());
  }
}
