/**
 * The live protocol as data: the schemas accept the documented messages and reject forged or
 * malformed ones, the served JSON Schema is the same one (checked with Ajv, as a client
 * would), codes normalise as people type them, and the snapshot merge orders by seq.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import Ajv2020 from "ajv/dist/2020.js";
import { inkWithinBounds, liveStateOverBounds, MAX_LIVE_INK_BYTES, LIVE_CODE_ALPHABET, LiveClientMessage, LiveServerMessage, type LiveSnapshot, MAX_LIVE_INK_NUMBERS, MAX_LIVE_INK_STROKES, mergeLive, normalizeLiveCode } from "../../src/shared/live-protocol.ts";
import { newLiveCode } from "../../src/live/service.ts";
import { SCHEMAS } from "../../src/binary/schemas.ts";
import { sampleState } from "./helpers.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (0.9 s).
setDefaultTimeout(10_000);

const client = TypeCompiler.Compile(LiveClientMessage);
const server = TypeCompiler.Compile(LiveServerMessage);
const stroke = { id: "a", color: "#111827", width: 4, points: [1, 2, 0.5] };

describe("schemas", () => {
  test("accept every client message of the protocol", () => {
    for (const message of [
      { v: 1, type: "join", role: "viewer" },
      { v: 1, type: "join", role: "presenter", secret: "s" },
      { v: 1, type: "state", state: sampleState(3, { label: "2", blank: "white", frozen: true, overlays: { pointer: { x: 1, y: 2, r: 7 }, live: stroke, zoom: { x: 0, y: 0, w: 100, h: 50 }, inkHidden: false } }) },
      { v: 1, type: "state", state: sampleState(1, { media: { m1: { playing: true, time: 3.5, at: 1_700_000_000_000 } } }) },
      { v: 1, type: "state", state: sampleState(1, { timer: { status: "running", startedAt: 1_700_000_000_000, accumulatedMs: 5000 } }) },
      { v: 1, type: "pointer", pointer: null },
      { v: 1, type: "pointer", pointer: { x: 1, y: 1, r: 3 }, live: stroke },
      { v: 1, type: "ink", ink: { op: "add", page: 2, stroke } },
      { v: 1, type: "ink", ink: { op: "remove", page: 2, strokeId: "a" } },
      { v: 1, type: "ink", ink: { op: "clear", page: 2 } },
      { v: 1, type: "settings", allowDownload: true },
      { v: 1, type: "command", action: "next" },
      { v: 1, type: "command", action: "goto", page: 4 },
      { v: 1, type: "command", action: "blank", blank: "white" },
      { v: 1, type: "ping", t: 1 },
    ]) {
      expect({ message, ok: client.Check(message) }).toEqual({ message, ok: true });
    }
  });

  test("reject forged roles, other versions, unknown types, bad pages and bad actions", () => {
    for (const message of [
      { v: 1, type: "join", role: "admin" },
      { v: 2, type: "ping" },
      { type: "ping" },
      { v: 1, type: "teleport" },
      { v: 1, type: "state", state: sampleState(0) },
      { v: 1, type: "state", state: { ...sampleState(1), blank: "grey" } },
      { v: 1, type: "state", state: sampleState(1, { timer: { status: "late", startedAt: null, accumulatedMs: 0 } }) },
      { v: 1, type: "command", action: "delete" },
      { v: 1, type: "command", action: "goto", page: 1.5 },
      { v: 1, type: "ink", ink: { op: "add", page: 1 } },
      { v: 1, type: "hello" },
      "ping",
      null,
    ]) {
      expect({ message, ok: client.Check(message) }).toEqual({ message, ok: false });
    }
  });

  test("server messages validate, and the served JSON Schema accepts and rejects the same way", () => {
    const hello = {
      v: 1,
      type: "hello",
      role: "viewer",
      session: { code: "ABC234", sha256: "a".repeat(64), bytes: 10, totalSlides: 2, filename: "t", allowDownload: false, expiresAt: "2026-11-23T10:00:00Z" },
      seq: 4,
      state: sampleState(2),
      paused: false,
      counts: { viewers: 1, controls: 0, presenter: true },
      serverTime: 1,
    };
    expect(server.Check(hello)).toBe(true);
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(JSON.parse(SCHEMAS["live-message.schema.json"]!));
    expect(validate(hello)).toBe(true);
    expect(validate({ v: 1, type: "ended", reason: "ended" })).toBe(true);
    expect(validate({ v: 1, type: "command", action: "goto", page: 2 })).toBe(true);
    expect(validate({ v: 1, type: "join", role: "admin" })).toBe(false);
    expect(validate({ v: 1, type: "state", state: sampleState(0) })).toBe(false);
  });
});

describe("codes", () => {
  test("drawn codes are 6 characters without look-alikes; typed codes normalise case, spaces and dashes", () => {
    for (let i = 0; i < 500; i++) {
      const code = newLiveCode();
      expect(code).toHaveLength(6);
      for (const c of code) expect(LIVE_CODE_ALPHABET).toContain(c);
      expect(code).not.toMatch(/[01OIL]/);
    }
    expect(normalizeLiveCode(" abc-234 ")).toBe("ABC234");
    expect(normalizeLiveCode("abc 234")).toBe("ABC234");
    expect(normalizeLiveCode("ABC23")).toBeNull();
    expect(normalizeLiveCode("ABC230")).toBeNull();
    expect(normalizeLiveCode("ABCL23")).toBeNull();
  });
});

describe("mergeLive", () => {
  const empty: LiveSnapshot = { seq: 0, state: null };

  test("every message advances seq; pointer and ink before any state change nothing else", () => {
    const a = mergeLive(empty, { v: 1, type: "pointer", pointer: { x: 1, y: 1, r: 1 } });
    expect(a).toEqual({ seq: 1, state: null });
    const b = mergeLive(a, { v: 1, type: "ink", ink: { op: "clear", page: 1 } });
    expect(b).toEqual({ seq: 2, state: null });
  });

  test("state replaces, pointer merges into the overlays, ink ops apply to the shown page only", () => {
    let s = mergeLive(empty, { v: 1, type: "state", state: sampleState(2) });
    expect(s.seq).toBe(1);
    s = mergeLive(s, { v: 1, type: "pointer", pointer: { x: 5, y: 6, r: 7 }, live: stroke });
    expect(s.state?.overlays).toEqual({ pointer: { x: 5, y: 6, r: 7 }, live: stroke, zoom: null, inkHidden: false });
    s = mergeLive(s, { v: 1, type: "pointer", pointer: null });
    expect(s.state?.overlays.pointer).toBeNull();
    expect(s.state?.overlays.live).toEqual(stroke);
    s = mergeLive(s, { v: 1, type: "ink", ink: { op: "add", page: 2, stroke } });
    s = mergeLive(s, { v: 1, type: "ink", ink: { op: "add", page: 2, stroke: { ...stroke, id: "b" } } });
    s = mergeLive(s, { v: 1, type: "ink", ink: { op: "add", page: 3, stroke: { ...stroke, id: "c" } } });
    expect(s.state?.ink.map((k) => k.id)).toEqual(["a", "b"]);
    // Adding a stroke again (a resend) replaces it rather than doubling it.
    s = mergeLive(s, { v: 1, type: "ink", ink: { op: "add", page: 2, stroke } });
    expect(s.state?.ink.map((k) => k.id)).toEqual(["b", "a"]);
    s = mergeLive(s, { v: 1, type: "ink", ink: { op: "remove", page: 2, strokeId: "b" } });
    expect(s.state?.ink.map((k) => k.id)).toEqual(["a"]);
    s = mergeLive(s, { v: 1, type: "ink", ink: { op: "clear", page: 2 } });
    expect(s.state?.ink).toEqual([]);
    expect(s.seq).toBe(9);
  });

  test("does not mutate the snapshot it is given", () => {
    const s = mergeLive(empty, { v: 1, type: "state", state: sampleState(2) });
    const frozen = structuredClone(s);
    mergeLive(s, { v: 1, type: "ink", ink: { op: "add", page: 2, stroke } });
    mergeLive(s, { v: 1, type: "pointer", pointer: { x: 1, y: 1, r: 1 } });
    expect(s).toEqual(frozen);
  });
});

describe("inkWithinBounds", () => {
  const stroke = (id: number, numbers: number) => ({ id: `s${id}`, color: "#000000", width: 2, points: new Array<number>(numbers).fill(1) });
  const withInk = (ink: ReturnType<typeof stroke>[]) => ({ page: 1, blank: "none" as const, mode: "normal" as const, overlays: { pointer: null, live: null, zoom: null, inkHidden: false }, ink, media: {}, frozen: false });

  test("counts strokes and the numbers of all strokes together", () => {
    expect(inkWithinBounds(null)).toBe(true);
    expect(inkWithinBounds(withInk(Array.from({ length: MAX_LIVE_INK_STROKES }, (_, i) => stroke(i, 3))))).toBe(true);
    expect(inkWithinBounds(withInk(Array.from({ length: MAX_LIVE_INK_STROKES + 1 }, (_, i) => stroke(i, 3))))).toBe(false);
    // 40 strokes of 10,000 numbers: exactly the count bound; one number more is over.
    const full = Array.from({ length: 40 }, (_, i) => stroke(i, 10_000));
    expect(inkWithinBounds(withInk(full))).toBe(true);
    expect(inkWithinBounds(withInk([...full, stroke(99, 1)]))).toBe(false);
  });

  test("counts bytes too: per stroke (as re-serialised), per slide, and the whole state", () => {
    const long = (id: number, numbers: number, value: number) => ({ id: `s${id}`, color: "#000000", width: 2, points: new Array<number>(numbers).fill(value) });
    // 12,000 numbers is within the count, but 12,000 × "100000," is over a stroke's 64 KiB.
    expect(liveStateOverBounds(withInk([long(1, 12_000, 100_000)]))).toContain("stroke is at most");
    // Long numbers: 90 strokes of 4,400 × "-12345.678," (396,000 numbers) are over the slide's bytes before its count.
    const many = Array.from({ length: 90 }, (_, i) => long(i, 4_400, -12345.678));
    expect(many.reduce((n, s) => n + s.points.length, 0)).toBeLessThan(MAX_LIVE_INK_NUMBERS);
    expect(liveStateOverBounds(withInk(many))).toContain(`${MAX_LIVE_INK_BYTES} bytes`);
    // The stroke being drawn counts as a stroke.
    expect(liveStateOverBounds({ ...withInk([]), overlays: { pointer: null, live: long(1, 12_000, 100_000), zoom: null, inkHidden: false } })).toContain("stroke is at most");
  });
});

describe("closed objects", () => {
  test("an unknown property anywhere in a message refuses it (the schema and the served JSON Schema)", () => {
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(JSON.parse(SCHEMAS["live-message.schema.json"]!));
    for (const message of [
      { v: 1, type: "ink", ink: { op: "add", page: 2, stroke: { ...stroke, junk: "x" } } },
      { v: 1, type: "ink", ink: { op: "add", page: 2, stroke, extra: 1 } },
      { v: 1, type: "command", action: "next", injected: { html: "<img src=x onerror=alert(1)>" } },
      { v: 1, type: "state", state: sampleState(1, { junk: "x" }) },
      { v: 1, type: "state", state: sampleState(1, { overlays: { pointer: { x: 1, y: 1, r: 1, glow: true }, live: null, zoom: null, inkHidden: false } }) },
      { v: 1, type: "state", state: sampleState(1, { media: { m: { playing: true, time: 1, at: 1, src: "x" } } }) },
      { v: 1, type: "join", role: "viewer", name: "x" },
      { v: 1, type: "ping", pad: "x" },
    ]) {
      expect({ message, ok: client.Check(message) }).toEqual({ message, ok: false });
      expect({ message, ok: validate(message) }).toEqual({ message, ok: false });
    }
    expect(JSON.stringify(JSON.parse(SCHEMAS["live-message.schema.json"]!))).toContain('"additionalProperties":false');
  });
});
