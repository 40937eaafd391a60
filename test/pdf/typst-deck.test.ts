/**
 * A deck in the Typst style: attachments under a folder (`src/…`), notes as Typst content
 * trees, a GIF as kind "file", and url / YouTube / Vimeo media. What the report lists per
 * slide is what the presenter gets from readDeckExtras, and readAttachmentBytes hands over
 * the GIF for playback.
 */
import { describe, expect, test } from "bun:test";
import { loadMupdf } from "../../src/pdf/mupdf.ts";
import { readAttachmentBytes, readDeckExtras } from "../../src/deck/extras.ts";
import { buildCheckReport } from "../../src/deck/report.ts";
import { buildFixturePdf, GIF_BYTES, sha256Hex, type FixtureAttachment } from "../fixtures/sidecar-builder.ts";
import { expectValidReport } from "../helpers/report-schema.ts";

const text = (t: string) => ({ func: "text", text: t });
const space = { func: "space" };

/** What `typst query --field value` gives for `#speaker-note[…]` content. */
const slide2Notes = {
  func: "sequence",
  children: [
    { func: "heading", depth: 2, body: text("Why offline") },
    { func: "parbreak" },
    text("Conference Wi-Fi fails "),
    { func: "emph", body: text("exactly") },
    text(" when you present."),
    { func: "parbreak" },
    { func: "item", body: text("bring the deck") },
    { func: "item", body: { func: "sequence", children: [text("run"), space, { func: "raw", text: "deckhand present", block: false }] } },
    { func: "parbreak" },
    text("See "),
    { func: "link", dest: "https://typst.app/docs", body: text("the docs") },
    text("."),
  ],
};

const typstDeck: FixtureAttachment[] = [
  { name: "src/notes-slide-1.json", data: { slide: "1", notes: { func: "strong", body: text("Welcome") } } },
  { name: "src/notes-slide-2.json", data: { slide: "2", notes: slide2Notes } },
  { name: "src/notes-slide-3.json", data: { slide: "3", notes: [text("Demo time"), { func: "sequence", children: [text("Ask: "), { func: "smartquote", double: true }, text("who uses Typst?"), { func: "smartquote", double: true }] }] } },
  { name: "src/media-slide-3-spinner.json", data: { kind: "file", slide: "3", id: "spinner", mime: "image/gif", x_pt: 400, y_pt: 200, w_pt: 160, h_pt: 120, autoplay: true, loop: true, filename: "src/media-spinner.gif" } },
  { name: "src/media-spinner.gif", data: GIF_BYTES, mime: "image/gif", checksum: "correct" },
  { name: "src/media-slide-4-trailer.json", data: { kind: "url", slide: 4, id: "trailer", mime: "video/mp4", x_pt: 50, y_pt: 60, w_pt: 480, h_pt: 270, autoplay: false, url: "https://media.example.org/trailer.mp4" } },
  { name: "src/media-slide-4-talk.json", data: { kind: "youtube", slide: 4, id: "talk", x_pt: 540, y_pt: 60, w_pt: 200, h_pt: 112.5, url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s" } },
  { name: "src/media-slide-5-reel.json", data: { kind: "vimeo", slide: 5, id: "reel", x_pt: 0, y_pt: 0, w_pt: 792, h_pt: 445.5, video_id: "76979871", loop: false } },
];

describe("a Typst-style deck", async () => {
  const mupdf = await loadMupdf();
  const bytes = await buildFixturePdf({ pages: Array.from({ length: 5 }, () => ({ width: 792, height: 445.5 })), attachments: typstDeck, title: "Typst deck" });
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF()!;
  const report = buildCheckReport(mupdf, doc, { bytes: bytes.length, sha256: sha256Hex(bytes), pdfVersion: "1.7", title: "Typst deck", pageCount: 5 });
  const extras = readDeckExtras(mupdf, doc);

  test("the report is valid and lists every attachment on its slide", () => {
    expectValidReport(report);
    expect(report.ok).toBe(true);
    expect(report.summary).toEqual({ total: 8, valid: 8, warning: 0, invalid: 0 });
    expect(report.orphans).toEqual([]);
    expect(report.pages.map((p) => [p.notes?.name ?? null, p.media.map((m) => m.name)])).toEqual([
      ["src/notes-slide-1.json", []],
      ["src/notes-slide-2.json", []],
      ["src/notes-slide-3.json", ["src/media-slide-3-spinner.json", "src/media-spinner.gif"]],
      [null, ["src/media-slide-4-trailer.json", "src/media-slide-4-talk.json"]],
      [null, ["src/media-slide-5-reel.json"]],
    ]);
  });

  test("Typst content trees render to the expected markdown", () => {
    expect(extras.notes).toEqual({
      1: "**Welcome**",
      2: "## Why offline\n\nConference Wi-Fi fails _exactly_ when you present.\n\n- bring the deck\n- run `deckhand present`\n\nSee [the docs](https://typst.app/docs).",
      3: 'Demo time\n\nAsk: "who uses Typst?"',
    });
    expect(extras.notesSource).toEqual({ 1: "notes-sidecar", 2: "notes-sidecar", 3: "notes-sidecar" });
    expect(report.pages.map((p) => p.presenterNotes?.text ?? null)).toEqual([extras.notes[1] ?? "", extras.notes[2] ?? "", extras.notes[3] ?? "", null, null]);
  });

  test("media per slide: GIF file, url, YouTube, Vimeo", () => {
    expect(extras.media).toEqual([
      { id: "spinner", kind: "file", slide: 3, rect: { x: 400, y: 200, w: 160, h: 120 }, mime: "image/gif", autoplay: true, loop: true, attachment: "media-spinner.gif", source: "media-sidecar", sidecar: "media-slide-3-spinner.json" },
      { id: "trailer", kind: "url", slide: 4, rect: { x: 50, y: 60, w: 480, h: 270 }, mime: "video/mp4", autoplay: false, loop: true, url: "https://media.example.org/trailer.mp4", source: "media-sidecar", sidecar: "media-slide-4-trailer.json" },
      { id: "talk", kind: "youtube", slide: 4, rect: { x: 540, y: 60, w: 200, h: 112.5 }, mime: null, autoplay: true, loop: true, videoId: "dQw4w9WgXcQ", url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", source: "media-sidecar", sidecar: "media-slide-4-talk.json" },
      { id: "reel", kind: "vimeo", slide: 5, rect: { x: 0, y: 0, w: 792, h: 445.5 }, mime: null, autoplay: true, loop: false, videoId: "76979871", url: "https://vimeo.com/76979871", source: "media-sidecar", sidecar: "media-slide-5-reel.json" },
    ]);
    // The report's media data describes the same placements.
    const reported = report.pages.flatMap((p) => p.media.filter((m) => m.kind === "media").map((m) => m.data));
    expect(reported.map((d) => [d?.id, d?.kind, d?.rect]) as unknown[]).toEqual(extras.media.map((m) => [m.id, m.kind, m.rect]));
  });

  test("readAttachmentBytes returns the GIF by base name or stored name, null for unknown names", () => {
    expect(readAttachmentBytes(mupdf, doc, "media-spinner.gif")).toEqual(GIF_BYTES);
    expect(readAttachmentBytes(mupdf, doc, "src/media-spinner.gif")).toEqual(GIF_BYTES);
    expect(readAttachmentBytes(mupdf, doc, "nope.gif")).toBeNull();
  });

  test("the timer is empty without pdfpc", () => {
    expect(extras.timer).toEqual({});
    expect(report.timer).toEqual({});
  });
});
