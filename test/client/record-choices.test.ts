/**
 * The choices a recording makes before and while it runs: which way this browser records
 * sound (client/record/audio-format: Opus first, MediaRecorder before WebCodecs), whether there
 * is room (client/record/storage-room: minutes left at the recording's own rate), what the
 * speaker is told when the microphone is refused (client/record/microphone), and how loud the
 * input reads (client/record/level-meter).
 */
import { describe, expect, test } from "bun:test";
import { chooseCapture, type EngineAudio } from "../../client/src/record/audio-format.ts";
import { levelOf, rmsOf } from "../../client/src/record/level-meter.ts";
import { microphoneRefusal } from "../../client/src/record/microphone.ts";
import { ASSUMED_BYTES_PER_SECOND, LOW_MINUTES, lowRoomThreshold, planningRate, roomOf } from "../../client/src/record/storage-room.ts";

const engine = (types: string[], webCodecsOpus = false, recorder = true): EngineAudio => ({ recorder, supports: (t) => types.includes(t), webCodecsOpus });

describe("how sound is recorded", () => {
  test("MediaRecorder's WebM/Opus, else its Ogg/Opus (Chromium, Firefox)", () => {
    expect(chooseCapture(engine(["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/mp4"]))).toEqual({ kind: "media-recorder", mimeType: "audio/webm;codecs=opus" });
    expect(chooseCapture(engine(["audio/ogg;codecs=opus"], true))).toEqual({ kind: "media-recorder", mimeType: "audio/ogg;codecs=opus" });
  });

  test("WebCodecs' Opus where MediaRecorder has no Opus or is missing (WebKitGTK, older Safari)", () => {
    expect(chooseCapture(engine(["audio/mp4"], true))).toEqual({ kind: "webcodecs", mimeType: "audio/webm;codecs=opus" });
    expect(chooseCapture(engine([], true, false))).toEqual({ kind: "webcodecs", mimeType: "audio/webm;codecs=opus" });
  });

  test("MediaRecorder's own format when nothing gives Opus; nothing at all: no sound can be recorded", () => {
    expect(chooseCapture(engine(["audio/mp4"]))).toEqual({ kind: "media-recorder", mimeType: "audio/mp4" });
    expect(chooseCapture(engine([]))).toBeNull();
    expect(chooseCapture(engine([], false, false))).toBeNull();
  });
});

describe("room for a recording", () => {
  test("minutes that fit in what the site may still use, at a rate", () => {
    expect(roomOf({ usage: 1_000_000, quota: 1_000_000 + 60 * 8_000 * 30 }, 8_000)).toEqual({ freeBytes: 60 * 8_000 * 30, minutes: 30 });
    expect(roomOf({ usage: 5, quota: 1 }, 8_000)).toEqual({ freeBytes: 0, minutes: 0 });
    expect(roomOf(null, 8_000)).toEqual({ freeBytes: null, minutes: null });
    expect(roomOf({ usage: 5 }, 8_000).minutes).toBeNull();
  });

  test("the assumed rate until the recording measured its own; never below half the assumed one", () => {
    expect(planningRate(1_000, 5_000)).toBe(ASSUMED_BYTES_PER_SECOND);
    expect(planningRate(60 * 20_000, 60_000)).toBe(20_000);
    expect(planningRate(10, 60_000)).toBe(ASSUMED_BYTES_PER_SECOND / 2);
    expect(LOW_MINUTES).toBeGreaterThanOrEqual(10);
  });
});

describe("the microphone refused", () => {
  test("each refusal says what happened and what to do", () => {
    expect(microphoneRefusal({ name: "NotAllowedError" })).toMatch(/not allowed.*Allow it for this site/);
    expect(microphoneRefusal({ name: "NotFoundError" })).toMatch(/No microphone was found/);
    expect(microphoneRefusal({ name: "OverconstrainedError" })).toMatch(/No microphone was found/);
    expect(microphoneRefusal({ name: "NotReadableError" })).toMatch(/another program/);
    expect(microphoneRefusal(new Error("odd"))).toMatch(/could not be opened.*without sound/);
  });
});

describe("the input level", () => {
  test("0–1 on a decibel scale: silence 0, −60 dBFS 0, −30 dBFS half, full scale 1", () => {
    expect(levelOf(0)).toBe(0);
    expect(levelOf(0.001)).toBeCloseTo(0, 6);
    expect(levelOf(10 ** (-30 / 20))).toBeCloseTo(0.5, 6);
    expect(levelOf(1)).toBe(1);
    expect(levelOf(2)).toBe(1);
    expect(levelOf(Number.NaN)).toBe(0);
  });

  test("the root mean square of the samples", () => {
    expect(rmsOf(new Float32Array([0.5, -0.5, 0.5, -0.5]))).toBeCloseTo(0.5, 6);
    expect(rmsOf(new Float32Array([]))).toBe(0);
  });
});

describe("warning that room runs low", () => {
  test("once under 10 minutes, once more under 2, never again for the same threshold", () => {
    expect(lowRoomThreshold(45, Infinity)).toBeNull();
    expect(lowRoomThreshold(9.5, Infinity)).toBe(10);
    expect(lowRoomThreshold(8, 10)).toBeNull();
    expect(lowRoomThreshold(1.5, 10)).toBe(2);
    expect(lowRoomThreshold(0.5, 2)).toBeNull();
    // Straight under 2 minutes: the sharper one at once.
    expect(lowRoomThreshold(1, Infinity)).toBe(2);
  });
});
