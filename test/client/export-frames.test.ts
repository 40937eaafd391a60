/**
 * Which instants of a recording get a video frame (client/export/frame-schedule) and how
 * reactions float in the video (client/export/float-track): frames only when the picture
 * changes, keyframes at slide changes and at least every 10 s, the pen and pointer capped at
 * 30 fps with their last position always shown, floats at 15 fps while they last; a stored
 * recording walked piece by piece, compacted, gives what the same events in one array give.
 */
import { describe, expect, test } from "bun:test";
import { easeOut, floatPose, floatsAt, floatTrack, RISE_MS } from "../../client/src/export/float-track.ts";
import { frameSchedule, pictureChanges, SCHEDULE } from "../../client/src/export/frame-schedule.ts";
import { Replay } from "../../client/src/export/replay.ts";
import { recordingChapters } from "../../client/src/export/chapter-titles.ts";
import { expandedTrack } from "../../client/src/export/stored-track.ts";
import { compactEvents } from "../../client/src/record/compact.ts";
import type { AudienceState } from "../../client/src/presenter/audience.ts";
import { layoutFromLabels } from "../../client/src/model/deck-layout.ts";
import type { Stroke } from "../../client/src/presenter/ink.ts";
import { NO_OVERLAYS } from "../../client/src/presenter/state.ts";
import { pictureAt, type TimelineEvent } from "../../client/src/record/timeline.ts";

const state = (page: number, extra: Partial<AudienceState> = {}): AudienceState => ({ page, blank: "none", mode: "normal", overlays: NO_OVERLAYS, ink: [], media: {}, frozen: false, ...extra });
const at = (t: number, m: TimelineEvent["m"]): TimelineEvent => ({ t, m });
// Pages 1–2 are slide "1" (a build), page 3 slide "2", page 4 slide "3".
const layout = layoutFromLabels(["1", "1", "2", "3"]);
const stroke = (id: string, points: number[]): Stroke => ({ id, color: "#e11d48", width: 4, points });
const reactionsOn = { question: null, poll: null, reactions: true };

describe("the replay cursor", () => {
  test("gives the picture pictureAt gives, at each of a run of increasing times", () => {
    const events = [at(0, { type: "state", state: state(1) }), at(10, { type: "overlay", overlays: { ...NO_OVERLAYS, pointer: { x: 1, y: 2, r: 7 } }, at: 0 }), at(20, { type: "state", state: state(3) })];
    const replay = new Replay(events);
    for (const t of [-1, 0, 5, 10, 15, 20, 99]) expect(replay.at(t)).toEqual(pictureAt(events, t));
  });

  test("walks any iterable of events once, holding the next one: a generator gives the same pictures", () => {
    const events = [at(0, { type: "state", state: state(1) }), at(10, { type: "overlay", overlays: { ...NO_OVERLAYS, pointer: { x: 1, y: 2, r: 7 } }, at: 0 }), at(10, { type: "state", state: state(3) }), at(20, { type: "state", state: state(4) })];
    let taken = 0;
    const replay = new Replay(
      (function* () {
        for (const e of events) {
          taken++;
          yield e;
        }
      })(),
    );
    expect(replay.next).toBe(0);
    expect(taken).toBe(1);
    expect(replay.at(10)).toEqual(pictureAt(events, 10));
    // Both events of 10 ms applied; the one of 20 ms taken, not applied.
    expect([replay.next, taken]).toEqual([20, 4]);
    expect(replay.at(99)).toEqual(pictureAt(events, 99));
    expect(replay.next).toBeUndefined();
  });
});

/** The frames that are not repeats of a still picture, as [t, key]. */
const drawn = (frames: { t: number; key: boolean; repeat: boolean }[]) => frames.filter((f) => !f.repeat).map((f) => [f.t, f.key]);

