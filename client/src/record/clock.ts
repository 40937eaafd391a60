/**
 * @module client/record/clock
 * The recording's clock: milliseconds of recorded sound, from 0 at the start (or from the
 * length already kept, for a recording continued after a reload), standing still while the
 * recording is paused. Every timeline event takes its time from it, and it is read from a
 * monotonic source (performance.now), so a change of the wall clock moves nothing. A silent
 * rehearsal has the same clock and no sound.
 */

export class RecordingClock {
  /** The source's time when the clock last (re)started; null while paused or not started. */
  private runningSince: number | null = null;
  /** Milliseconds counted before the current run. */
  private banked: number;

  constructor(
    startMs = 0,
    private readonly source: () => number = () => performance.now(),
  ) {
    this.banked = startMs;
  }

  /** Start, or resume after a pause. */
  run(): void {
    if (this.runningSince === null) this.runningSince = this.source();
  }

  /** Stand still (paused, or stopped); the time so far is kept. */
  hold(): void {
    if (this.runningSince === null) return;
    this.banked += Math.max(0, this.source() - this.runningSince);
    this.runningSince = null;
  }

  get running(): boolean {
    return this.runningSince !== null;
  }

  /** Milliseconds on the recording's clock now (whole ms). */
  now(): number {
    const run = this.runningSince === null ? 0 : Math.max(0, this.source() - this.runningSince);
    return Math.round(this.banked + run);
  }
}
