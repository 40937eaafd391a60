import { describe, expect, test } from "bun:test";
import { baseName, matchAttachmentName } from "../../src/deck/sidecar/names.ts";
import { isExecutable, mimeAgrees, sniffMime } from "../../src/deck/sidecar/sniff.ts";
import { renderTypst } from "../../src/deck/sidecar/typst.ts";
import { videoService, vimeoId, youtubeId } from "../../src/deck/sidecar/video-ids.ts";
import { normalizeEndTime } from "../../src/deck/sidecar/pdfpc.ts";
import { aviBytes, EXE_BYTES, GIF_BYTES, mp4Bytes, webmBytes } from "../fixtures/sidecar-builder.ts";

describe("names", () => {
  test("base names for / and \\ separators", () => {
    expect(baseName("src/notes-slide-2.json")).toBe("notes-slide-2.json");
    expect(baseName("a\\b\\media-x.gif")).toBe("media-x.gif");
    expect(baseName("dir/")).toBe("dir");
  });
  test("conventions", () => {
    expect(matchAttachmentName("notes-slide-12.json")).toEqual({ type: "notes", slide: 12 });
    expect(matchAttachmentName("media-slide-3-my_clip.v2.json")).toEqual({ type: "media-sidecar", slide: 3, id: "my_clip.v2" });
    expect(matchAttachmentName("media-my_clip.v2.webm")).toEqual({ type: "media-file", id: "my_clip.v2", extension: "webm" });
    expect(matchAttachmentName("Talk.PDFPC")).toEqual({ type: "pdfpc" });
    expect(matchAttachmentName("poll-slide-4.json")).toEqual({ type: "poll", slide: 4 });
    expect(matchAttachmentName("poll-slide-04.json")).toEqual({ type: "poll", slide: 4 });
    expect(matchAttachmentName("Poll-Slide-4.json").type).toBe("near-miss");
    expect(matchAttachmentName("poll-slide-4.yaml").type).toBe("near-miss");
    expect(matchAttachmentName("Notes-Slide-2.json").type).toBe("near-miss");
    expect(matchAttachmentName("media-slide-2.json").type).toBe("near-miss");
    expect(matchAttachmentName("logo.png")).toEqual({ type: "other" });
  });
});

describe("video ids", () => {
  test.each([
    ["dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1", "dQw4w9WgXcQ"],
    ["https://youtu.be/dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["youtube.com/embed/dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://m.youtube.com/shorts/dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ", "dQw4w9WgXcQ"],
    ["https://evil.example/watch?v=dQw4w9WgXcQ", null],
    ["https://youtube.com/watch?v=short", null],
  ])("youtube %s", (input, id) => expect(youtubeId(input)).toBe(id));
  test.each([
    ["76979871", "76979871"],
    ["https://vimeo.com/76979871", "76979871"],
    ["https://player.vimeo.com/video/76979871?h=abc", "76979871"],
    ["https://vimeo.com/channels/staffpicks/76979871", "76979871"],
    ["https://vimeo.com/about", null],
    ["https://notvimeo.com/76979871", null],
  ])("vimeo %s", (input, id) => expect(vimeoId(input)).toBe(id));
  test("service from URL", () => {
    expect(videoService("https://youtu.be/x")).toBe("youtube");
    expect(videoService("https://player.vimeo.com/video/1")).toBe("vimeo");
    expect(videoService("https://example.org/a.mp4")).toBeNull();
  });
});

describe("sniffing", () => {
  test("media and dangerous types", () => {
    expect(sniffMime(GIF_BYTES)).toBe("image/gif");
    expect(sniffMime(mp4Bytes())).toBe("video/mp4");
    expect(sniffMime(webmBytes())).toBe("video/webm");
    expect(sniffMime(aviBytes())).toBe("video/x-msvideo");
    expect(sniffMime(new TextEncoder().encode("ID3\x03\x00"))).toBe("audio/mpeg");
    expect(sniffMime(new TextEncoder().encode("OggS\x00\x02"))).toBe("audio/ogg");
    expect(sniffMime(new TextEncoder().encode("RIFF\x00\x00\x00\x00WAVEfmt "))).toBe("audio/wav");
    expect(sniffMime(new TextEncoder().encode("\uFEFF  <!DOCTYPE html><p>"))).toBe("text/html");
    expect(sniffMime(new TextEncoder().encode("#!/bin/sh\nrm -rf /"))).toBe("text/x-shellscript");
    expect(sniffMime(EXE_BYTES)).toBe("application/vnd.microsoft.portable-executable");
    expect(sniffMime(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2]))).toBe("application/x-elf");
    expect(sniffMime(new Uint8Array())).toBeNull();
  });
  test("executables by bytes or extension", () => {
    expect(isExecutable("run.js", "application/json")).toBe(true);
    expect(isExecutable("clip.mp4", "application/x-elf")).toBe(true);
    expect(isExecutable("notes-slide-1.json", "application/json")).toBe(false);
  });
  test("audio/video flavours of one container agree", () => {
    expect(mimeAgrees("video/ogg", "audio/ogg")).toBe(true);
    expect(mimeAgrees("audio/mp3", "audio/mpeg")).toBe(true);
    expect(mimeAgrees("video/mp4", "image/gif")).toBe(false);
  });
});

describe("Typst rendering details", () => {
  test("code blocks, enums, quotes, links that are not http", () => {
    const md = renderTypst({
      func: "sequence",
      children: [
        { func: "raw", text: "let x = 1;", block: true, lang: "rust" },
        { func: "enum", start: 3, children: [{ func: "item", body: { func: "text", text: "three" } }, { func: "item", body: { func: "text", text: "four" } }] },
        { func: "quote", body: { func: "text", text: "wise words" } },
        { func: "link", dest: "javascript:alert(1)", body: { func: "text", text: "click" } },
      ],
    }).markdown;
    expect(md).toBe("```rust\nlet x = 1;\n```\n\n3. three\n4. four\n\n> wise words\n\nclick");
  });
  test("text that looks like markdown is escaped", () => {
    expect(renderTypst({ func: "text", text: "# not a heading *or* [link](x)" }).markdown).toBe("\\# not a heading \\*or\\* \\[link\\](x)");
  });
  test("absurd nesting is cut off, not a stack overflow", () => {
    let node: Record<string, unknown> = { func: "text", text: "deep" };
    for (let i = 0; i < 10_000; i++) node = { func: "strong", body: node };
    expect(typeof renderTypst(node).markdown).toBe("string");
  });
});

test("pdfpc endTime forms", () => {
  expect(normalizeEndTime("9:05")).toBe("09:05");
  expect(normalizeEndTime("2026-11-23T10:45:00Z")).toBe("10:45");
  expect(normalizeEndTime("25:00")).toBeNull();
  expect(normalizeEndTime("soon")).toBeNull();
});
