/**
 * @module client/export/frame-schedule
 * Which instants of a recording need a video frame. A slide talk is mostly still: a picture is
 * drawn and encoded only when it changes — a slide or build step, black or white, the pen, the
 * laser, a zoom, a question or poll shown, the join card — and, while reactions float, at a
 * modest rate until the last one is gone. Moving pen and pointer are capped at a frame rate
 * (the last position is always shown). While nothing changes, the last picture is repeated once
 * a second, not drawn again: an identical frame costs the encoder ~60 bytes and ~9 ms at 1080p,
 * and players that show the first frame at or after the time sought (WebKit's GStreamer,
 * `ffmpeg -ss`) then show the picture of that moment, not the next slide. Each slide change is a keyframe at its
 * own instant (a chapter starts exactly there), and a change 10 s or more after the last
 * keyframe is one too, so seeking decodes at most 10 s of changes; a repeat never is (a still
 * slide's keyframe costs tens of kilobytes, and a run of repeats decodes in no time). A last
 * frame just before the end makes the video as long as the recording. Times are whole
 * milliseconds (WebM's timestamps), rounded up so a frame never shows an event before it
 * happened. Each pass walks the events once, in order (an array, or a stored recording
 * expanded piece by piece: client/export/stored-track). Pure.
 */
import { slideIndexOf, type DeckLayout } from "../model/deck-layout.ts";
import type { Picture, TimelineEvent } from "../record/timeline.ts";
import type { Float } from "./float-track.ts";
import { Replay } from "./replay.ts";

export interface FrameTime {
  t: number;
  key: boolean;
  /** Nothing changed since the frame before: its picture is encoded again, not drawn anew. */
  repeat: boolean;
}

export interface ScheduleOptions {
  /** Shortest gap between frames of moving pen or pointer (the frame-rate cap). */
  minGapMs: number;
  /** Gap between frames while reactions float. */
  floatGapMs: number;
  /** Longest stretch without a frame: the still picture is repeated this often. */
  repeatMs: number;
  /** A change this long after the last keyframe is a keyframe. */
  keyEveryMs: number;
}

export const SCHEDULE: ScheduleOptions = {
  // 30 fps: the pen and the laser move as smoothly as on a projector refreshing at 60 Hz halved; more only costs encoding time.
  minGapMs: 1000 / 30,
  // 15 fps: floats rise slowly (2.4 s over 70 % of the height); a modest rate keeps them fluid at half the frames.
  floatGapMs: 1000 / 15,
  // 1 s: a seek lands on the right picture in players that show the next frame, for ~200 KB and ~30 s of encoding an hour (bench/export.ts).
  repeatMs: 1000,
  // 10 s: seeking decodes at most 10 s of changes (bench/export.ts: size per minute).
  keyEveryMs: 10_000,
};

/** What is drawn, as a string: two pictures that look alike give the same one (media playback is not drawn). */
function look(p: Picture): string {
  const s = p.state;
  const o = s?.overlays;
  // A stroke only grows while drawn (points are appended, never moved): its length tells it apart,
  // without writing out an hour of pen points once per message.
  const live = o?.live ? `${o.live.id}:${o.live.points.length}:${o.live.color}:${o.live.width}` : "";
  const state = s && o ? [s.page, s.blank, s.mode, s.frozen, s.notesPosition ?? "", JSON.stringify(o.pointer), live, JSON.stringify(o.zoom), o.inkHidden, s.ink.map((k) => k.id).join(",")].join("|") : "";
  return `${state}#${JSON.stringify(p.talk)}#${JSON.stringify(p.joinCard)}`;
}

/** A change of the picture at `t` (whole ms); `slide` when the projector went to another slide. */
export interface Change {
  t: number;
  slide: boolean;
}

/** The instants the picture changes, from the events that change what is drawn. */
export function pictureChanges(events: Iterable<TimelineEvent>, layout: DeckLayout): Change[] {
  const replay = new Replay(events);
  const out: Change[] = [];
  let previous = look(replay.at(-Infinity));
  let slide: number | null = null;
  for (let t = replay.next; t !== undefined; t = replay.next) {
    // Several events at one instant: judged once, after the last of them.
    const picture = replay.at(t);
    const now = look(picture);
    if (now === previous) continue;
    previous = now;
    const index = picture.state ? slideIndexOf(layout, picture.state.page) : null;
    const changedSlide = index !== null && slide !== null && index !== slide;
    if (index !== null) slide = index;
    out.push({ t: Math.ceil(t), slide: changedSlide });
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
export function frameSchedule(events: Iterable<TimelineEvent>, floats: readonly Float[], durationMs: number, layout: DeckLayout, options: ScheduleOptions = SCHEDULE): FrameTime[] {
  const candidates: Change[] = [...pictureChanges(events, layout), ...floatFrames(floats, options.floatGapMs).map((t) => ({ t, slide: false }))];
  candidates.sort((a, b) => a.t - b.t || Number(b.slide) - Number(a.slide));
  const frames: FrameTime[] = [{ t: 0, key: true, repeat: false }];
  const push = (t: number, key: boolean) => {
    const last = frames[frames.length - 1]!;
    if (last.t === t) last.key ||= key;
    else frames.push({ t, key, repeat: false });
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
  return withKeyframes(withRepeats(frames, durationMs, options), options.keyEveryMs);
}

/**
 * Repeats of the still picture every `repeatMs` between frames, and a last one just before the
 * end: the video track lasts as long as the recording (WebM stores no duration for a frame, so
 * a player or ffmpeg would end the picture at the last one).
 */
function withRepeats(frames: readonly FrameTime[], durationMs: number, options: ScheduleOptions): FrameTime[] {
  const out: FrameTime[] = [];
  const closing = Math.ceil(durationMs - options.minGapMs);
  frames.forEach((frame, i) => {
    out.push(frame);
    const until = frames[i + 1]?.t ?? closing;
    // None right before the next frame: it shows the picture then anyway.
    for (let t = frame.t + options.repeatMs; t + options.minGapMs <= until; t += options.repeatMs) out.push({ t, key: false, repeat: true });
  });
  if (closing > out[out.length - 1]!.t) out.push({ t: closing, key: false, repeat: true });
  return out;
}

/** A change `every` or more after the last keyframe becomes one (never a repeat: see the module's note). */
function withKeyframes(frames: FrameTime[], every: number): FrameTime[] {
  let lastKey = 0;
  for (const frame of frames) {
    if (!frame.repeat && frame.t - lastKey >= every) frame.key = true;
    if (frame.key) lastKey = frame.t;
  }
  return frames;
}