describe("frames only when the picture changes", () => {
  test("a still talk: a keyframe at 0 and at the slide change, the still picture repeated every second, a frame just before the end", () => {
    const events = [at(0, { type: "state", state: state(1) }), at(4000.4, { type: "state", state: state(3) })];
    expect(frameSchedule(events, [], 6500, layout)).toEqual([
      { t: 0, key: true, repeat: false },
      { t: 1000, key: false, repeat: true },
      { t: 2000, key: false, repeat: true },
      { t: 3000, key: false, repeat: true },
      // Rounded up: the frame never shows the slide before it came.
      { t: 4001, key: true, repeat: false },
      { t: 5001, key: false, repeat: true },
      { t: 6001, key: false, repeat: true },
      // One frame before the end: the video lasts as long as the recording.
      { t: 6467, key: false, repeat: true },
    ]);
  });

  test("a still minute has no keyframe but the first: repeats are never keyframes", () => {
    const frames = frameSchedule([at(0, { type: "state", state: state(1) })], [], 60_000, layout);
    expect(frames.filter((f) => f.key).map((f) => f.t)).toEqual([0]);
    expect(frames).toHaveLength(61);
  });

  test("a build step and black are frames but not keyframes; a state that changes only media playback is no frame", () => {
    const events = [
      at(0, { type: "state", state: state(1) }),
      at(1000, { type: "state", state: state(2) }),
      at(2000, { type: "state", state: state(2, { media: { v: { playing: true, time: 0, at: 0 } } }) }),
      at(3000, { type: "state", state: state(2, { blank: "black" }) }),
      at(4000, { type: "state", state: state(4) }),
    ];
    expect(pictureChanges(events, layout)).toEqual([
      { t: 0, slide: false },
      { t: 1000, slide: false },
      { t: 3000, slide: false },
      { t: 4000, slide: true },
    ]);
    expect(drawn(frameSchedule(events, [], 5000, layout))).toEqual([
      [0, true],
      [1000, false],
      [3000, false],
      [4000, true],
    ]);
  });

  test("a pen stroke at 60 Hz gives at most 30 frames a second, the finished stroke included", () => {
    const events: TimelineEvent[] = [at(0, { type: "state", state: state(1, { mode: "pen" }) })];
    let points: number[] = [];
    for (let i = 0; i < 60; i++) {
      points = [...points, 100 + i, 100, 0.5];
      events.push(at(1000 + i * (1000 / 60), { type: "overlay", overlays: { ...NO_OVERLAYS, live: stroke("s", points) }, at: 0 }));
    }
    const done = 1000 + 59 * (1000 / 60);
    events.push(at(done + 5, { type: "state", state: state(1, { mode: "pen", ink: [stroke("s", points)] }) }));
    const frames = frameSchedule(events, [], 3000, layout);
    const moving = frames.filter((f) => f.t >= 1000 && f.t <= done + 40);
    for (let i = 1; i < moving.length; i++) expect(moving[i]!.t - moving[i - 1]!.t).toBeGreaterThanOrEqual(Math.floor(SCHEDULE.minGapMs));
    expect(moving.every((f) => !f.repeat)).toBe(true);
    expect(moving.length).toBeGreaterThanOrEqual(30);
    expect(moving.length).toBeLessThanOrEqual(32);
    // The last drawn frame shows the committed stroke: nothing after it is left unshown.
    const last = frames.filter((f) => !f.repeat).at(-1)!;
    expect(last.t).toBeGreaterThanOrEqual(Math.ceil(done + 5));
    expect(pictureAt(events, last.t).state?.ink).toHaveLength(1);
  });

  test("a slide change is a keyframe at its own instant even right after a pointer frame", () => {
    const events = [
      at(0, { type: "state", state: state(1, { mode: "pointer" }) }),
      at(500, { type: "overlay", overlays: { ...NO_OVERLAYS, pointer: { x: 5, y: 5, r: 7 } }, at: 0 }),
      at(510, { type: "state", state: state(3, { mode: "pointer" }) }),
    ];
    expect(drawn(frameSchedule(events, [], 2000, layout))).toEqual([
      [0, true],
      [500, false],
      [510, true],
    ]);
  });

  test("pointer moves for 25 s without a slide change: a keyframe at least every 10 s", () => {
    const events: TimelineEvent[] = [at(0, { type: "state", state: state(1, { mode: "pointer" }) })];
    for (let t = 100; t < 25_000; t += 100) events.push(at(t, { type: "overlay", overlays: { ...NO_OVERLAYS, pointer: { x: t / 100, y: 5, r: 7 } }, at: 0 }));
    const frames = frameSchedule(events, [], 26_000, layout);
    // One a move (every 100 ms), no repeats between them; repeats after the last move.
    expect(drawn(frames)).toHaveLength(250);
    expect(frames.filter((f) => f.key).map((f) => f.t)).toEqual([0, 10_000, 20_000]);
  });

  test("nothing at or after the end", () => {
    const events = [at(0, { type: "state", state: state(1) }), at(999, { type: "state", state: state(3) })];
    expect(frameSchedule(events, [], 999, layout)).toEqual([
      { t: 0, key: true, repeat: false },
      { t: 966, key: false, repeat: true },
    ]);
    // A recording shorter than a frame: the one at 0.
    expect(frameSchedule(events, [], 20, layout)).toEqual([{ t: 0, key: true, repeat: false }]);
  });
});

