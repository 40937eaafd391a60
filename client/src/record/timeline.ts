/**
 * @module client/record/timeline
 * A recording's picture track. What is recorded is not the screen but the audience window's
 * own input: every message the presenter sends it (the audience state, the small overlay
 * moves of the pointer and the pen, the question or poll results shown, reactions floating
 * while they are on the projector, the live talk's join card), each with its time on the
 * recording's clock — the clock of the recorded audio, which stops while the recording is
 * paused. Replayed through the same rules the audience window follows, it gives the picture
 * the room saw at any moment, so the video is rendered afterwards from the PDF at full
 * resolution, and a player inside deckhand can show it without any video at all.
 *
 * Pure data and functions, no DOM: the presenter (which records), the player and the export
 * worker (which replay) and the pace (which reads slide times) all share it.
 */
import type { ChannelMessageBody } from "../presenter/channel.ts";
import type { AudienceState } from "../presenter/audience.ts";
import type { ProjectedTalk } from "../live/talk/talk-model.ts";
import { NOTHING_PROJECTED } from "../live/talk/talk-model.ts";
import { slideIndexOf, type DeckLayout } from "../model/deck-layout.ts";

/** The messages that change what the projector shows: nothing else is recorded. */
export type PictureMessage = Extract<ChannelMessageBody, { type: "state" | "overlay" | "talk" | "talk-reactions" | "join-card" }>;

const PICTURE_TYPES: ReadonlySet<string> = new Set<PictureMessage["type"]>(["state", "overlay", "talk", "talk-reactions", "join-card"]);

/** Whether a channel message changes the projector's picture (and so belongs in a recording). */
export function isPictureMessage(message: ChannelMessageBody): message is PictureMessage {
  return PICTURE_TYPES.has(message.type);
}

/**
 * One change of the picture: `t` is milliseconds on the recording's clock (0 = its start). A
 * recorded state's media carry their `at` on that clock too, not the wall clock
 * (./media-time.ts): a medium playing at event time `t` is at `time + (t' − at) / 1000` s at `t'`.
 */
export interface TimelineEvent {
  t: number;
  m: PictureMessage;
}

/** Everything the projector shows at one moment, as the audience window would draw it. */
export interface Picture {
  /** Null before the first state message (nothing to draw yet: black). */
  state: AudienceState | null;
  talk: ProjectedTalk;
  joinCard: { code: string; viewerUrl: string } | null;
}

export const EMPTY_PICTURE: Picture = { state: null, talk: NOTHING_PROJECTED, joinCard: null };

/**
 * The picture after `message`, by the audience window's own rules: a state replaces the
 * state; an overlay message moves only the overlays of the state in force; the talk and the
 * join card replace theirs. Reactions change no lasting picture (they float and go): a
 * renderer that draws them reads the `talk-reactions` events themselves.
 */
export function applyMessage(picture: Picture, message: PictureMessage): Picture {
  switch (message.type) {
    case "state":
      return { ...picture, state: message.state };
    case "overlay":
      return picture.state ? { ...picture, state: { ...picture.state, overlays: message.overlays } } : picture;
    case "talk":
      return { ...picture, talk: message.talk };
    case "join-card":
      return { ...picture, joinCard: message.card };
    case "talk-reactions":
      return picture;
  }
}

/** Index of the first event after time `t` in events sorted by time (binary search). */
export function eventsUpTo(events: readonly TimelineEvent[], t: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (events[mid]!.t <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The picture at time `t` (every event at or before `t` applied, in order). */
export function pictureAt(events: readonly TimelineEvent[], t: number): Picture {
  let picture = EMPTY_PICTURE;
  const end = eventsUpTo(events, t);
  for (let i = 0; i < end; i++) picture = applyMessage(picture, events[i]!.m);
  return picture;
}

/** A stretch of the recording on one slide (a slide visited twice has two spans). */
export interface SlideSpan {
  /** Index into the layout's slides (0-based). */
  slide: number;
  /** The page shown when the span began (the slide's first page reached). */
  page: number;
  startMs: number;
  endMs: number;
}

/**
 * The recording cut where the slide changes, from `startMs` 0 to `durationMs`: each span
 * names the slide the projector showed (by the layout's grouping of pages into slides, so
 * the build steps of a slide are one span). Time before the first state counts to the first
 * slide shown; a blank screen does not end a span (the talk is still on that slide).
 */
export function slideSpans(events: Iterable<TimelineEvent>, layout: DeckLayout, durationMs: number): SlideSpan[] {
  const spans: SlideSpan[] = [];
  for (const event of events) {
    if (event.m.type !== "state") continue;
    const page = event.m.state.page;
    const slide = slideIndexOf(layout, page);
    const last = spans[spans.length - 1];
    if (last && last.slide === slide) continue;
    const at = Math.min(Math.max(0, event.t), durationMs);
    if (last) last.endMs = at;
    spans.push({ slide, page, startMs: spans.length ? at : 0, endMs: durationMs });
  }
  // Spans a slide change cut to nothing (two changes at one instant) are dropped.
  return spans.filter((s) => s.endMs > s.startMs);
}

/** Milliseconds spent on each slide (index → ms), all of its spans together. */
export function timePerSlide(spans: readonly SlideSpan[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const s of spans) out.set(s.slide, (out.get(s.slide) ?? 0) + (s.endMs - s.startMs));
  return out;
}

/** One chapter of an exported file: a slide span with its title. */
export interface Chapter {
  startMs: number;
  endMs: number;
  title: string;
}

/**
 * A chapter per slide span, titled by `title(span)` (the PDF outline's entry for the slide,
 * else "Slide <label>"), so a player's chapter list is the talk's path through the deck.
 */
export function chapters(spans: readonly SlideSpan[], title: (span: SlideSpan) => string): Chapter[] {
  return spans.map((span) => ({ startMs: span.startMs, endMs: span.endMs, title: title(span) }));
}
