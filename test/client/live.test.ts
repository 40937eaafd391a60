/**
 * The pure parts of live presenting in the browser: a typed talk code, the reconnect backoff
 * and the viewer's model of the presenter's state (ordered by seq, follow and back to live).
 */
import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { LiveState, type LiveStateT, normalizeLiveCode } from "../../src/shared/live-protocol.ts";
import { BACKOFF_BASE_MS, BACKOFF_MAX_MS, backoffDelay } from "../../client/src/live/connection/backoff.ts";
import { clockOffset, shiftMedia } from "../../client/src/live/connection/clock.ts";
import { codeFromPath } from "../../client/src/live/connection/code.ts";
import { commandActions } from "../../client/src/live/presenter/commands.ts";
import { fitLiveState, fitStroke } from "../../client/src/live/presenter/fit-state.ts";
import { greet, INITIAL_VIEWER, leave, receive, rejoin, shown, turn } from "../../client/src/live/viewer/follow.ts";

const NO = { pointer: null, live: null, zoom: null, inkHidden: false };
const state = (page: number, extra: Partial<LiveStateT> = {}): LiveStateT => ({ page, blank: "none", mode: "normal", overlays: NO, ink: [], media: {}, frozen: false, ...extra });
const stroke = { id: "s1", color: "#e11d48", width: 4, points: [1, 2, 0.5, 3, 4, 0.5] };

describe("typed talk code", () => {
  test("is upper-cased with spaces and dashes dropped, and nothing else is mapped", () => {
    expect(normalizeLiveCode("  abc234 ")).toBe("ABC234");
    expect(normalizeLiveCode("AbC234")).toBe("ABC234");
    // Look-alikes are not guessed: 0, O, 1, I and L are not in codes, so these are refused.
    expect(normalizeLiveCode("ABC230")).toBeNull();
    expect(normalizeLiveCode("ABCO23")).toBeNull();
    // A code read aloud or copied in two halves still works.
    expect(normalizeLiveCode("abc 234")).toBe("ABC234");
    expect(normalizeLiveCode("ABC-234")).toBe("ABC234");
    expect(normalizeLiveCode("ABC23")).toBeNull();
    expect(normalizeLiveCode("")).toBeNull();
  });

  test("is read from the viewer and the remote paths", () => {
    expect(codeFromPath("/live/ABC234")).toBe("ABC234");
    expect(codeFromPath("/live/abc234/control")).toBe("ABC234");
    expect(codeFromPath("/live/ABC234/other")).toBeNull();
    expect(codeFromPath("/present/x")).toBeNull();
  });
});

describe("reconnect backoff", () => {
  test("grows exponentially from the base to the cap, with jitter below the bound", () => {
    const top = () => 0.999999;
    expect(backoffDelay(0, top)).toBeLessThan(BACKOFF_BASE_MS);
    expect(backoffDelay(1, top)).toBeLessThan(2 * BACKOFF_BASE_MS);
    expect(backoffDelay(1, top)).toBeGreaterThan(backoffDelay(0, top));
    expect(backoffDelay(3, top)).toBeGreaterThan(backoffDelay(2, top));
    expect(backoffDelay(30, top)).toBeLessThan(BACKOFF_MAX_MS);
    expect(backoffDelay(30, top)).toBeGreaterThan(BACKOFF_MAX_MS - 10);
  });

  test("never waits 0 ms, even with the lowest random draw", () => {
    for (let attempt = 0; attempt < 20; attempt++) expect(backoffDelay(attempt, () => 0)).toBe(BACKOFF_BASE_MS / 2);
  });
});

