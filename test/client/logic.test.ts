import { describe, expect, test } from "bun:test";
import { fitBox } from "../../client/src/lib/fit.ts";
import { snapshotWidth } from "../../client/src/lib/first-slide.ts";
import { formatBytes, formatClock } from "../../client/src/lib/format.ts";
import { looksLikePdf, titleFromFilename } from "../../client/src/lib/local-deck.ts";
import { embedUrl, kindOf, playableUrl } from "../../client/src/lib/media.ts";
import { deckIdFromPath } from "../../client/src/lib/deck-path.ts";
import { countdown, elapsedSeconds, IDLE_TIMER, parseTimer, pauseTimer, startTimer } from "../../client/src/lib/timer.ts";
import { isImmutableAsset, isVersionedAsset, shellFor } from "../../client/src/sw/shell.ts";
import type { SlideMedia } from "../../src/deck/sidecar/types.ts";

describe("timer", () => {
  test("elapsed time pauses and resumes on the wall clock", () => {
    let t = startTimer(IDLE_TIMER, 0);
    t = pauseTimer(t, 5000);
    expect(elapsedSeconds(t, 9000)).toBe(5);
    t = startTimer(t, 9000);
    expect(elapsedSeconds(t, 10000)).toBe(6);
  });
  test("a saved timer reloads as it was; a running one has kept counting", () => {
    const saved = JSON.parse(JSON.stringify(startTimer(IDLE_TIMER, 1000)));
    expect(elapsedSeconds(parseTimer(saved), 61_000)).toBe(60);
    expect(parseTimer(undefined)).toEqual(IDLE_TIMER);
    expect(parseTimer({ status: "running", startedAt: "x" })).toEqual(IDLE_TIMER);
    expect(parseTimer({ status: "paused", accumulatedMs: 4000 })).toEqual({ status: "paused", startedAt: null, accumulatedMs: 4000 });
  });
  test("a pdfpc duration gives a countdown that warns in the last minutes", () => {
    expect(countdown({}, 10)).toBeNull();
    expect(countdown({ durationMinutes: 20 }, 60)).toEqual({ remainingSeconds: 1140, state: "ok" });
    expect(countdown({ durationMinutes: 20, lastMinutes: 5 }, 16 * 60)?.state).toBe("warn");
    expect(countdown({ durationMinutes: 1 }, 61)?.state).toBe("over");
  });
  test("an end time counts down to the wall clock", () => {
    const now = new Date(2026, 0, 1, 10, 0, 0);
    expect(countdown({ endTime: "10:30" }, 0, now)?.remainingSeconds).toBe(1800);
  });
  test("clock formatting", () => {
    expect(formatClock(0)).toBe("0:00");
    expect(formatClock(75)).toBe("1:15");
    expect(formatClock(3725)).toBe("1:02:05");
    expect(formatClock(-30)).toBe("−0:30");
  });
});

describe("media", () => {
  const base: SlideMedia = { id: "m", kind: "file", slide: 1, rect: { x: 0, y: 0, w: 10, h: 10 }, mime: "video/mp4", autoplay: true, loop: true };
  test("kinds follow the MIME type and file name", () => {
    expect(kindOf(base)).toBe("video");
    expect(kindOf({ ...base, mime: "image/gif" })).toBe("image");
    expect(kindOf({ ...base, mime: null, attachment: "media-x.gif" })).toBe("image");
    expect(kindOf({ ...base, mime: "audio/mpeg" })).toBe("audio");
    expect(kindOf({ ...base, kind: "youtube", videoId: "abc" })).toBe("embed");
    expect(kindOf({ ...base, kind: "url", mime: "image/gif", url: "https://x.example/a.gif" })).toBe("image");
    expect(kindOf({ ...base, kind: "url", mime: null, url: "https://x.example/a.webm?x=1" })).toBe("video");
  });
  test("embed URLs use the privacy-enhanced hosts and refuse odd ids", () => {
    expect(embedUrl({ ...base, kind: "youtube", videoId: "dQw4w9WgXcQ" })).toStartWith("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?");
    expect(embedUrl({ ...base, kind: "vimeo", videoId: "76979871" })).toStartWith("https://player.vimeo.com/video/76979871?");
    expect(embedUrl({ ...base, kind: "youtube", videoId: "x\"><script>" })).toBeNull();
  });
  test("only https URL media play from the network (the CSP allows https: and nothing wider)", () => {
    expect(playableUrl("https://media.example.org/a.gif")).toBe(true);
    expect(playableUrl("http://media.example.org/a.gif")).toBe(false);
    expect(playableUrl("javascript:alert(1)")).toBe(false);
    expect(playableUrl(undefined)).toBe(false);
  });
});

