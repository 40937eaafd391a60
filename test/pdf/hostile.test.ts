/**
 * Hostile structure (issue 3): looping Kids, absurd depth, missing keys, failing streams and
 * decompression bombs become findings in a schema-valid report — never a throw — at the
 * default limits.
 */
import { describe, expect, test } from "bun:test";
import { checkFixture, deflateBomb, mp4Bytes, notesSidecar } from "../fixtures/sidecar-builder.ts";
import { allIssues, expectValidReport } from "../helpers/report-schema.ts";

const codes = (report: unknown) => allIssues(report).map((i) => i.code);

describe("hostile PDF structure", () => {
  test("a name tree whose Kids loop back is walked once; the files in it are still found", async () => {
    const report = await checkFixture({ pages: 2, nameTree: "loop", attachments: [notesSidecar(1, "still here"), notesSidecar(2, "me too")] });
    expectValidReport(report);
    expect(report.issues).toEqual([expect.objectContaining({ code: "NAME_TREE_LOOP", level: "error" })]);
    expect(report.pages.map((p) => p.presenterNotes?.text)).toEqual(["still here", "me too"]);
    expect(report.ok).toBe(false);
  });

  test("an absurdly deep name tree stops at the depth cap", async () => {
    const started = performance.now();
    const report = await checkFixture({ pages: 1, nameTree: { depth: 500 }, attachments: [notesSidecar(1, "deep")] });
    expectValidReport(report);
    expect(codes(report)).toEqual(["NAME_TREE_TOO_DEEP"]);
    expect(report.pages[0]!.presenterNotes).toBeNull();
    expect(performance.now() - started).toBeLessThan(5000);
  });

  test("a name tree wider than the node cap is cut off", async () => {
    const report = await checkFixture({ pages: 1, nameTree: { wide: 10_050 }, attachments: [notesSidecar(1, "first leaf")] });
    expectValidReport(report);
    expect(codes(report)).toEqual(["NAME_TREE_TOO_LARGE"]);
    expect(report.pages[0]!.presenterNotes?.text).toBe("first leaf");
  });

  test("missing keys: nodes without Names/Kids, filespecs without /EF, annotations without /FS or assets", async () => {
    const report = await checkFixture({
      pages: 2,
      nameTree: "malformed",
      attachments: [notesSidecar(1, "ok"), { name: "notes-slide-2.json", noStream: true }],
      rawAnnotations: [
        { page: 1, dict: { Type: "Annot", Subtype: "FileAttachment", Rect: [0, 0, 10, 10] } },
        { page: 2, dict: { Type: "Annot", Subtype: "RichMedia", Rect: [0, 0, 10, 10] } },
        { page: 2, dict: { Type: "Annot", Subtype: "Screen", Rect: [0, 0, 10, 10], A: { S: "Rendition", R: { S: "MR", C: { S: "MCD", D: 7 } } } } },
        { page: 2, dict: { Type: "Annot", Subtype: "Text" } },
        { page: 2, dict: { Subtype: 17 } },
      ],
    });
    expectValidReport(report);
    expect(codes(report).sort()).toEqual(["ANNOTATION_MALFORMED", "ANNOTATION_MALFORMED", "ANNOTATION_MALFORMED", "ATTACHMENT_STREAM_MISSING", "NAME_TREE_MALFORMED"]);
    expect(report.pages[0]!.presenterNotes?.text).toBe("ok");
  });

  test("streams that fail to decode: corrupt Flate, an unknown filter, a malformed /Filter", async () => {
    const garbage = new TextEncoder().encode("definitely not compressed data ".repeat(10));
    const report = await checkFixture({
      pages: 1,
      attachments: [
        { name: "media-a.mp4", encoding: { raw: garbage, filter: "FlateDecode" } },
        { name: "media-b.mp4", encoding: { raw: garbage, filter: "FooDecode" } },
        { name: "media-c.mp4", encoding: { raw: garbage, filter: ["ASCIIHexDecode", "FlateDecode"] } },
      ],
    });
    expectValidReport(report);
    const failed = report.orphans.map((o) => [o.filename, o.issues.map((i) => i.code), o.bytes]);
    expect(failed).toEqual([
      ["media-a.mp4", ["STREAM_DECODE_FAILED", "MEDIA_FILE_UNREFERENCED"], null],
      ["media-b.mp4", ["STREAM_DECODE_FAILED", "MEDIA_FILE_UNREFERENCED"], null],
      ["media-c.mp4", ["STREAM_DECODE_FAILED", "MEDIA_FILE_UNREFERENCED"], null],
    ]);
    expect(report.orphans[1]!.issues[0]!.message).toContain("FooDecode");
  });

  test("a decompression bomb (300 MiB of zeros in ~300 KB) stops at the default 256 MiB cap", async () => {
    const bomb = deflateBomb(300);
    expect(bomb.length).toBeLessThan(1_000_000);
    const started = performance.now();
    const report = await checkFixture({ pages: 1, attachments: [{ name: "media-bomb.mp4", encoding: { raw: bomb, filter: "FlateDecode" } }, notesSidecar(1, "after the bomb")] });
    expectValidReport(report);
    const bombResult = report.orphans.find((o) => o.filename === "media-bomb.mp4")!;
    expect(bombResult.issues[0]).toMatchObject({ code: "ATTACHMENT_TOO_LARGE", level: "error", attachment: "media-bomb.mp4" });
    expect(bombResult.issues[0]!.message).toContain("256 MiB");
    expect(bombResult.bytes).toBeNull();
    expect(report.pages[0]!.presenterNotes?.text).toBe("after the bomb");
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  test("many bombs share one decode budget per deck (1 GiB): the rest are not decoded", async () => {
    const bomb = deflateBomb(200);
    const report = await checkFixture({ pages: 1, attachments: Array.from({ length: 7 }, (_, i) => ({ name: `media-b${i}.mp4`, size: "none" as const, encoding: { raw: bomb, filter: "FlateDecode" } })) });
    expectValidReport(report);
    // Five decode fully (1000 MiB); the sixth would pass 1024 MiB; the seventh is not even started.
    expect(report.orphans.map((o) => [o.filename, o.bytes, o.issues.map((i) => i.code)]) as unknown[]).toEqual([
      ...[0, 1, 2, 3, 4].map((i) => [`media-b${i}.mp4`, 200 * 1024 * 1024, ["MEDIA_FILE_UNREFERENCED"]]),
      ["media-b5.mp4", null, ["DECODE_BUDGET_EXCEEDED", "MEDIA_FILE_UNREFERENCED"]],
      ["media-b6.mp4", null, ["DECODE_BUDGET_EXCEEDED", "MEDIA_FILE_UNREFERENCED"]],
    ]);
  }, 60_000);

  test("an attachment whose bytes are fine but whose /Params lie is reported, not trusted", async () => {
    const report = await checkFixture({ pages: 1, attachments: [{ name: "media-x.mp4", data: mp4Bytes(1000), size: 5, checksum: "wrong" }] });
    expectValidReport(report);
    expect(report.orphans[0]!.issues.map((i) => i.code)).toEqual(["SIZE_MISMATCH", "CHECKSUM_MISMATCH", "MEDIA_FILE_UNREFERENCED"]);
    expect(report.orphans[0]!.bytes).toBe(1000);
  });
});