describe("viewer model", () => {
  test("shows nothing before the presenter's first picture, then the state it got", () => {
    expect(shown(INITIAL_VIEWER)).toBeNull();
    const m = receive(INITIAL_VIEWER, { v: 1, type: "state", seq: 1, state: state(3, { label: "2" }) });
    expect(shown(m)).toEqual({ page: 3, blank: "none", mode: "normal", overlays: NO, ink: [], media: {}, frozen: false });
  });

  test("drops a message not newer than the last applied (a late or repeated one never moves the picture back)", () => {
    let m = receive(INITIAL_VIEWER, { v: 1, type: "state", seq: 5, state: state(5) });
    m = receive(m, { v: 1, type: "state", seq: 4, state: state(4) });
    m = receive(m, { v: 1, type: "state", seq: 5, state: state(9) });
    expect(shown(m)?.page).toBe(5);
  });

  test("merges the pointer and ink of the shown page", () => {
    let m = receive(INITIAL_VIEWER, { v: 1, type: "state", seq: 1, state: state(2, { mode: "pointer" }) });
    m = receive(m, { v: 1, type: "pointer", seq: 2, pointer: { x: 10, y: 20, r: 7 } });
    expect(shown(m)?.overlays.pointer).toEqual({ x: 10, y: 20, r: 7 });
    m = receive(m, { v: 1, type: "ink", seq: 3, ink: { op: "add", page: 2, stroke } });
    expect(shown(m)?.ink).toEqual([stroke]);
    m = receive(m, { v: 1, type: "ink", seq: 4, ink: { op: "add", page: 7, stroke: { ...stroke, id: "other" } } });
    expect(shown(m)?.ink).toEqual([stroke]);
    m = receive(m, { v: 1, type: "ink", seq: 5, ink: { op: "clear", page: 2 } });
    expect(shown(m)?.ink).toEqual([]);
  });

  test("a reconnection's hello is the new baseline, even with a lower seq", () => {
    let m = receive(INITIAL_VIEWER, { v: 1, type: "state", seq: 40, state: state(4) });
    m = greet(m, { seq: 12, state: state(6, { blank: "black" }) });
    expect(shown(m)).toMatchObject({ page: 6, blank: "black" });
    m = receive(m, { v: 1, type: "state", seq: 13, state: state(7) });
    expect(shown(m)?.page).toBe(7);
    // A hello with no state yet keeps the last picture.
    expect(shown(greet(m, { seq: 0, state: null }))?.page).toBe(7);
  });

  test("leaving follow pages on one's own while the presenter moves on; back to live shows the presenter's page", () => {
    let m = receive(INITIAL_VIEWER, { v: 1, type: "state", seq: 1, state: state(4, { blank: "black", mode: "pointer" }) });
    m = leave(m, 4);
    m = turn(m, 3, 6);
    m = receive(m, { v: 1, type: "state", seq: 2, state: state(5) });
    expect(shown(m)).toEqual({ page: 3, blank: "none", mode: "normal", overlays: NO, ink: [], media: {}, frozen: false });
    expect(shown(turn(m, 0, 6))?.page).toBe(1);
    expect(shown(turn(m, 99, 6))?.page).toBe(6);
    m = rejoin(m);
    expect(m.following).toBe(true);
    expect(shown(m)?.page).toBe(5);
  });
});

describe("media clocks across devices", () => {
  test("a presenter 5 s behind the server and a viewer 3 s ahead agree on when a reading was taken", () => {
    const server = 1_000_000;
    const presenterOffset = clockOffset(server, server - 5000);
    const viewerOffset = clockOffset(server, server + 3000);
    const reading = { clip: { playing: true, time: 1.5, at: server - 5000 } };
    const wire = shiftMedia(reading, presenterOffset);
    expect(wire.clip.at).toBe(server);
    expect(shiftMedia(wire, -viewerOffset).clip.at).toBe(server + 3000);
  });

  test("nothing to move leaves the same object (no needless repaint)", () => {
    const media = { a: { playing: false, time: 0, at: 1 } };
    expect(shiftMedia(media, 0)).toBe(media);
    const none = {};
    expect(shiftMedia(none, 50)).toBe(none);
    expect(clockOffset(Number.NaN, 5)).toBe(0);
  });
});

