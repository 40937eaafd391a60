/**
 * The one road from the presenter to its audience window is also the recording's
 * (client/record/tap): every post goes on unchanged, exactly the picture messages reach the
 * recording, and the picture as it stands can start a recording mid-talk. Playing back
 * (client/record/timeline-cursor) moves that picture on event by event and floats the reactions
 * crossed, and rebuilds it after a seek.
 */
import { describe, expect, test } from "bun:test";
import type { AudienceState } from "../../client/src/presenter/audience.ts";
import type { ChannelMessageBody } from "../../client/src/presenter/channel.ts";
import { NO_OVERLAYS } from "../../client/src/presenter/state.ts";
import { snapshotOf, tapChannel } from "../../client/src/record/tap.ts";
import { TimelineCursor } from "../../client/src/record/timeline-cursor.ts";
import { pictureAt, type PictureMessage, type TimelineEvent } from "../../client/src/record/timeline.ts";
import { NOTHING_PROJECTED } from "../../client/src/live/talk-model.ts";

const state = (page: number, extra: Partial<AudienceState> = {}): AudienceState => ({ page, blank: "none", mode: "normal", overlays: NO_OVERLAYS, ink: [], media: {}, frozen: false, ...extra });

describe("the tapped channel", () => {
  test("posts everything on, and hands exactly the picture messages to the recording", () => {
    const posted: ChannelMessageBody[] = [];
    const heard: PictureMessage[] = [];
    const channel = tapChannel({ post: (m) => posted.push(m), close: () => {} }, (m) => heard.push(m));
    const messages: ChannelMessageBody[] = [
      { type: "state", state: state(1) },
      { type: "place", placement: { left: 0, top: 0, width: 10, height: 10 } },
      { type: "overlay", overlays: { ...NO_OVERLAYS, pointer: { x: 1, y: 2, r: 7 } }, at: 5 },
      { type: "join-card", card: { code: "K7Q4PZ", viewerUrl: "https://x/live/K7Q4PZ" } },
      { type: "talk", talk: { question: { text: "Why?" }, poll: null, reactions: true } },
      { type: "talk-reactions", counts: { "👏": 3 } as never },
      { type: "bye" },
    ];
    for (const m of messages) channel.post(m);
    expect(posted).toEqual(messages);
    expect(heard.map((m) => m.type)).toEqual(["state", "overlay", "join-card", "talk", "talk-reactions"]);
  });

  test("keeps the picture as it stands: a recording started now opens with it", () => {
    const channel = tapChannel({ post: () => {}, close: () => {} }, () => {});
    expect(channel.snapshot()).toEqual([]);
    channel.post({ type: "state", state: state(3, { blank: "black" }) });
    channel.post({ type: "overlay", overlays: { ...NO_OVERLAYS, pointer: { x: 5, y: 6, r: 7 } }, at: 0 });
    channel.post({ type: "join-card", card: { code: "ABCDEF", viewerUrl: "u" } });
    const snapshot = channel.snapshot();
    expect(snapshot.map((m) => m.type)).toEqual(["state", "talk", "join-card"]);
    // Replayed alone, the snapshot draws the same picture.
    const replayed = pictureAt(snapshot.map((m) => ({ t: 0, m })), 0);
    expect(replayed).toEqual(channel.picture());
    expect(replayed.state?.overlays.pointer).toEqual({ x: 5, y: 6, r: 7 });
    expect(replayed.talk).toEqual(NOTHING_PROJECTED);
    expect(snapshotOf(channel.picture())).toEqual(snapshot);
  });
});

describe("playing a timeline back", () => {
  const events: TimelineEvent[] = [
    { t: 0, m: { type: "state", state: state(1) } },
    { t: 100, m: { type: "talk", talk: { question: null, poll: null, reactions: true } } },
    { t: 200, m: { type: "talk-reactions", counts: { "👏": 1 } as never } },
    { t: 300, m: { type: "talk-reactions", counts: { "❤️": 2 } as never } },
    { t: 5000, m: { type: "state", state: state(2) } },
  ];

  test("moves on event by event, floating the reactions crossed", () => {
    const cursor = new TimelineCursor(events);
    expect(cursor.moveTo(0).picture.state?.page).toBe(1);
    const step = cursor.moveTo(250);
    expect(step.jumped).toBe(false);
    expect(step.reactions).toEqual([{ "👏": 1 }]);
    expect(cursor.moveTo(400).reactions).toEqual([{ "❤️": 2 }]);
    expect(cursor.moveTo(400).reactions).toEqual([]);
  });

  test("a seek back or far ahead rebuilds the picture and floats nothing", () => {
    const cursor = new TimelineCursor(events);
    cursor.moveTo(400);
    const ahead = cursor.moveTo(6000);
    expect(ahead.jumped).toBe(true);
    expect(ahead.reactions).toEqual([]);
    expect(ahead.picture.state?.page).toBe(2);
    const back = cursor.moveTo(150);
    expect(back.jumped).toBe(true);
    expect(back.picture).toEqual(pictureAt(events, 150));
    expect(cursor.moveTo(350).reactions).toEqual([{ "👏": 1 }, { "❤️": 2 }]);
  });
});
