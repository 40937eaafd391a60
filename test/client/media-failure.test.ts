/**
 * URL media that failed, the pure parts: the presenter is told only what is known about URL media
 * that could not be kept for offline use, and a YouTube embed asks its player to answer (the
 * browser side of it is test/e2e/stage-media-timer.e2e.test.ts).
 */
import { describe, expect, test } from "bun:test";
import { embedUrl } from "../../client/src/lib/media.ts";
import { offlineCopyNotice, type StoreOutcome } from "../../client/src/lib/url-media.ts";

describe("offlineCopyNotice", () => {
  test("nothing to say when every URL medium was kept", () => {
    expect(offlineCopyNotice(new Map<string, StoreOutcome>([["https://a/x.gif", "stored"], ["https://a/y.webm", "already"]]))).toBeNull();
  });

  test("a failed fetch is told as both things it may be, never as one guessed cause", () => {
    const text = offlineCopyNotice(new Map<string, StoreOutcome>([["https://a/x.gif", "refused"]]))!;
    expect(text).toBe("1 URL medium of this deck is not kept for offline use and will play only while online: 1 could not be fetched (the server did not answer, or does not let pages copy its files).");
    expect(text).not.toContain("does not allow it");
  });

  test("each known outcome is named with its count", () => {
    const text = offlineCopyNotice(new Map<string, StoreOutcome>([["1", "refused"], ["2", "refused"], ["3", "too-large"], ["4", "failed"], ["5", "stored"]]))!;
    expect(text).toStartWith("4 URL media of this deck are not kept for offline use");
    expect(text).toContain("2 could not be fetched");
    expect(text).toContain("1 was answered with an error");
    expect(text).toContain("1 is larger than 256 MB");
  });
});

test("a YouTube embed asks its player to talk to the page (enablejsapi, this page's origin)", () => {
  const base = { id: "v", slide: 1, mime: "", rect: { x: 0, y: 0, w: 1, h: 1 }, autoplay: false, loop: false };
  const url = new URL(embedUrl({ ...base, kind: "youtube", videoId: "dQw4w9WgXcQ" }, "https://talk.example")!);
  expect(url.searchParams.get("enablejsapi")).toBe("1");
  expect(url.searchParams.get("origin")).toBe("https://talk.example");
});
