/**
 * @module client/record/rehearsal
 * A rehearsal as the pace reads it: a recording of kind "rehearsal" (with or without the
 * microphone) whose timeline, cut by slide, gives the seconds per slide that become the next
 * talk's plan (./pace.ts). Which recording that is — the deck's newest rehearsal — and its
 * times, in the one shape the pace uses (seconds by slide index). Pure.
 */
import type { DeckLayout } from "../presenter/deck-layout.ts";
import { slideSeconds } from "./pace.ts";
import { slideSpans, timePerSlide, type TimelineEvent } from "./timeline.ts";

/** A rehearsal's picture track and length, as the presenter keeps it for the pace. */
export interface RehearsalTimeline {
  events: readonly TimelineEvent[];
  durationMs: number;
}

/**
 * A recording's seconds per slide: its timeline cut where the slide changes (by this layout's
 * grouping), each slide's spans added up. The feed from a rehearsal recording to its plan.
 */
export function recordingSlideSeconds(events: readonly TimelineEvent[], layout: DeckLayout, durationMs: number): number[] {
  return slideSeconds(timePerSlide(slideSpans(events, layout, durationMs)), layout.slides.length, 1 / 1000);
}

/** What the pace needs to know of a stored recording (client/storage/recording-store RecordingRecord). */
export interface RecordingSummary {
  kind: "talk" | "rehearsal";
  state: "recording" | "interrupted" | "stopped";
  createdAt: number;
  durationMs: number;
}

/**
 * The recording the next talk is paced by: the newest rehearsal with some length. One being
 * recorded now is not the last rehearsal yet (it becomes it when stopped); one a crash
 * interrupted counts for the time it has.
 */
export function lastRehearsal<R extends RecordingSummary>(recordings: readonly R[]): R | null {
  let best: R | null = null;
  for (const r of recordings) {
    if (r.kind !== "rehearsal" || r.state === "recording" || !(r.durationMs > 0)) continue;
    if (!best || r.createdAt > best.createdAt) best = r;
  }
  return best;
}