describe("layout and files", () => {
  test("a slide fits its container at its aspect ratio", () => {
    expect(fitBox(1600, 900, 800, 450)).toEqual({ w: 1600, h: 900 });
    expect(fitBox(1000, 1000, 800, 450)).toEqual({ w: 1000, h: 562 });
    expect(fitBox(0, 100, 4, 3)).toEqual({ w: 0, h: 0 });
  });
  test("the claim's picture of the first slide covers any slide frame of the window, in device pixels", () => {
    // 16:9 in a 1920×1080 window: the whole width; at 2× the pixels double.
    expect(snapshotWidth({ w: 720, h: 405 }, { w: 1920, h: 1080 }, 1)).toBe(1920);
    expect(snapshotWidth({ w: 720, h: 405 }, { w: 1920, h: 1080 }, 2)).toBe(3840);
    // 4:3 in a wide window: the height decides.
    expect(snapshotWidth({ w: 400, h: 300 }, { w: 1920, h: 1080 }, 1)).toBe(1440);
    // Never past a 4K screen's pixels: a 2560×1440 window at 2× gets 3840 px wide, not 5120.
    expect(snapshotWidth({ w: 720, h: 405 }, { w: 2560, h: 1440 }, 2)).toBe(3840);
    expect(snapshotWidth({ w: 720, h: 405 }, { w: 3840, h: 2160 }, 1)).toBe(3840);
  });
  test("a local file is judged by its bytes", () => {
    expect(looksLikePdf(new TextEncoder().encode("%PDF-1.7\n"))).toBe(true);
    expect(looksLikePdf(new TextEncoder().encode("junk\n%PDF-1.4"))).toBe(true);
    expect(looksLikePdf(new TextEncoder().encode("<html>"))).toBe(false);
    expect(titleFromFilename("C:\\talks\\Q3 Review.PDF")).toBe("Q3 Review");
    expect(titleFromFilename(".pdf")).toBe("presentation");
    expect(formatBytes(20 * 1024 * 1024)).toBe("20 MB");
  });
  test("the service worker answers every deck URL with its page shell", () => {
    expect(shellFor("/")).toBe("/");
    expect(shellFor("/present/abc")).toBe("/present/_");
    expect(shellFor("/view/abc")).toBe("/view/_");
    expect(shellFor("/start/abc")).toBe("/start/_");
    expect(shellFor("/play/abc")).toBe("/play/_");
    expect(shellFor("/api/sessions/x/handoff")).toBeNull();
    expect(shellFor("/present/")).toBeNull();
    expect(isImmutableAsset("/assets/app-1.css")).toBe(true);
    expect(isImmutableAsset("/api/check")).toBe(false);
    // Precached from the HTTP cache: only what never changes under its URL, not the icon.
    expect(isVersionedAsset("/vendor/mupdf-1.28.1/mupdf-wasm.wasm")).toBe(true);
    expect(isVersionedAsset("/assets/app-1.css")).toBe(true);
    expect(isImmutableAsset("/favicon.svg")).toBe(true);
    expect(isVersionedAsset("/favicon.svg")).toBe(false);
    expect(isVersionedAsset("/present/_")).toBe(false);
  });
});

describe("deckIdFromPath", () => {
  test("reads the deck id of the presenter and audience paths", () => {
    expect(deckIdFromPath("/present/0123456789abcdef")).toBe("0123456789abcdef");
    expect(deckIdFromPath("/view/a%2Fb")).toBe("a/b");
    expect(deckIdFromPath("/present")).toBe("");
  });
});
