/**
 * One test per finding code: a fixture that produces it, and the exact finding (code, level,
 * slide, attachment) it must produce. Every report is validated against the schema.
 */
import { describe, expect, test } from "bun:test";
import { FINDING_CODES, type FindingCode } from "../../src/deck/sidecar/findings.ts";
import type { AnalyzeOptions } from "../../src/deck/analyze.ts";
import { DEFAULT_DISCOVERY_LIMITS } from "../../src/deck/attachments.ts";
import { buildCheckReport } from "../../src/deck/report.ts";
import { loadMupdf } from "../../src/pdf/mupdf.ts";
import type { PdfDoc } from "../../src/deck/mupdf-types.ts";
import { aviBytes, buildFixturePdf, checkFixture, deflateBomb, EXE_BYTES, GIF_BYTES, mediaSidecar, mp4Bytes, notesSidecar, pdfpcFile, pollSidecar, type FixtureSpec } from "../fixtures/sidecar-builder.ts";
import { allIssues, expectValidReport } from "../helpers/report-schema.ts";
import { buildNotesDeck, framesWithNotes, SLIDE_SIZES, xmpPacket } from "../fixtures/notes-layouts.ts";
import { buildPptx, pptxManySlides, pptxOversizedPart, pptxParts, pptxWithEntities, pptxZipBomb, zipParts } from "../fixtures/pptx.ts";
import { writeBytes } from "../fixtures/sidecar-builder.ts";
import { checkPdfFile } from "../../src/pdf/check.ts";
import { MAX_NOTES_FILE_BYTES, MAX_NOTE_CHARS } from "../../src/deck/notes-file/index.ts";

interface Case {
  spec: FixtureSpec;
  /** A PDF built otherwise (notes layouts, XMP) instead of `spec`. */
  pdf?: () => Promise<Uint8Array>;
  /** A notes file given beside the PDF. */
  notesFile?: () => { bytes: Uint8Array; filename: string };
  options?: Partial<AnalyzeOptions>;
  slide?: number;
  attachment?: string;
  /** Text the message must contain. */
  says?: string;
}

const youtube = { kind: "youtube", video_id: "dQw4w9WgXcQ" };

