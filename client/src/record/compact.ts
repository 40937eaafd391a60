/**
 * @module client/record/compact
 * A stored piece's events, smaller: while the pen draws, every overlay message carries the
 * whole stroke drawn so far, so a two-second stroke sent at 60 Hz would be stored as 120
 * ever-longer copies of itself (about 200 KB: ten times the sound of those two seconds). An
 * overlay event whose stroke being drawn only grew since the overlay event before it in the
 * same piece is kept as the points added; everything else is kept as it came. Each piece is
 * compacted on its own, so any piece reads back without the ones before it. Pure.
 */
import type { Overlays } from "../presenter/state.ts";
import type { PictureMessage, TimelineEvent } from "./timeline.ts";

type OverlayMessage = Extract<PictureMessage, { type: "overlay" }>;

/**
 * An overlay event whose stroke being drawn grew: `keep` points (flat numbers) of the stroke
 * in the overlay event before it, then `add`; its pointer and input time as they came. The
 * stroke's colour and width, the zoom and the hidden-ink flag are the previous event's.
 */
export interface GrownStrokeEvent {
  t: number;
  grown: { keep: number; add: number[]; pointer: Overlays["pointer"]; at: number };
}

export type StoredEvent = TimelineEvent | GrownStrokeEvent;

function isGrown(event: StoredEvent): event is GrownStrokeEvent {
  return "grown" in event;
}

/** How many leading numbers `prefix` shares with `points`, if all of it; else -1. */
function sharedPrefix(prefix: readonly number[], points: readonly number[]): number {
  if (prefix.length > points.length) return -1;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== points[i]) return -1;
  return prefix.length;
}

/** Whether `next` is `previous` with only the live stroke grown (and the pointer moved). */
function grownFrom(previous: OverlayMessage, next: OverlayMessage): number {
  const a = previous.overlays;
  const b = next.overlays;
  if (!a.live || !b.live || a.zoom !== b.zoom || a.inkHidden !== b.inkHidden) return -1;
  if (a.live.id !== b.live.id || a.live.color !== b.live.color || a.live.width !== b.live.width || a.live.simulated !== b.live.simulated) return -1;
  return sharedPrefix(a.live.points, b.live.points);
}

/** The events of one piece as they are stored. */
export function compactEvents(events: readonly TimelineEvent[]): StoredEvent[] {
  let previous: OverlayMessage | null = null;
  return events.map((event): StoredEvent => {
    if (event.m.type !== "overlay") return event;
    const before = previous;
    previous = event.m;
    const keep = before ? grownFrom(before, event.m) : -1;
    if (keep < 0) return event;
    return { t: event.t, grown: { keep, add: event.m.overlays.live!.points.slice(keep), pointer: event.m.overlays.pointer, at: event.m.at } };
  });
}

/** One stored piece's events as they came (the inverse of compactEvents). */
export function expandEvents(stored: readonly StoredEvent[]): TimelineEvent[] {
  let previous: OverlayMessage | null = null;
  const out: TimelineEvent[] = [];
  for (const event of stored) {
    if (!isGrown(event)) {
      if (event.m.type === "overlay") previous = event.m;
      out.push(event);
      continue;
    }
    // A grown event always follows an overlay event of its piece (compactEvents writes it so).
    if (!previous?.overlays.live) continue;
    const live = previous.overlays.live;
    const overlays: Overlays = { ...previous.overlays, pointer: event.grown.pointer, live: { ...live, points: live.points.slice(0, event.grown.keep).concat(event.grown.add) } };
    previous = { type: "overlay", overlays, at: event.grown.at };
    out.push({ t: event.t, m: previous });
  }
  return out;
}