describe("remote commands", () => {
  test("navigation runs the presenter's own actions; goto needs a page", () => {
    expect(commandActions({ action: "next" }, "none")).toEqual([{ name: "next" }]);
    expect(commandActions({ action: "prev" }, "none")).toEqual([{ name: "prev" }]);
    expect(commandActions({ action: "first" }, "none")).toEqual([{ name: "first" }]);
    expect(commandActions({ action: "last" }, "none")).toEqual([{ name: "last" }]);
    expect(commandActions({ action: "goto", page: 4 }, "none")).toEqual([{ name: "goToPage", arg: 4 }]);
    expect(commandActions({ action: "goto" }, "none")).toEqual([]);
  });

  test("blank sets the screen asked for (never flips it blindly); without a colour it toggles black", () => {
    expect(commandActions({ action: "blank", blank: "black" }, "none")).toEqual([{ name: "blackout" }]);
    expect(commandActions({ action: "blank", blank: "black" }, "black")).toEqual([]);
    expect(commandActions({ action: "blank", blank: "white" }, "black")).toEqual([{ name: "whiteout" }]);
    expect(commandActions({ action: "blank", blank: "none" }, "white")).toEqual([{ name: "whiteout" }]);
    expect(commandActions({ action: "blank", blank: "none" }, "none")).toEqual([]);
    expect(commandActions({ action: "blank" }, "none")).toEqual([{ name: "blackout" }]);
    expect(commandActions({ action: "blank" }, "black")).toEqual([{ name: "blackout" }]);
  });
});

describe("a state fitted to the protocol's bounds", () => {
  test("a state within them is sent as it is (same content, rebuilt with exactly the protocol's fields)", () => {
    const s = state(2, { label: "2", ink: [stroke] });
    expect(fitLiveState(s)).toEqual(s);
  });

  test("a long stroke keeps its ends and fits in 12,000 numbers; a long label is cut; too many strokes keep the newest", () => {
    const points: number[] = [];
    for (let i = 0; i < 10_000; i++) points.push(i, i * 2, 0.5);
    const long = { ...stroke, id: "long", points };
    const fitted = fitStroke(long);
    expect(fitted.points.length).toBeLessThanOrEqual(12_000);
    expect(fitted.points.length % 3).toBe(0);
    expect(fitted.points.slice(0, 3)).toEqual([0, 0, 0.5]);
    expect(fitted.points.slice(-3)).toEqual([9999, 19998, 0.5]);
    const many = Array.from({ length: 2100 }, (_, i) => ({ ...stroke, id: `s${i}` }));
    const s = fitLiveState(state(1, { label: "x".repeat(100), ink: [...many, long], overlays: { ...NO, live: long } }));
    expect(s.label).toHaveLength(64);
    expect(s.ink).toHaveLength(2000);
    expect(s.ink.at(-1)!.id).toBe("long");
    expect(s.ink.at(-1)!.points.length).toBeLessThanOrEqual(12_000);
    expect(s.overlays.live!.points.length).toBeLessThanOrEqual(12_000);
    // What the server checks every state against.
    expect(Value.Check(LiveState, state(1, { label: "x".repeat(100), ink: [...many, long] }))).toBe(false);
    expect(Value.Check(LiveState, s)).toBe(true);
  });

  test("media with ids over 128 characters are left out rather than refusing the whole state", () => {
    const playback = { playing: true, time: 1, at: 2 };
    const s = fitLiveState(state(1, { media: { ok: playback, ["m".repeat(200)]: playback } }));
    expect(Object.keys(s.media)).toEqual(["ok"]);
  });
});

describe("fitLiveState sends exactly the protocol's fields", () => {
  test("a state whose objects carry extra local properties leaves with none of them (the server refuses unknown properties)", async () => {
    const { fitLiveState: fit } = await import("../../client/src/live/presenter/fit-state.ts");
    const { TypeCompiler } = await import("@sinclair/typebox/compiler");
    const { LiveState } = await import("../../src/shared/live-protocol.ts");
    const stroke = { id: "a", color: "#000", width: 2, points: [1, 2, 0.5], cache: { path: "M0 0" } };
    const state = {
      page: 2, label: "2", blank: "none", mode: "pen", frozen: false, local: true,
      overlays: { pointer: { x: 1, y: 2, r: 3, seenAt: 5 }, live: stroke, zoom: { x: 0, y: 0, w: 1, h: 1, scale: 2 }, inkHidden: false, extra: 1 },
      ink: [stroke], media: { m: { playing: true, time: 1, at: 2, element: "video" } },
      timer: { status: "running", startedAt: 1, accumulatedMs: 0, laps: [] },
    };
    const out = fit(state as never);
    expect(TypeCompiler.Compile(LiveState).Check(out)).toBe(true);
    expect(JSON.stringify(out)).not.toMatch(/cache|seenAt|scale|extra|element|laps|local/);
  });
});
