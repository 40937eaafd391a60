/**
 * @module test/helpers/video-probe
 * An exported file read back the way a player reads it, with ffprobe and ffmpeg (Debian's
 * `ffmpeg`): its streams, length, chapters and title; the picture at a time as RGB pixels
 * (or a PNG to look at); how loud its sound is. Written for any exported file — a recording the
 * tests made themselves, or one recorded in the presenter.
 */
import { existsSync } from "node:fs";

export interface Probe {
  streams: { codec_type: string; codec_name: string; width?: number; height?: number; duration?: string }[];
  format: { duration: string; format_name: string; tags?: Record<string, string> };
  chapters: { start_time: string; end_time: string; tags: { title: string } }[];
}

function run(argv: string[]): { stdout: Uint8Array; stderr: string } {
  if (!existsSync("/usr/bin/ffmpeg")) throw new Error("ffmpeg is missing: these tests read exported files with Debian's `ffmpeg` (apt-get install -y ffmpeg).");
  const result = Bun.spawnSync(argv, { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`${argv.join(" ")} failed: ${result.stderr.toString()}`);
  return { stdout: result.stdout, stderr: result.stderr.toString() };
}

export function probe(file: string): Probe {
  return JSON.parse(new TextDecoder().decode(run(["ffprobe", "-v", "error", "-show_chapters", "-show_streams", "-show_format", "-of", "json", file]).stdout)) as Probe;
}

/** The chapters as [start s, end s, title]. */
export function chapterList(file: string): [number, number, string][] {
  return probe(file).chapters.map((c) => [Number(c.start_time), Number(c.end_time), c.tags.title]);
}

export interface Frame {
  width: number;
  height: number;
  /** RGB, 3 bytes a pixel, row after row. */
  rgb: Uint8Array;
}

/**
 * ffmpeg's own `-ss T -frames:v 1` gives the first frame at or after T; an exported video has
 * frames only where the picture changes, so the frame *in force* at T — what a player shows
 * then — can be an earlier one. The fps filter repeats each frame over its time, and seeking
 * after it picks T on that steady timeline.
 */
const IN_FORCE = ["-vf", "fps=30"];

/** The picture shown at `seconds`, as RGB pixels. */
export function frameAt(file: string, seconds: number, size: { width: number; height: number }): Frame {
  const { stdout } = run(["ffmpeg", "-v", "error", "-i", file, ...IN_FORCE, "-ss", String(seconds), "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]);
  if (stdout.length !== size.width * size.height * 3) throw new Error(`the frame at ${seconds} s is ${stdout.length} bytes, not ${size.width}×${size.height} RGB`);
  return { ...size, rgb: stdout };
}

/** The picture shown at `seconds` as a PNG file, to look at. */
export function pngAt(file: string, seconds: number, out: string): void {
  run(["ffmpeg", "-v", "error", "-y", "-i", file, ...IN_FORCE, "-ss", String(seconds), "-frames:v", "1", out]);
}

/** The average colour of a rectangle of a frame. */
export function meanColour(frame: Frame, x: number, y: number, w: number, h: number): [number, number, number] {
  const sum = [0, 0, 0];
  for (let row = y; row < y + h; row++) {
    for (let col = x; col < x + w; col++) {
      const i = (row * frame.width + col) * 3;
      sum[0]! += frame.rgb[i]!;
      sum[1]! += frame.rgb[i + 1]!;
      sum[2]! += frame.rgb[i + 2]!;
    }
  }
  const n = w * h;
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
}

/** Pixels of a frame within `tolerance` (per channel) of `colour`, in a rectangle. */
export function countColour(frame: Frame, colour: [number, number, number], tolerance: number, rect = { x: 0, y: 0, w: frame.width, h: frame.height }): number {
  let n = 0;
  for (let row = rect.y; row < rect.y + rect.h; row++) {
    for (let col = rect.x; col < rect.x + rect.w; col++) {
      const i = (row * frame.width + col) * 3;
      if (Math.abs(frame.rgb[i]! - colour[0]) <= tolerance && Math.abs(frame.rgb[i + 1]! - colour[1]) <= tolerance && Math.abs(frame.rgb[i + 2]! - colour[2]) <= tolerance) n++;
    }
  }
  return n;
}

/** Mean absolute difference per channel (0–255) between two frames of the same size. */
export function difference(a: Frame, b: Frame): number {
  if (a.rgb.length !== b.rgb.length) throw new Error("frames of different sizes");
  let sum = 0;
  for (let i = 0; i < a.rgb.length; i++) sum += Math.abs(a.rgb[i]! - b.rgb[i]!);
  return sum / a.rgb.length;
}

/** The sound's mean and peak level in dB (ffmpeg's volumedetect): silence reads about −91 dB. */
export function loudness(file: string): { meanDb: number; maxDb: number } {
  const { stderr } = run(["ffmpeg", "-v", "info", "-nostats", "-i", file, "-vn", "-af", "volumedetect", "-f", "null", "-"]);
  const mean = /mean_volume:\s*(-?[\d.]+) dB/.exec(stderr)?.[1];
  const max = /max_volume:\s*(-?[\d.]+) dB/.exec(stderr)?.[1];
  if (mean === undefined || max === undefined) throw new Error(`volumedetect said nothing: ${stderr.slice(-400)}`);
  return { meanDb: Number(mean), maxDb: Number(max) };
}

/**
 * Decoding the whole file gives no error (every packet of every stream decodes). The decoded
 * frames keep the file's own time base (`-enc_time_base -1`): by default ffmpeg times them in
 * steps of a frame rate it guesses from the file, and two frames of a variable-rate video closer
 * than one step (a slide change 4 ms after a pen frame: both valid, a millisecond apart in the
 * WebM) are then reported as "non monotonically increasing dts" by ffmpeg's own null muxer.
 */
export function decodesCleanly(file: string): string {
  return run(["ffmpeg", "-v", "error", "-i", file, "-enc_time_base", "-1", "-f", "null", "-"]).stderr.trim();
}
