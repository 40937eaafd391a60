/**
 * The geometry and text of an exported frame (client/export/picture-paint, card-paint), the
 * parts that need no canvas (Bun has no OffscreenCanvas; the drawing itself is checked in the
 * browser, test/e2e/export.e2e.test.ts): where the slide goes in the picture, which region of
 * the page is on screen, how card text wraps; and the time left and the line an export shows.
 */
import { describe, expect, test } from "bun:test";
import { wrapText } from "../../client/src/export/card-paint.ts";
import { exportStatus, formatLeft, timeLeft } from "../../client/src/export/export-client.ts";
import { slideBox, viewOf } from "../../client/src/export/picture-paint.ts";
import { NO_OVERLAYS } from "../../client/src/presenter/state.ts";
import { EMPTY_PICTURE } from "../../client/src/record/timeline.ts";

describe("where the slide goes", () => {
  test("a 16:9 slide fills a 1080p frame; a 4:3 one is pillarboxed, a tall one letterboxed, centred", () => {
    expect(slideBox({ w: 720, h: 405 }, 1920, 1080)).toEqual({ x: 0, y: 0, w: 1920, h: 1080 });
    expect(slideBox({ w: 720, h: 540 }, 1920, 1080)).toEqual({ x: 240, y: 0, w: 1440, h: 1080 });
    expect(slideBox({ w: 842, h: 595 }, 1280, 720)).toEqual({ x: 131, y: 0, w: 1018, h: 720 });
    expect(slideBox({ w: 1000, h: 300 }, 1920, 1080)).toEqual({ x: 0, y: 252, w: 1920, h: 576 });
  });

  test("the region on screen is the zoom, else the whole page", () => {
    const state = { page: 1, blank: "none" as const, mode: "normal" as const, overlays: NO_OVERLAYS, ink: [], media: {}, frozen: false };
    expect(viewOf({ ...EMPTY_PICTURE, state }, { w: 720, h: 405 })).toEqual({ x: 0, y: 0, w: 720, h: 405 });
    const zoom = { x: 100, y: 50, w: 180, h: 101.3 };
    expect(viewOf({ ...EMPTY_PICTURE, state: { ...state, overlays: { ...NO_OVERLAYS, zoom } } }, { w: 720, h: 405 })).toEqual(zoom);
  });
});

describe("card text", () => {
  // Every character 10 px wide: lines of at most 5 characters in 50 px.
  const width = (s: string) => s.length * 10;

  test("wraps at spaces, keeps the question's own line breaks", () => {
    expect(wrapText("one two three", 60, width)).toEqual(["one", "two", "three"]);
    expect(wrapText("one two three", 80, width)).toEqual(["one two", "three"]);
    expect(wrapText("ab cd ef", 50, width)).toEqual(["ab cd", "ef"]);
    expect(wrapText("first\nsecond line", 120, width)).toEqual(["first", "second line"]);
  });

  test("a word longer than the line is broken anywhere (overflow-wrap: anywhere)", () => {
    expect(wrapText("abcdefghijkl", 50, width)).toEqual(["abcde", "fghij", "kl"]);
    expect(wrapText("x abcdefg", 50, width)).toEqual(["x", "abcde", "fg"]);
  });
});

describe("time left", () => {
  test("from the pace so far, once there is one", () => {
    expect(timeLeft(0, 60_000, 5000)).toBeNull();
    // 1 % done: too early to say.
    expect(timeLeft(600, 60_000, 5000)).toBeNull();
    // Under 1.5 s of work: too early too.
    expect(timeLeft(30_000, 60_000, 1000)).toBeNull();
    // A quarter of the talk in 20 s: three quarters more take 60 s.
    expect(timeLeft(15_000, 60_000, 20_000)).toBe(60_000);
  });

  test("in words", () => {
    expect(formatLeft(4000)).toBe("a few seconds left");
    expect(formatLeft(42_000)).toBe("about 40 s left");
    expect(formatLeft(150_000)).toBe("about 3 min left");
    expect(formatLeft(3_900_000)).toBe("about 1 h 5 min left");
  });
});

describe("the line under the bar", () => {
  test("each step before the file says what it does; converting says how far it is", () => {
    expect(exportStatus("video", { step: "reading", fraction: null, leftMs: null })).toEqual({ percent: null, text: "Reading the recording…" });
    expect(exportStatus("audio", { step: "converting", fraction: 0.409, leftMs: null })).toEqual({ percent: 40, text: "Converting the sound to Opus… 40 %" });
    expect(exportStatus("video", { step: "opening", fraction: null, leftMs: null })).toEqual({ percent: null, text: "Opening the deck…" });
  });

  test("saving the file: its share, and the time left once there is a pace", () => {
    expect(exportStatus("video", { step: "saving", fraction: 0, leftMs: null })).toEqual({ percent: 0, text: "Saving the video… 0 %" });
    expect(exportStatus("audio", { step: "saving", fraction: 0.25, leftMs: 150_000 })).toEqual({ percent: 25, text: "Saving the audio… 25 % · about 3 min left" });
    // A share past the ends (a last packet after the talk's end) stays within the bar.
    expect(exportStatus("video", { step: "saving", fraction: 1.2, leftMs: 0 }).percent).toBe(100);
  });
});
