/**
 * @module client/export/float-track
 * Reactions floating over the slide, as an exported video shows them: each tick of reactions
 * recorded while the presenter had them on the projector floats the same emoji the audience
 * window floated (client/live/talk/reaction-floats: one per tap, at most FLOATS_PER_TICK a tick,
 * MAX_FLOATING at once), rising and fading as its CSS animation does. The window places each
 * at random; here the places come from a generator seeded by the tick, so an export is the same
 * every time and any instant can be drawn on its own. Turning reactions off takes the floating
 * ones away at once, as it empties the window's layer. Pure; no DOM.
 */
import { FLOATS_PER_TICK, MAX_FLOATING } from "../live/talk/reaction-floats.ts";
import { floatsOf } from "../live/talk/talk-model.ts";
import type { TimelineEvent } from "../record/timeline.ts";

/** The CSS animation's length (`.reaction-float`, `reaction-rise 2.4s` in client/styles/talk-back.css). */
export const RISE_MS = 2400;
/** The window staggers each float by up to this much (`animationDelay`, 0–300 ms). */
const MAX_DELAY_MS = 300;

export interface Float {
  emoji: string;
  /** Left edge as a fraction of the picture's width (the window's 5–90 %). */
  x: number;
  /** When it starts rising, ms on the recording's clock. */
  start: number;
  /** When it is gone: the animation's end, or earlier when reactions were turned off. */
  end: number;
}

/** A small, fast, seedable generator (mulberry32): the same tick always gives the same places. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every float of the recording, in the order they start. */
export function floatTrack(events: Iterable<TimelineEvent>): Float[] {
  const floats: Float[] = [];
  let shown = false;
  // The event's place in the whole track seeds its places (with its time).
  let index = -1;
  for (const event of events) {
    index++;
    const m = event.m;
    if (m.type === "talk") {
      if (shown && !m.talk.reactions) for (const f of floats) if (f.end > event.t) f.end = Math.max(f.start, event.t);
      shown = m.talk.reactions;
      continue;
    }
    if (m.type !== "talk-reactions" || !shown) continue;
    const random = generator(index * 2654435761 + Math.round(event.t));
    // The window's layer holds a float from its tick until its animation ends.
    let floating = floats.filter((f) => f.start - MAX_DELAY_MS <= event.t && event.t < f.end).length;
    for (const emoji of floatsOf(m.counts, FLOATS_PER_TICK)) {
      if (floating >= MAX_FLOATING) break;
      const x = 0.05 + random() * 0.85;
      const start = event.t + Math.round(random() * MAX_DELAY_MS);
      floats.push({ emoji, x, start, end: start + RISE_MS });
      floating++;
    }
  }
  return floats.filter((f) => f.end > f.start).sort((a, b) => a.start - b.start);
}

/** CSS's `ease-out`, cubic-bezier(0, 0, 0.58, 1), at progress `x` (0–1). */
export function easeOut(x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  // Solve the curve's x(s) = x for s by bisection (x(s) rises monotonically), then give y(s).
  const bx = (s: number) => 3 * (1 - s) * s * s * 0.58 + s * s * s;
  const by = (s: number) => 3 * (1 - s) * s * s + s * s * s;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 30; i++) {
    const mid = (lo + hi) / 2;
    if (bx(mid) < x) lo = mid;
    else hi = mid;
  }
  return by((lo + hi) / 2);
}

/** Where a float is at `t`: how far up (a fraction of 70 % of the height), its scale and opacity; null when not shown. */
export function floatPose(float: Float, t: number): { rise: number; scale: number; opacity: number } | null {
  if (t < float.start || t >= float.end) return null;
  const p = (t - float.start) / RISE_MS;
  // The keyframes: transform over the whole run; opacity 0 → 1 by 12 %, then → 0 at the end, each part eased.
  const moved = easeOut(p);
  const opacity = p < 0.12 ? easeOut(p / 0.12) : 1 - easeOut((p - 0.12) / 0.88);
  return { rise: moved, scale: 0.8 + 0.35 * moved, opacity };
}

/** The floats on screen at `t` (a binary search would do; a talk has a few hundred at most). */
export function floatsAt(floats: readonly Float[], t: number): Float[] {
  return floats.filter((f) => f.start <= t && t < f.end);
}
