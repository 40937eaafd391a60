/** readDeckExtras shows exactly what the report says is shown. */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { loadMupdf } from "../../src/pdf/mupdf.ts";
import { readAttachmentBytes, readDeckExtras } from "../../src/deck/extras.ts";
import { buildCheckReport } from "../../src/deck/report.ts";
import { buildFixturePdf, deflateBomb, GIF_BYTES, mediaSidecar, mp4Bytes, notesSidecar, pdfpcFile, sha256Hex, type FixtureSpec } from "../fixtures/sidecar-builder.ts";
import { expectValidReport } from "../helpers/report-schema.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (2.2 s).
setDefaultTimeout(30_000);

async function open(spec: FixtureSpec) {
  const mupdf = await loadMupdf();
  const bytes = await buildFixturePdf(spec);
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF()!;
  const pageCount = doc.countPages();
  const report = buildCheckReport(mupdf, doc, { bytes: bytes.length, sha256: sha256Hex(bytes), pdfVersion: "1.7", title: null, pageCount });
  expectValidReport(report);
  return { mupdf, doc, report, extras: readDeckExtras(mupdf, doc) };
}

describe("readDeckExtras", () => {
  test("pages hidden and the end slide of a .pdfpc reach the presenter: the notes file beside the PDF wins over the attached one", async () => {
    const attached = pdfpcFile({ pdfpcFormat: 2, endSlide: 2, pages: [{ idx: 1, hidden: true }] });
    const { extras, mupdf, doc } = await open({ pages: 5, attachments: [attached] });
    expect(extras.hidden).toEqual([2]);
    expect(extras.timer).toEqual({ endSlide: 3, sources: { endSlide: "pdfpc" } });
    const beside = JSON.stringify({ pdfpcFormat: 2, endSlide: 3, pages: [{ idx: 3, hidden: true }, { idx: 4, hidden: true }] });
    const withFile = readDeckExtras(mupdf, doc, { notesFile: beside });
    expect(withFile.hidden).toEqual([4, 5]);
    expect(withFile.timer).toEqual({ endSlide: 4, sources: { endSlide: "notes-file" } });
    expect(readDeckExtras(mupdf, doc, { notesFile: JSON.stringify({ pdfpcFormat: 2, pages: [{ idx: 0, note: "hi" }] }) }).hidden).toEqual([2]);
  });

  test("notes priority: sidecar, then pdfpc, then annotation; an invalid sidecar falls back", async () => {
    const { extras, report } = await open({
      pages: 4,
      attachments: [notesSidecar(1, "sidecar 1"), { name: "notes-slide-2.json", data: "{broken" }, pdfpcFile({ pdfpcFormat: 2, duration: 15, pages: [{ idx: 0, note: "pdfpc 1" }, { idx: 1, note: "pdfpc 2" }, { idx: 2, note: "pdfpc 3" }] })],
      textNotes: [{ page: 3, text: "annot 3" }, { page: 4, text: "annot 4" }],
    });
    expect(extras.notes).toEqual({ 1: "sidecar 1", 2: "pdfpc 2", 3: "pdfpc 3", 4: "annot 4" });
    expect(extras.notesSource).toEqual({ 1: "notes-sidecar", 2: "pdfpc", 3: "pdfpc", 4: "annotation" });
    expect(extras.timer).toEqual({ durationMinutes: 15, sources: { durationMinutes: "pdfpc" } });
    expect(extras.layout).toEqual({ kind: "none", position: "none", from: null });
    expect(report.pages.map((p) => p.presenterNotes?.source)).toEqual(["notes-sidecar", "pdfpc", "pdfpc", "annotation"]);
    expect(report.pages[1]!.notes?.validity).toBe("invalid");
  });

  test("invalid media are not shown; media with warnings are", async () => {
    const { extras, report } = await open({
      pages: 2,
      attachments: [
        mediaSidecar(1, "bad", { kind: "url", mime: "video/mp4", url: "file:///etc/passwd" }),
        mediaSidecar(1, "clipped", { kind: "youtube", video_id: "dQw4w9WgXcQ", x_pt: 500 }),
        mediaSidecar(2, "broken", { kind: "file", mime: "video/mp4" }),
        { name: "media-broken.mp4", data: mp4Bytes(), checksum: "wrong" },
        mediaSidecar(2, "gif", { kind: "file", mime: "image/gif" }),
        { name: "media-gif.gif", data: GIF_BYTES },
      ],
    });
    expect(extras.media.map((m) => m.id)).toEqual(["clipped", "gif"]);
    const shownByReport = report.pages.flatMap((p) => p.media.filter((m) => m.kind === "media" && m.validity !== "invalid").map((m) => m.data?.id));
    expect(shownByReport).toEqual(["clipped", "broken", "gif"]);
    // "broken" is valid itself but its binary is invalid, so it is not shown:
    expect(report.pages[1]!.media.find((m) => m.filename === "media-broken.mp4")?.validity).toBe("invalid");
  });

  test("page-attached media are shown at their annotation rectangle", async () => {
    const { extras } = await open({ pages: 1, attachments: [{ name: "clip.mp4", data: mp4Bytes(), page: 1, annotation: "Screen", rect: [72, 392, 372, 692] }] });
    expect(extras.media).toEqual([{ id: "clip", kind: "file", slide: 1, rect: { x: 72, y: 100, w: 300, h: 300 }, mime: "video/mp4", autoplay: true, loop: true, attachment: "clip.mp4", source: "page-annotation" }]);
  });

  test("readAttachmentBytes refuses a bomb and a broken stream with null", async () => {
    const { mupdf, doc } = await open({ pages: 1, attachments: [{ name: "media-bomb.mp4", encoding: { raw: deflateBomb(8), filter: "FlateDecode" } }, { name: "media-bad.mp4", encoding: { raw: new Uint8Array([1, 2, 3]), filter: "FlateDecode" } }] });
    expect(readAttachmentBytes(mupdf, doc, "media-bomb.mp4", 1024 * 1024)).toBeNull();
    expect(readAttachmentBytes(mupdf, doc, "media-bomb.mp4")?.length).toBe(8 * 1024 * 1024);
    expect(readAttachmentBytes(mupdf, doc, "media-bad.mp4")).toBeNull();
  });
});