describe("reactions floating", () => {
  const counts = { "👍": 3, "🎉": 1 };

  test("a tick floats one emoji per tap while reactions are on the projector, none before", () => {
    const events = [
      at(0, { type: "talk-reactions", counts }),
      at(1000, { type: "talk", talk: reactionsOn }),
      at(2000, { type: "talk-reactions", counts }),
    ];
    const floats = floatTrack(events);
    expect(floats.map((f) => f.emoji).sort()).toEqual(["👍", "👍", "👍", "🎉"].sort());
    for (const f of floats) {
      expect(f.start).toBeGreaterThanOrEqual(2000);
      expect(f.start).toBeLessThanOrEqual(2300);
      expect(f.end - f.start).toBe(RISE_MS);
      expect(f.x).toBeGreaterThanOrEqual(0.05);
      expect(f.x).toBeLessThanOrEqual(0.9);
    }
    // The same recording floats them the same way every time.
    expect(floatTrack(events)).toEqual(floats);
  });

  test("turning reactions off takes the floating ones away at once", () => {
    const events = [at(0, { type: "talk", talk: reactionsOn }), at(100, { type: "talk-reactions", counts }), at(1500, { type: "talk", talk: { ...reactionsOn, reactions: false } })];
    const floats = floatTrack(events);
    expect(floats.every((f) => f.end <= 1500)).toBe(true);
    expect(floatsAt(floats, 1500)).toEqual([]);
  });

  test("at most 40 float at once, however long the burst", () => {
    const events: TimelineEvent[] = [at(0, { type: "talk", talk: reactionsOn })];
    for (let t = 100; t < 1000; t += 100) events.push(at(t, { type: "talk-reactions", counts: { "👏": 50 } }));
    const floats = floatTrack(events);
    for (let t = 0; t < 4000; t += 50) expect(floatsAt(floats, t).length).toBeLessThanOrEqual(40);
    expect(floats.length).toBe(40);
  });

  test("the rise follows the CSS keyframes: faded in by 12 %, up and grown by the end, gone after", () => {
    const f = { emoji: "👍", x: 0.5, start: 1000, end: 1000 + RISE_MS };
    expect(floatPose(f, 999)).toBeNull();
    expect(floatPose(f, 1000)).toEqual({ rise: 0, scale: 0.8, opacity: 0 });
    expect(floatPose(f, 1000 + 0.12 * RISE_MS)!.opacity).toBeCloseTo(1, 5);
    const late = floatPose(f, 1000 + 0.99 * RISE_MS)!;
    expect(late.rise).toBeGreaterThan(0.99);
    expect(late.scale).toBeCloseTo(1.15, 1);
    expect(late.opacity).toBeLessThan(0.05);
    expect(floatPose(f, 1000 + RISE_MS)).toBeNull();
    // ease-out: fast first, slow at the end.
    expect(easeOut(0.5)).toBeGreaterThan(0.5);
    expect(easeOut(0.25)).toBeCloseTo(0.4, 1);
  });

  test("frames at 15 fps while they float, and one when the last is gone", () => {
    const events = [at(0, { type: "state", state: state(1) }), at(0, { type: "talk", talk: reactionsOn }), at(5000, { type: "talk-reactions", counts: { "👍": 1 } })];
    const floats = floatTrack(events);
    const frames = frameSchedule(events, floats, 12_000, layout);
    const during = frames.filter((f) => f.t >= floats[0]!.start && f.t <= floats[0]!.end);
    expect(during.every((f) => !f.repeat)).toBe(true);
    expect(during.length).toBe(Math.ceil(RISE_MS / SCHEDULE.floatGapMs) + 1);
    expect(during[during.length - 1]!.t).toBe(Math.ceil(floats[0]!.end));
  });
});

describe("a stored recording, walked piece by piece", () => {
  test("its frames, floats and chapters are those of the same events in one array", () => {
    const pen = (t: number, points: number[]) => at(t, { type: "overlay", overlays: { ...NO_OVERLAYS, live: stroke("s1", points) }, at: t });
    const events: TimelineEvent[] = [at(0, { type: "state", state: state(1) }), at(500, { type: "talk", talk: reactionsOn })];
    // A stroke drawn at 60 Hz across a piece's edge, then kept; reactions; a slide change.
    let points: number[] = [];
    for (let i = 0; i < 90; i++) {
      points = [...points, 100 + i * 5, 200 + (i % 7), 0.5];
      events.push(pen(800 + i * (1000 / 60), points));
    }
    events.push(at(2400, { type: "state", state: state(1, { ink: [stroke("s1", points)] }) }));
    events.push(at(2500, { type: "talk-reactions", counts: { "👍": 2 } }), at(4000.5, { type: "state", state: state(3) }));
    const pieces = [0, 1, 2, 3, 4].map((s) => compactEvents(events.filter((e) => e.t >= s * 1000 && e.t < (s + 1) * 1000)));
    expect(pieces[1]!.some((e) => "grown" in e)).toBe(true);
    const track = expandedTrack(pieces);
    const floats = floatTrack(track);
    expect(floats).toEqual(floatTrack(events));
    expect(floats.length).toBe(2);
    expect(frameSchedule(track, floats, 6000, layout)).toEqual(frameSchedule(events, floats, 6000, layout));
    expect(recordingChapters(track, layout, [], 6000)).toEqual(recordingChapters(events, layout, [], 6000));
  });
});
