/**
 * @module client/record/level-meter
 * The microphone's input level for the REC indicator: the stream's loudness read from an
 * AnalyserNode whenever the indicator asks, as 0–1 on a decibel scale (−60 dBFS and below is
 * 0, full scale is 1), so a voice moves the bar visibly and silence leaves it still. Where
 * the browser's audio cannot run, it says it has no level rather than show silence.
 */

/** Quieter than this reads as silence: below a quiet room's noise on a laptop microphone. */
const FLOOR_DB = -60;

/** 0–1 for a root-mean-square amplitude, on the decibel scale above. Pure. */
export function levelOf(rms: number): number {
  if (!(rms > 0)) return 0;
  const db = 20 * Math.log10(rms);
  return Math.min(1, Math.max(0, (db - FLOOR_DB) / -FLOOR_DB));
}

/** Root mean square of samples in −1…1. Pure. */
export function rmsOf(samples: Float32Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return samples.length ? Math.sqrt(sum / samples.length) : 0;
}

export class LevelMeter {
  private readonly context: AudioContext;
  private readonly analyser: AnalyserNode;
  private readonly buffer: Float32Array<ArrayBuffer>;

  constructor(stream: MediaStream) {
    this.context = new AudioContext();
    this.analyser = this.context.createAnalyser();
    this.analyser.fftSize = 2048;
    this.buffer = new Float32Array(this.analyser.fftSize);
    this.context.createMediaStreamSource(stream).connect(this.analyser);
    // Silent, but connected to the output: an engine may process only nodes that reach it (Firefox).
    const mute = this.context.createGain();
    mute.gain.value = 0;
    this.analyser.connect(mute).connect(this.context.destination);
    // Made on a click or a key, but an engine may still start it suspended.
    void this.context.resume().catch(() => {});
  }

  /**
   * The level now, 0–1; null while the browser's audio does not run (no sound output to
   * drive it: Firefox in a machine without an audio device keeps every AudioContext suspended).
   */
  level(): number | null {
    if (this.context.state !== "running") return null;
    this.analyser.getFloatTimeDomainData(this.buffer);
    return levelOf(rmsOf(this.buffer));
  }

  close(): void {
    void this.context.close().catch(() => {});
  }
}
