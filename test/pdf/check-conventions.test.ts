import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { checkFixture, GIF_BYTES, mediaSidecar, mp4Bytes, notesSidecar, pdfpcFile, webmBytes, writeFixture } from "../fixtures/sidecar-builder.ts";
import { allIssues, expectValidReport } from "../helpers/report-schema.ts";
import { checkPdfFile } from "../../src/pdf/check.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (3.1 s).
setDefaultTimeout(45_000);

describe("check: conventions (docs/decks/sidecars.md)", () => {
  test("a deck without attachments is valid, with empty pages and document metadata", async () => {
    const file = await writeFixture({ pages: 2, title: "Q3 review" });
    const report = await checkPdfFile(file.path, { bytes: file.bytes, sha256: file.sha256 });
    expectValidReport(report);
    expect(report.ok).toBe(true);
    expect(report.$schema).toBe("/schema/check-report.schema.json");
    expect(report.document).toEqual({ bytes: file.bytes, sha256: file.sha256, pdfVersion: expect.stringMatching(/^1\.\d$/), title: "Q3 review", pageCount: 2 });
    expect(report.pageCount).toBe(2);
    expect(report.summary).toEqual({ total: 0, valid: 0, warning: 0, invalid: 0 });
    expect(report.pages.map((p) => p.page)).toEqual([1, 2]);
    expect(report.pages.every((p) => p.notes === null && p.media.length === 0 && p.presenterNotes === null)).toBe(true);
    expect(report.orphans).toEqual([]);
    expect(report.issues).toEqual([]);
  });

  test("notes sidecar with a markdown string becomes the slide's notes", async () => {
    const report = await checkFixture({ pages: 3, attachments: [notesSidecar(2, "Say **hello**")] });
    expectValidReport(report);
    const page = report.pages[1]!;
    expect(page.notes).toMatchObject({ filename: "notes-slide-2.json", kind: "notes", slide: 2, validity: "valid", issues: [], text: "Say **hello**", source: "embedded-files" });
    expect(page.presenterNotes).toEqual({ source: "notes-sidecar", text: "Say **hello**", format: "markdown", attachment: "notes-slide-2.json" });
    expect(report.summary).toEqual({ total: 1, valid: 1, warning: 0, invalid: 0 });
    expect(report.ok).toBe(true);
  });

  test("notes sidecar as an array of blocks joins them with a blank line", async () => {
    const report = await checkFixture({ pages: 1, attachments: [notesSidecar(1, ["First", { func: "strong", body: { func: "text", text: "Second" } }])] });
    expectValidReport(report);
    expect(report.pages[0]!.presenterNotes?.text).toBe("First\n\n**Second**");
  });

  test("notes sidecar stored uncompressed or ASCIIHex-encoded decodes the same", async () => {
    const report = await checkFixture({ pages: 2, attachments: [notesSidecar(1, "plain", { encoding: "none" }), notesSidecar(2, "hex", { encoding: "hex" })] });
    expectValidReport(report);
    expect(report.pages.map((p) => p.presenterNotes?.text)).toEqual(["plain", "hex"]);
  });

  test("media sidecar kind file with its GIF binary places the media and lists the binary on the slide", async () => {
    const report = await checkFixture({
      pages: 2,
      attachments: [mediaSidecar(2, "loop", { kind: "file", mime: "image/gif", filename: "media-loop.gif" }), { name: "media-loop.gif", data: GIF_BYTES, mime: "image/gif", checksum: "correct" }],
    });
    expectValidReport(report);
    const media = report.pages[1]!.media;
    expect(media.map((m) => [m.kind, m.filename, m.validity])).toEqual([
      ["media", "media-slide-2-loop.json", "valid"],
      ["media-file", "media-loop.gif", "valid"],
    ]);
    expect(media[0]!.data).toEqual({ kind: "file", id: "loop", slide: 2, rect: { x: 72, y: 72, w: 320, h: 180 }, mime: "image/gif", autoplay: true, loop: true, attachment: "media-loop.gif" });
    expect(media[1]).toMatchObject({ bytes: GIF_BYTES.length, sniffedType: "image/gif", mimeType: "image/gif", slide: 2 });
  });

  test("media sidecar without filename finds media-{id}.mp4 / .webm", async () => {
    const report = await checkFixture({
      pages: 2,
      attachments: [mediaSidecar(1, "a", { mime: "video/mp4" }), { name: "media-a.mp4", data: mp4Bytes() }, mediaSidecar(2, "b", { kind: "file", mime: "video/webm" }), { name: "media-b.webm", data: webmBytes() }],
    });
    expectValidReport(report);
    expect(report.ok).toBe(true);
    expect(report.pages[0]!.media.map((m) => m.filename)).toEqual(["media-slide-1-a.json", "media-a.mp4"]);
    expect(report.pages[1]!.media[0]!.data).toMatchObject({ kind: "file", attachment: "media-b.webm" });
  });

  test("url, youtube and vimeo media sidecars", async () => {
    const report = await checkFixture({
      pages: 1,
      attachments: [
        mediaSidecar(1, "clip", { kind: "url", mime: "video/mp4", url: "https://example.org/clip.mp4" }),
        mediaSidecar(1, "yt", { kind: "youtube", url: "https://youtu.be/dQw4w9WgXcQ?t=3" }),
        mediaSidecar(1, "vm", { kind: "vimeo", video_id: "76979871" }),
      ],
    });
    expectValidReport(report);
    expect(report.ok).toBe(true);
    const data = report.pages[0]!.media.map((m) => m.data);
    expect(data[0]).toMatchObject({ kind: "url", url: "https://example.org/clip.mp4" });
    expect(data[1]).toMatchObject({ kind: "youtube", videoId: "dQw4w9WgXcQ", url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" });
    expect(data[2]).toMatchObject({ kind: "vimeo", videoId: "76979871", url: "https://vimeo.com/76979871" });
  });

  test("pdfpc gives notes (idx is 0-based) and the timer", async () => {
    const report = await checkFixture({
      pages: 3,
      attachments: [pdfpcFile({ pdfpcFormat: 2, duration: 20, endTime: "10:45", lastMinutes: 5, pages: [{ idx: 0, label: "1", overlay: 0, note: "Open with a *question*" }, { idx: 2, note: "Wrap up" }] })],
    });
    expectValidReport(report);
    expect(report.ok).toBe(true);
    expect(report.pages.map((p) => p.presenterNotes)).toEqual([
      { source: "pdfpc", text: "Open with a *question*", format: "markdown", attachment: "talk.pdfpc" },
      null,
      { source: "pdfpc", text: "Wrap up", format: "markdown", attachment: "talk.pdfpc" },
    ]);
    expect(report.timer).toEqual({ durationMinutes: 20, endTime: "10:45", lastMinutes: 5, sources: { durationMinutes: "pdfpc", endTime: "pdfpc", lastMinutes: "pdfpc" } });
    expect(report.notesSources).toEqual(["pdfpc"]);
    expect(report.notesLayout).toEqual({ kind: "none", position: "none", from: null });
    expect(report.documentAttachments[0]).toMatchObject({ kind: "pdfpc", filename: "talk.pdfpc", validity: "valid" });
  });

  test("pdfpc notes are kept as written: markdown, or text with disableMarkdown (as pdfpc reads both formats)", async () => {
    const one = await checkFixture({ pages: 1, attachments: [pdfpcFile({ pdfpcFormat: 1, pages: [{ idx: 0, note: "2*3 = *6*" }] })] });
    expectValidReport(one);
    expect(one.pages[0]!.presenterNotes).toMatchObject({ text: "2*3 = *6*", format: "markdown" });
    const plain = await checkFixture({ pages: 1, attachments: [pdfpcFile({ pdfpcFormat: 2, disableMarkdown: true, pages: [{ idx: 0, note: "1. Eye contact" }] })] });
    expectValidReport(plain);
    expect(plain.pages[0]!.presenterNotes).toMatchObject({ text: "1. Eye contact", format: "text" });
  });

  test("in-page /Text annotations are notes, as written: plain text (no escapes) from a tool that is not pdfpc's", async () => {
    const report = await checkFixture({ pages: 2, textNotes: [{ page: 2, text: "1. Remember the demo_v2" }, { page: 2, text: "Then questions" }] });
    expectValidReport(report);
    expect(report.pages[1]!.presenterNotes).toEqual({ source: "annotation", text: "1. Remember the demo_v2\n\nThen questions", format: "text" });
    expect(report.summary.total).toBe(0);
  });

  test("media attached to a page via FileAttachment, Screen and RichMedia is placed at the annotation's /Rect", async () => {
    const report = await checkFixture({
      pages: [{ width: 800, height: 600 }, { width: 800, height: 600 }],
      attachments: [
        { name: "intro.mp4", data: mp4Bytes(), page: 1, annotation: "Screen", rect: [100, 200, 500, 500] },
        { name: "spin.gif", data: GIF_BYTES, page: 2, annotation: "FileAttachment", rect: [0, 0, 100, 100] },
        { name: "talk.webm", data: webmBytes(), page: 2, annotation: "RichMedia", rect: [400, 300, 800, 600] },
      ],
    });
    expectValidReport(report);
    expect(report.ok).toBe(true);
    const p1 = report.pages[0]!.media;
    expect(p1).toHaveLength(1);
    expect(p1[0]).toMatchObject({ kind: "page-media", filename: "intro.mp4", source: "page-annotation", page: 1, slide: 1, sniffedType: "video/mp4" });
    expect(p1[0]!.data).toMatchObject({ kind: "file", rect: { x: 100, y: 100, w: 400, h: 300 }, attachment: "intro.mp4", annotation: "Screen" });
    expect(report.pages[1]!.media.map((m) => [m.filename, (m.data as { rect: unknown }).rect])).toEqual([
      ["spin.gif", { x: 0, y: 500, w: 100, h: 100 }],
      ["talk.webm", { x: 400, y: 0, w: 400, h: 300 }],
    ]);
  });

  test("a sidecar attached to a page is matched like one in the name tree", async () => {
    const report = await checkFixture({ pages: 2, attachments: [notesSidecar(2, "on the page", { page: 2 })] });
    expectValidReport(report);
    expect(report.pages[1]!.notes).toMatchObject({ source: "page-annotation", page: 2, slide: 2, validity: "valid" });
  });

  test("the same file specification in the name tree and on a page is one attachment bound to the page", async () => {
    const report = await checkFixture({ pages: 2, attachments: [{ name: "clip.mp4", data: mp4Bytes(), page: 2, annotation: "Screen", alsoInNameTree: true }] });
    expectValidReport(report);
    expect(report.summary.total).toBe(1);
    expect(report.pages[1]!.media[0]).toMatchObject({ source: "page-annotation", page: 2 });
    expect(allIssues(report)).toEqual([]);
  });
});
