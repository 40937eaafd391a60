/**
 * @module client/presenter/media-sync
 * Keeps the audience's copy of each medium in step with the presenter's. The presenter's
 * copy is the one the speaker drives (play, pause, seek); its events, and a heartbeat while
 * it plays, become `media` actions with the position and the wall-clock time it was read.
 * The audience's copy follows: it plays, pauses and seeks to where the presenter's copy is
 * now, lets a finished non-looping medium run to its own end, and falls silent and still
 * while the screen is black or white.
 */
import { loops } from "../lib/media.ts";
import type { Blank, MediaPlayback } from "./state.ts";
import { expectedTime } from "./audience.ts";

/** Seconds the audience copy may be off before it is moved: 0.25 s is about where a viewer sees the two copies drift apart. */
export const MAX_DRIFT_S = 0.2;
/** How often a playing medium reports its position, so drift is corrected between events. */
export const HEARTBEAT_MS = 1000;

function reading(el: HTMLMediaElement, now: number): MediaPlayback {
  const playback: MediaPlayback = { playing: !el.paused && !el.ended, time: el.currentTime, at: now };
  if (el.ended) playback.ended = true;
  return playback;
}

/**
 * Report the presenter's media: every play, pause, seek, rate change and end, and a
 * heartbeat while playing. An autoplaying medium is reported as playing from the start, so
 * the audience never pauses its copy in the moment before the presenter's begins.
 */
export function reportMedia(elements: Map<string, HTMLMediaElement>, autoplay: Set<string>, report: (id: string, playback: MediaPlayback) => void, now = () => Date.now()): () => void {
  const cleanups: (() => void)[] = [];
  for (const [id, el] of elements) {
    if (autoplay.has(id)) report(id, { playing: true, time: 0, at: now() });
    const send = () => report(id, reading(el, now()));
    for (const type of ["play", "pause", "seeked", "ratechange", "ended"]) {
      el.addEventListener(type, send);
      cleanups.push(() => el.removeEventListener(type, send));
    }
  }
  const beat = setInterval(() => {
    for (const [id, el] of elements) if (!el.paused) report(id, reading(el, now()));
  }, HEARTBEAT_MS);
  cleanups.push(() => clearInterval(beat));
  return () => cleanups.forEach((c) => c());
}

/** The position to seek to for `target` seconds in a medium that may loop. */
function wrap(el: HTMLMediaElement, target: number): number {
  const d = el.duration;
  if (loops(el) && Number.isFinite(d) && d > 0) return target % d;
  return Number.isFinite(d) && d > 0 ? Math.min(target, d) : target;
}

/**
 * How far the copy is from `target`: for a looping medium, the shorter way round the loop. A
 * copy a moment from its end is not seeked to the start the presenter's copy just wrapped to:
 * its own loop gets there, without the stutter of a seek.
 */
function drift(el: HTMLMediaElement, target: number): number {
  const apart = Math.abs(el.currentTime - target);
  const d = el.duration;
  return loops(el) && Number.isFinite(d) && d > 0 ? Math.min(apart, d - apart) : apart;
}

/** Whether the browser refused sound for this element (autoplay policy): it stays muted. */
const soundRefused = new WeakSet<HTMLMediaElement>();

function play(el: HTMLMediaElement) {
  void el.play().catch((error: { name?: string }) => {
    if (error?.name !== "NotAllowedError") return;
    // Autoplay with sound was refused: play muted rather than not at all.
    soundRefused.add(el);
    el.muted = true;
    void el.play().catch(() => {});
  });
}

/** Bring one audience element to the presenter's playback (or to rest while blanked). */
export function follow(el: HTMLMediaElement, playback: MediaPlayback | undefined, blank: Blank, now = Date.now()): void {
  if (blank !== "none") {
    el.muted = true;
    if (!el.paused) el.pause();
    return;
  }
  el.muted = soundRefused.has(el);
  if (!playback) return;
  if (el.readyState >= 1 && !(playback.ended && !playback.playing)) {
    const target = wrap(el, expectedTime(playback, now));
    if (drift(el, target) > MAX_DRIFT_S) el.currentTime = target;
  }
  if (playback.playing && el.paused) play(el);
  // A medium the presenter's copy finished is left to finish here too, not cut short.
  else if (!playback.playing && !playback.ended && !el.paused) el.pause();
}