const CASES: Partial<Record<FindingCode, Case>> = {
  NAME_PATTERN_INVALID: { spec: { attachments: [{ name: "notes_slide_2.json", data: { notes: "x" } }] }, attachment: "notes_slide_2.json", says: "notes-slide-{N}.json" },
  SLIDE_OUT_OF_RANGE: { spec: { pages: 12, attachments: [notesSidecar(14, "late")] }, slide: 14, attachment: "notes-slide-14.json", says: "Slide 14 is out of range (the deck has 12 pages)" },
  SLIDE_MISMATCH: { spec: { attachments: [notesSidecar(2, "x", { fields: { slide: "3" } })] }, slide: 2, attachment: "notes-slide-2.json", says: '"slide": 3' },
  MEDIA_ID_MISMATCH: { spec: { attachments: [mediaSidecar(1, "intro", { ...youtube, id: "outro" })] }, slide: 1, attachment: "media-slide-1-intro.json", says: '"outro"' },
  ATTACHMENT_PAGE_MISMATCH: { spec: { attachments: [notesSidecar(2, "x", { page: 1 })] }, slide: 2, attachment: "notes-slide-2.json", says: "attached to page 1" },
  DUPLICATE_ATTACHMENT_NAME: { spec: { attachments: [notesSidecar(1, "a", { name: "a/notes-slide-1.json" }), notesSidecar(1, "b", { name: "b/notes-slide-1.json" })] }, attachment: "notes-slide-1.json", says: '"b/notes-slide-1.json" has the same file name as "a/notes-slide-1.json"' },
  DUPLICATE_NOTES_SIDECAR: { spec: { attachments: [notesSidecar(2, "a"), notesSidecar(2, "b", { name: "notes-slide-02.json" })] }, slide: 2, attachment: "notes-slide-02.json" },
  UNKNOWN_ATTACHMENT: { spec: { attachments: [{ name: "handout.docx", data: "x" }] }, attachment: "handout.docx" },
  INVALID_UTF8: { spec: { attachments: [{ name: "notes-slide-1.json", data: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) }] }, slide: 1, attachment: "notes-slide-1.json", says: "UTF-8" },
  INVALID_JSON: { spec: { attachments: [{ name: "notes-slide-1.json", data: '{"notes": "unterminated' }] }, slide: 1, attachment: "notes-slide-1.json", says: "not valid JSON" },
  SIDECAR_TOO_LARGE: { spec: { attachments: [notesSidecar(1, "x".repeat(1_100_000))] }, slide: 1, attachment: "notes-slide-1.json", says: "1 MiB" },
  MISSING_FIELD: { spec: { attachments: [{ name: "notes-slide-1.json", data: { slide: "1" } }] }, slide: 1, attachment: "notes-slide-1.json", says: '"notes"' },
  INVALID_FIELD: { spec: { attachments: [notesSidecar(1, 42)] }, slide: 1, attachment: "notes-slide-1.json", says: "a number" },
  UNKNOWN_FIELD: { spec: { attachments: [notesSidecar(1, "x", { fields: { note: "typo" } })] }, slide: 1, attachment: "notes-slide-1.json", says: '"note"' },
  NOTES_EMPTY: { spec: { attachments: [notesSidecar(1, "  ")] }, slide: 1, attachment: "notes-slide-1.json" },
  TYPST_ELEMENT_UNSUPPORTED: { spec: { attachments: [notesSidecar(1, { func: "rect", body: { func: "text", text: "boxed" } })] }, slide: 1, attachment: "notes-slide-1.json", says: '"rect"' },
  NOTES_MULTIPLE_SOURCES: { spec: { pages: 2, attachments: [notesSidecar(2, "sidecar")], textNotes: [{ page: 2, text: "annotation" }] }, slide: 2, says: "the presenter shows those from a notes sidecar (notes-slide-2.json)" },
  MEDIA_RECT_INVALID: { spec: { attachments: [mediaSidecar(1, "v", { ...youtube, w_pt: 0 })] }, slide: 1, attachment: "media-slide-1-v.json" },
  MEDIA_RECT_OUTSIDE_PAGE: { spec: { attachments: [mediaSidecar(1, "v", { ...youtube, x_pt: 5000 })] }, slide: 1, attachment: "media-slide-1-v.json", says: "612×792 pt" },
  MEDIA_RECT_CLIPPED: { spec: { attachments: [mediaSidecar(1, "v", { ...youtube, x_pt: 500 })] }, slide: 1, attachment: "media-slide-1-v.json" },
  MEDIA_FILE_MISSING: { spec: { attachments: [mediaSidecar(1, "clip", { kind: "file", mime: "video/mp4", filename: "media-clip.mp4" })] }, slide: 1, attachment: "media-slide-1-clip.json", says: '"media-clip.mp4"' },
  MEDIA_FILE_UNREFERENCED: { spec: { attachments: [{ name: "media-spare.mp4", data: mp4Bytes() }] }, attachment: "media-spare.mp4" },
  MEDIA_NOT_IN_DECK: { spec: { pages: 2, rawAnnotations: [{ page: 2, dict: { Type: "Annot", Subtype: "Movie", Rect: [100, 100, 300, 250], T: "(mmdefaultlabel1)", Movie: { F: "(clip.mp4)" }, A: {} } }] }, slide: 2, attachment: "clip.mp4", says: "\\embedfile{clip.mp4}" },
  MEDIA_FILENAME_PATTERN: { spec: { attachments: [mediaSidecar(1, "clip", { kind: "file", mime: "video/mp4", filename: "clip.mp4" }), { name: "clip.mp4", data: mp4Bytes() }] }, slide: 1, attachment: "media-slide-1-clip.json" },
  MIME_MISMATCH: { spec: { attachments: [mediaSidecar(1, "a", { kind: "file", mime: "video/mp4", filename: "media-a.mp4" }), { name: "media-a.mp4", data: GIF_BYTES }] }, slide: 1, attachment: "media-slide-1-a.json", says: "contains image/gif" },
  EMBEDDED_MIME_MISMATCH: { spec: { attachments: [mediaSidecar(1, "a", { kind: "file", mime: "image/gif" }), { name: "media-a.gif", data: GIF_BYTES, mime: "video/mp4" }] }, attachment: "media-a.gif", says: "recorded in the PDF as video/mp4" },
  MEDIA_TYPE_UNSUPPORTED: { spec: { attachments: [mediaSidecar(1, "a", { kind: "file", mime: "video/mp4" }), { name: "media-a.mp4", data: "just text" }] }, slide: 1, attachment: "media-a.mp4" },
  UNPLAYABLE_CONTAINER: { spec: { attachments: [{ name: "old.avi", data: aviBytes(), page: 1, annotation: "Screen" }] }, slide: 1, attachment: "old.avi", says: "video/x-msvideo" },
  URL_INVALID: { spec: { attachments: [mediaSidecar(1, "u", { kind: "url", mime: "video/mp4", url: "not a url" })] }, slide: 1, attachment: "media-slide-1-u.json" },
  URL_SCHEME_NOT_ALLOWED: { spec: { attachments: [mediaSidecar(1, "u", { kind: "url", mime: "video/mp4", url: "javascript:alert(1)" })] }, slide: 1, attachment: "media-slide-1-u.json", says: '"javascript:"' },
  VIDEO_ID_UNRECOGNIZED: { spec: { attachments: [mediaSidecar(1, "v", { kind: "vimeo", url: "https://vimeo.com/about" })] }, slide: 1, attachment: "media-slide-1-v.json" },
  DUPLICATE_POLL_SIDECAR: { spec: { attachments: [pollSidecar(2), pollSidecar(2, {}, { name: "poll-slide-02.json" })] }, slide: 2, attachment: "poll-slide-02.json", says: '"poll-slide-2.json"' },
  POLL_OPTIONS_DUPLICATE: { spec: { attachments: [pollSidecar(3, { options: ["Yes", "No", "Yes"] })] }, slide: 3, attachment: "poll-slide-3.json", says: '"Yes"' },
  PDFPC_FORMAT_UNSUPPORTED: { spec: { attachments: [pdfpcFile({ pdfpcFormat: 3, pages: [] })] }, attachment: "talk.pdfpc" },
  PDFPC_MULTIPLE: { spec: { attachments: [pdfpcFile({ pdfpcFormat: 2, pages: [] }), pdfpcFile({ pdfpcFormat: 2, pages: [] }, "other.pdfpc")] }, attachment: "other.pdfpc" },
  ATTACHMENT_STREAM_MISSING: { spec: { attachments: [{ name: "notes-slide-1.json", noStream: true }] }, attachment: "notes-slide-1.json" },
  STREAM_DECODE_FAILED: { spec: { attachments: [{ name: "notes-slide-1.json", encoding: { raw: new TextEncoder().encode("this is not zlib data at all"), filter: "FlateDecode" } }] }, slide: 1, attachment: "notes-slide-1.json", says: "cannot be decoded" },
  ATTACHMENT_TOO_LARGE: { spec: { attachments: [{ name: "media-bomb.mp4", encoding: { raw: deflateBomb(4), filter: "FlateDecode" } }] }, options: { maxAttachmentBytes: 1024 * 1024 }, attachment: "media-bomb.mp4", says: "decompression bomb" },
  DECODE_BUDGET_EXCEEDED: { spec: { attachments: [{ name: "media-a.mp4", data: mp4Bytes(700_000) }, { name: "media-b.mp4", data: mp4Bytes(700_000) }] }, options: { maxTotalBytes: 1024 * 1024 }, attachment: "media-b.mp4" },
  CHECKSUM_MISMATCH: { spec: { attachments: [notesSidecar(1, "x", { checksum: "wrong" })] }, slide: 1, attachment: "notes-slide-1.json", says: "MD5" },
  SIZE_MISMATCH: { spec: { attachments: [notesSidecar(1, "x", { size: "wrong" })] }, slide: 1, attachment: "notes-slide-1.json", says: "/Size" },
  EXECUTABLE_ATTACHMENT: { spec: { attachments: [{ name: "setup.exe", data: EXE_BYTES }] }, attachment: "setup.exe" },
  NAME_TREE_LOOP: { spec: { attachments: [notesSidecar(1, "x")], nameTree: "loop" } },
  NAME_TREE_TOO_DEEP: { spec: { attachments: [notesSidecar(1, "x")], nameTree: { depth: 40 } } },
  NAME_TREE_TOO_LARGE: { spec: { attachments: [notesSidecar(1, "x")], nameTree: { wide: 20 } }, options: { limits: { ...DEFAULT_DISCOVERY_LIMITS, maxNameTreeNodes: 10 } } },
  NAME_TREE_MALFORMED: { spec: { attachments: [notesSidecar(1, "x")], nameTree: "malformed" } },
  TOO_MANY_ATTACHMENTS: { spec: { attachments: [notesSidecar(1, "a"), notesSidecar(2, "b"), notesSidecar(3, "c")] }, options: { limits: { ...DEFAULT_DISCOVERY_LIMITS, maxAttachments: 2 } } },
  ANNOTATIONS_TOO_MANY: {
    spec: { pages: 3, textNotes: [1, 1, 2, 2, 3, 3].map((page) => ({ page, text: `note on ${page}` })) },
    options: { limits: { ...DEFAULT_DISCOVERY_LIMITS, maxAnnotations: 3 } },
    slide: 2,
    says: "more than 3 annotations",
  },
  NOTES_TOO_LONG: {
    spec: { pages: 2, textNotes: [{ page: 2, text: "a".repeat(60) }, { page: 2, text: "b".repeat(60) }] },
    options: { limits: { ...DEFAULT_DISCOVERY_LIMITS, maxNoteChars: 100 } },
    slide: 2,
    says: "longer than 100 characters",
  },
  REPORT_TRUNCATED: { spec: { attachments: [notesSidecar(1, "x".repeat(80)), notesSidecar(2, "y".repeat(80))] }, options: { maxReportTextChars: 200 }, says: "more than 200 characters" },
  XMP_UNREADABLE: { spec: {}, pdf: () => buildNotesDeck({ position: "none", frames: [{ title: "x" }], xmp: "<x:xmpmeta><unclosed>" }), says: "not well-formed XML" },
  PDFPC_METADATA_INVALID: { spec: {}, pdf: () => buildNotesDeck({ position: "none", frames: [{ title: "x" }], xmp: xmpPacket({ Duration: "twenty" }) }), says: "pdfpc:Duration" },
  XML_DOCTYPE_REFUSED: { spec: {}, notesFile: () => ({ bytes: pptxWithEntities(), filename: "laughs.pptx" }), attachment: "laughs.pptx", says: "DOCTYPE" },
  NOTES_LAYOUT_MISMATCH: { spec: {}, pdf: () => buildNotesDeck({ position: "left", frames: framesWithNotes(2), xmp: xmpPacket({ NotesPosition: "right" }) }), says: "the left half is used as notes" },
  NOTES_LAYOUT_UNSPLITTABLE: { spec: {}, pdf: () => buildNotesDeck({ position: "right", frames: framesWithNotes(3), pageSizes: { 0: SLIDE_SIZES["4:3"] } }), says: "3 of the 4 pages" },
  NOTES_LAYOUT_UNCERTAIN: { spec: {}, pdf: () => buildNotesDeck({ position: "right", frames: [{ title: "A" }], header: false, navigation: false }), says: "pgfpages' default" },
  NOTES_FILE_UNRECOGNIZED: { spec: {}, notesFile: () => ({ bytes: new TextEncoder().encode("plain words"), filename: "notes.txt" }), attachment: "notes.txt" },
  NOTES_FILE_TOO_LARGE: { spec: {}, notesFile: () => ({ bytes: new Uint8Array(MAX_NOTES_FILE_BYTES + 1), filename: "huge.pptx" }), attachment: "huge.pptx", says: "32 MiB" },
  NOTES_FILE_TRUNCATED: { spec: {}, notesFile: () => ({ bytes: buildPptx([{ notes: ["x".repeat(MAX_NOTE_CHARS + 10)] }, { notes: ["b"] }, { notes: ["c"] }]), filename: "long.pptx" }), slide: 1, attachment: "long.pptx" },
  NOTES_FILE_EMPTY: { spec: {}, notesFile: () => ({ bytes: buildPptx([{ notes: null }, { notes: null }, { notes: null }]), filename: "empty.pptx" }), attachment: "empty.pptx" },
  NOTES_FILE_SLIDE_COUNT_MISMATCH: { spec: {}, notesFile: () => ({ bytes: buildPptx([{ notes: ["a"] }, { notes: ["b"] }]), filename: "short.pptx" }), attachment: "short.pptx", says: "2 visible slides but the PDF has 3 pages" },
  PPTX_ZIP_INVALID: { spec: {}, notesFile: () => ({ bytes: buildPptx([{ notes: ["a"] }]).slice(0, 200), filename: "cut.pptx" }), attachment: "cut.pptx" },
  PPTX_ZIP_BOMB: { spec: {}, notesFile: () => ({ bytes: pptxZipBomb(64), filename: "bomb.pptx" }), attachment: "bomb.pptx", says: "zip bomb" },
  PPTX_PART_TOO_LARGE: { spec: {}, notesFile: () => ({ bytes: pptxOversizedPart(), filename: "big.pptx" }), attachment: "big.pptx" },
  PPTX_PART_MALFORMED: { spec: {}, notesFile: () => ({ bytes: zipParts({ "ppt/presentation.xml": "<p:presentation><oops></p:presentation>", "ppt/_rels/presentation.xml.rels": "<Relationships/>" }), filename: "broken.pptx" }), attachment: "broken.pptx", says: "not well-formed" },
  PPTX_TOO_MANY_SLIDES: { spec: {}, notesFile: () => ({ bytes: pptxManySlides(3001), filename: "many.pptx" }), attachment: "many.pptx", says: "3000" },
  ANNOTATION_MALFORMED: { spec: { pages: 2, rawAnnotations: [{ page: 2, dict: { Type: "Annot", Subtype: "FileAttachment", Rect: [0, 0, 10, 10] } }] }, slide: 2, says: "FileAttachment annotation on page 2" },
};

