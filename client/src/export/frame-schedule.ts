/**
 * @module client/export/frame-schedule
 * Which instants of a recording need a video frame. A slide talk is mostly still: a frame is
 * encoded only when the picture changes — a slide or build step, black or white, the pen, the
 * laser, a zoom, a question or poll shown, the join card — and, while reactions float, at a
 * modest rate until the last one is gone. Moving pen and pointer are capped at a frame rate
 * (the last position is always shown). Each slide change is a keyframe at its own instant (a
 * chapter starts exactly there), and no stretch of the video goes longer than `keyEveryMs`
 * without one, so a player seeking anywhere decodes little; a last frame just before the end
 * makes the video as long as the recording. Times are whole milliseconds
 * (WebM's timestamps), rounded up so a frame never shows an event before it happened. Pure.
 */
import { slideIndexOf, type DeckLayout } from "../presenter/deck-layout.ts";
import type { Picture, TimelineEvent } from "../record/timeline.ts";
import type { Float } from "./float-track.ts";
import { Replay } from "./replay.ts";

export interface FrameTime {
  t: number;
  key: boolean;
}

export interface ScheduleOptions {
  /** Shortest gap between frames of moving pen or pointer (the frame-rate cap). */
  minGapMs: number;
  /** Gap between frames while reactions float. */
  floatGapMs: number;
  /** Longest stretch without a keyframe. */
  keyEveryMs: number;
}

export const SCHEDULE: ScheduleOptions = {
  // 30 fps: the pen and the laser move as smoothly as on a projector refreshing at 60 Hz halved; more only costs encoding time.
  minGapMs: 1000 / 30,
  // 15 fps: floats rise slowly (2.4 s over 70 % of the height); a modest rate keeps them fluid at half the frames.
  floatGapMs: 1000 / 15,
  // 10 s: seeking decodes at most 10 s of changes; still stretches get a repeated keyframe this often (bench/export.ts: size per minute).
  keyEveryMs: 10_000,
};

/** What is drawn, as a string: two pictures that look alike give the same one (media playback is not drawn). */
function look(p: Picture): string {
  const s = p.state;
  const state = s ? [s.page, s.blank, s.mode, s.frozen, s.notesPosition ?? "", JSON.stringify(s.overlays), s.ink.map((k) => k.id).join(",")].join("|") : "";
  return `${state}#${JSON.stringify(p.talk)}#${JSON.stringify(p.joinCard)}`;
}

/** A change of the picture at `t` (whole ms); `slide` when the projector went to another slide. */
export interface Change {
  t: number;
  slide: boolean;
}

/** The instants the picture changes, from the events that change what is drawn. */
export function pictureChanges(events: readonly TimelineEvent[], layout: DeckLayout): Change[] {
  const replay = new Replay(events);
  const out: Change[] = [];
  let previous = look(replay.at(-Infinity));
  let slide: number | null = null;
  for (const event of events) {
    // Several events at one instant: judged once, after the last of them.
    const picture = replay.at(event.t);
    const now = look(picture);
    if (now === previous) continue;
    previous = now;
    const index = picture.state ? slideIndexOf(layout, picture.state.page) : null;
    const changedSlide = index !== null && slide !== null && index !== slide;
    if (index !== null) slide = index;
    out.push({ t: Math.ceil(event.t), slide: changedSlide });
  }
  return out;
}

/** Frames while reactions float: every `gap` through each stretch with floats, and one when the last is gone. */
function floatFrames(floats: readonly Float[], gap: number): number[] {
  const out: number[] = [];
  const spans = floats.map((f) => [f.start, f.end] as const).sort((a, b) => a[0] - b[0]);
  let i = 0;
  while (i < spans.length) {
    let [from, to] = spans[i]!;
    while (++i < spans.length && spans[i]![0] <= to) to = Math.max(to, spans[i]![1]);
    for (let t = from; t < to; t += gap) out.push(Math.ceil(t));
    out.push(Math.ceil(to));
  }
  return out;
}

/** The frames of a recording of `durationMs`, in time order; the first at 0 and a keyframe. */
export function frameSchedule(events: readonly TimelineEvent[], floats: readonly Float[], durationMs: number, layout: DeckLayout, options: ScheduleOptions = SCHEDULE): FrameTime[] {
  const candidates: Change[] = [...pictureChanges(events, layout), ...floatFrames(floats, options.floatGapMs).map((t) => ({ t, slide: false }))];
  candidates.sort((a, b) => a.t - b.t || Number(b.slide) - Number(a.slide));
  const frames: FrameTime[] = [{ t: 0, key: true }];
  const push = (t: number, key: boolean) => {
    const last = frames[frames.length - 1]!;
    if (last.t === t) last.key ||= key;
    else frames.push({ t, key });
  };
  // A frame owed to a change that came too soon after the last frame: it shows the latest picture.
  let owed: number | null = null;
  for (const c of candidates) {
    if (c.t >= durationMs) break;
    if (owed !== null && owed < c.t) {
      push(owed, false);
      owed = null;
    }
    const last = frames[frames.length - 1]!.t;
    if (c.slide) {
      push(c.t, true);
      owed = null;
    } else if (c.t - last >= options.minGapMs) {
      push(c.t, false);
      owed = null;
    } else if (c.t > last) owed ??= Math.ceil(last + options.minGapMs);
  }
  if (owed !== null && owed < durationMs) push(owed, false);
  // A last frame just before the end: the video track lasts as long as the recording (WebM
  // stores no duration for a frame, so a player or ffmpeg would end the picture at the last one).
  const closing = Math.ceil(durationMs - options.minGapMs);
  if (closing > frames[frames.length - 1]!.t) push(closing, false);
  return withKeyframes(frames, durationMs, options.keyEveryMs);
}

/** Keyframes at most `every` apart: a late frame becomes one, and a still stretch gets repeats. */
function withKeyframes(frames: readonly FrameTime[], durationMs: number, every: number): FrameTime[] {
  const out: FrameTime[] = [];
  let lastKey = 0;
  const repeatsUntil = (t: number) => {
    while (lastKey + every < t) {
      lastKey += every;
      out.push({ t: lastKey, key: true });
    }
  };
  for (const frame of frames) {
    repeatsUntil(frame.t);
    const key = frame.key || frame.t - lastKey >= every;
    if (key) lastKey = frame.t;
    out.push({ t: frame.t, key });
  }
  repeatsUntil(durationMs);
  return out;
}
