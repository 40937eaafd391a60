/**
 * The recording's picture track (client/record/timeline): the picture at any time is the
 * audience window's, replayed; slide spans and chapters follow the deck's grouping of pages.
 */
import { describe, expect, test } from "bun:test";
import type { AudienceState } from "../../client/src/presenter/audience.ts";
import { layoutFromLabels } from "../../client/src/model/deck-layout.ts";
import { NO_OVERLAYS } from "../../client/src/presenter/state.ts";
import { applyMessage, chapters, EMPTY_PICTURE, eventsUpTo, isPictureMessage, pictureAt, slideSpans, timePerSlide, type TimelineEvent } from "../../client/src/record/timeline.ts";

const state = (page: number, extra: Partial<AudienceState> = {}): AudienceState => ({ page, blank: "none", mode: "normal", overlays: NO_OVERLAYS, ink: [], media: {}, frozen: false, ...extra });
const at = (t: number, m: TimelineEvent["m"]): TimelineEvent => ({ t, m });

// Pages 1–2 are slide "1" (a build), page 3 slide "2", page 4 slide "3".
const layout = layoutFromLabels(["1", "1", "2", "3"]);

describe("the picture at a time", () => {
  const pointer = { ...NO_OVERLAYS, pointer: { x: 10, y: 20, r: 7 } };
  const events: TimelineEvent[] = [
    at(0, { type: "state", state: state(1) }),
    at(500, { type: "overlay", overlays: pointer, at: 0 }),
    at(1000, { type: "talk", talk: { question: { text: "Why?" }, poll: null, reactions: false } }),
    at(1500, { type: "join-card", card: { code: "ABCDEF", viewerUrl: "http://x/live/ABCDEF" } }),
    at(2000, { type: "state", state: state(3, { blank: "black" }) }),
  ];

  test("only picture messages are recorded", () => {
    expect(isPictureMessage({ type: "state", state: state(1) })).toBe(true);
    expect(isPictureMessage({ type: "hello" })).toBe(false);
    expect(isPictureMessage({ type: "bye" })).toBe(false);
    expect(isPictureMessage({ type: "command", action: "next" })).toBe(false);
  });

  test("before the first state the picture is empty (black)", () => {
    expect(pictureAt(events, -1)).toEqual(EMPTY_PICTURE);
  });

  test("an overlay message moves only the overlays of the state in force", () => {
    const p = pictureAt(events, 700);
    expect(p.state?.page).toBe(1);
    expect(p.state?.overlays.pointer).toEqual({ x: 10, y: 20, r: 7 });
    // Without a state there is nothing to move.
    expect(applyMessage(EMPTY_PICTURE, { type: "overlay", overlays: pointer, at: 0 })).toBe(EMPTY_PICTURE);
  });

  test("talk and join card are kept until replaced; a new state replaces the state whole", () => {
    const p = pictureAt(events, 2500);
    expect(p.talk.question?.text).toBe("Why?");
    expect(p.joinCard?.code).toBe("ABCDEF");
    expect(p.state).toEqual(state(3, { blank: "black" }));
  });

  test("eventsUpTo counts the events at or before t", () => {
    expect(eventsUpTo(events, -1)).toBe(0);
    expect(eventsUpTo(events, 500)).toBe(2);
    expect(eventsUpTo(events, 99_999)).toBe(events.length);
  });
});

describe("slide spans, times and chapters", () => {
  const events: TimelineEvent[] = [
    at(100, { type: "state", state: state(1) }),
    at(4000, { type: "state", state: state(2) }), // the build's second step: the same slide
    at(6000, { type: "state", state: state(2, { blank: "black" }) }), // black: still on it
    at(9000, { type: "state", state: state(3) }),
    at(9000, { type: "state", state: state(4) }), // two changes at one instant: no empty span
    at(12_000, { type: "state", state: state(1) }), // back to the first slide: a second span
  ];

  test("a span per visit of a slide, from 0 to the end of the recording", () => {
    expect(slideSpans(events, layout, 15_000)).toEqual([
      { slide: 0, page: 1, startMs: 0, endMs: 9000 },
      { slide: 2, page: 4, startMs: 9000, endMs: 12_000 },
      { slide: 0, page: 1, startMs: 12_000, endMs: 15_000 },
    ]);
  });

  test("times per slide add the visits together", () => {
    expect([...timePerSlide(slideSpans(events, layout, 15_000))]).toEqual([
      [0, 12_000],
      [2, 3000],
    ]);
  });

  test("a chapter per span, titled by the caller", () => {
    const spans = slideSpans(events, layout, 15_000);
    expect(chapters(spans, (s) => `Slide ${layout.slides[s.slide]!.label}`)).toEqual([
      { startMs: 0, endMs: 9000, title: "Slide 1" },
      { startMs: 9000, endMs: 12_000, title: "Slide 3" },
      { startMs: 12_000, endMs: 15_000, title: "Slide 1" },
    ]);
  });

  test("no state at all: no spans", () => {
    expect(slideSpans([], layout, 5000)).toEqual([]);
  });
});