async function expectFinding(code: FindingCode, report: unknown, c: Pick<Case, "slide" | "attachment" | "says">) {
  expectValidReport(report);
  const found = allIssues(report).filter((i) => i.code === code);
  expect(found.length).toBeGreaterThanOrEqual(1);
  const issue = found[0]!;
  const expected: Record<string, unknown> = { code, level: FINDING_CODES[code].level, message: expect.any(String) };
  if (c.slide !== undefined) expected.slide = c.slide;
  if (c.attachment !== undefined) expected.attachment = c.attachment;
  expect(issue).toEqual(expected as never);
  if (c.says) expect(issue.message).toContain(c.says);
  // Messages are for authors: never a server path.
  expect(issue.message).not.toMatch(/\/tmp\/|deckhand-sidecar-/);
  const r = report as { ok: boolean };
  if (FINDING_CODES[code].level === "error") expect(r.ok).toBe(false);
}

describe("every finding code has a fixture that produces exactly that finding", () => {
  for (const [code, c] of Object.entries(CASES) as [FindingCode, Case][]) {
    test(`${code} (${FINDING_CODES[code].level})`, async () => {
      const notesFile = c.notesFile?.();
      const options = { ...c.options, ...(notesFile ? { notesFile } : {}) };
      const report = c.pdf
        ? await (async () => {
            const file = writeBytes(await (c.pdf as () => Promise<Uint8Array>)());
            return checkPdfFile(file.path, { bytes: file.bytes, sha256: file.sha256 }, options);
          })()
        : await checkFixture({ pages: 3, ...c.spec }, options);
      await expectFinding(code, report, c);
    }, 60_000);
  }

  // These two need mupdf itself to fail, which no well-formed file makes it do: a document
  // whose page lookup or trailer throws stands in for the corrupt structure.
  test("PAGE_UNREADABLE (error)", async () => {
    const mupdf = await loadMupdf();
    const real = mupdf.Document.openDocument(await buildFixturePdf({ pages: 2 }), "application/pdf").asPDF()!;
    const broken = new Proxy(real, {
      get(target, key) {
        if (key === "findPage") return (i: number) => (i === 1 ? (() => { throw new Error("object out of range"); })() : target.findPage(i));
        const value = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }) as PdfDoc;
    const report = buildCheckReport(mupdf, broken, { bytes: 1, sha256: "0".repeat(64), pdfVersion: "1.7", title: null, pageCount: 2 });
    await expectFinding("PAGE_UNREADABLE", report, { slide: 2 });
  });

  test("STRUCTURE_UNREADABLE (error)", async () => {
    const mupdf = await loadMupdf();
    const real = mupdf.Document.openDocument(await buildFixturePdf({ pages: 1 }), "application/pdf").asPDF()!;
    const broken = new Proxy(real, {
      get(target, key) {
        if (key === "getTrailer") return () => { throw new Error("cannot parse trailer"); };
        const value = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }) as PdfDoc;
    const report = buildCheckReport(mupdf, broken, { bytes: 1, sha256: "0".repeat(64), pdfVersion: "1.7", title: null, pageCount: 1 });
    await expectFinding("STRUCTURE_UNREADABLE", report, {});
    expect(report.pages).toHaveLength(1);
  });

  test("the cases cover every code in the catalogue", () => {
    const covered = new Set([...Object.keys(CASES), "PAGE_UNREADABLE", "STRUCTURE_UNREADABLE"]);
    expect(Object.keys(FINDING_CODES).filter((code) => !covered.has(code))).toEqual([]);
  });
});
