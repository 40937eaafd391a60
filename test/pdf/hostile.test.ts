/**
 * Hostile structure: looping Kids, absurd depth, missing keys, failing streams and
 * decompression bombs become findings in a schema-valid report — never a throw — at the
 * default limits.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { checkFixture, deflateBomb, mp4Bytes, notesSidecar } from "../fixtures/sidecar-builder.ts";
import { allIssues, expectValidReport } from "../helpers/report-schema.ts";
import { ascii85 as decodeAscii85 } from "../../src/deck/stream-decode.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (4 s).
setDefaultTimeout(45_000);

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
    const report = await checkFixture({ pages: 1, nameTree: { depth: 500 }, attachments: [notesSidecar(1, "deep")] });
    expectValidReport(report);
    expect(codes(report)).toEqual(["NAME_TREE_TOO_DEEP"]);
    expect(report.pages[0]!.presenterNotes).toBeNull();
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

  test("a decompression bomb (300 MiB of zeros in ~300 KB) stops at 64× its stored size, long before the 256 MiB cap", async () => {
    const bomb = deflateBomb(300);
    expect(bomb.length).toBeLessThan(1_000_000);
    const report = await checkFixture({ pages: 1, attachments: [{ name: "media-bomb.mp4", encoding: { raw: bomb, filter: "FlateDecode" } }, notesSidecar(1, "after the bomb")] });
    expectValidReport(report);
    const bombResult = report.orphans.find((o) => o.filename === "media-bomb.mp4")!;
    expect(bombResult.issues[0]).toMatchObject({ code: "ATTACHMENT_TOO_LARGE", level: "error", attachment: "media-bomb.mp4" });
    const capMiB = Number(/decodes to more than (\d+) MiB/.exec(bombResult.issues[0]!.message)?.[1]);
    expect(capMiB).toBe(Math.round((bomb.length * 64) / (1024 * 1024)));
    expect(bombResult.bytes).toBeNull();
    expect(report.pages[0]!.presenterNotes?.text).toBe("after the bomb");
  });

  test("a small stream may always decode to 16 MiB, whatever its ratio", async () => {
    const bomb = deflateBomb(20); // ~20 KB stored: 64× would be ~1.3 MiB
    const report = await checkFixture({ pages: 1, attachments: [{ name: "media-bomb.mp4", encoding: { raw: bomb, filter: "FlateDecode" } }] });
    expect(report.orphans[0]!.issues[0]!.message).toContain("decodes to more than 16 MiB");
  });

  test("attachments share one decode budget per deck: past it, the rest are not decoded", async () => {
    const MiB = 1024 * 1024;
    const report = await checkFixture(
      { pages: 1, attachments: Array.from({ length: 6 }, (_, i) => ({ name: `media-b${i}.mp4`, data: mp4Bytes(3 * MiB), encoding: "none" as const })) },
      { maxTotalBytes: 10 * MiB },
    );
    expectValidReport(report);
    // Three decode fully (9 MiB); the fourth would pass 10 MiB; the rest are not even started.
    expect(report.orphans.map((o) => [o.filename, o.bytes, o.issues.map((i) => i.code)]) as unknown[]).toEqual([
      ...[0, 1, 2].map((i) => [`media-b${i}.mp4`, 3 * MiB, ["MEDIA_FILE_UNREFERENCED"]]),
      ...[3, 4, 5].map((i) => [`media-b${i}.mp4`, null, ["DECODE_BUDGET_EXCEEDED", "MEDIA_FILE_UNREFERENCED"]]),
    ]);
  });

  test("an attachment whose bytes are fine but whose /Params lie is reported, not trusted", async () => {
    const report = await checkFixture({ pages: 1, attachments: [{ name: "media-x.mp4", data: mp4Bytes(1000), size: 5, checksum: "wrong" }] });
    expectValidReport(report);
    expect(report.orphans[0]!.issues.map((i) => i.code)).toEqual(["SIZE_MISMATCH", "CHECKSUM_MISMATCH", "MEDIA_FILE_UNREFERENCED"]);
    expect(report.orphans[0]!.bytes).toBe(1000);
  });
});

/** ASCII85-encode (Adobe flavour, "z" for zero groups, "~>" end marker). */
function ascii85(bytes: Uint8Array): Uint8Array {
  let out = "";
  for (let i = 0; i < bytes.length; i += 4) {
    const chunk = [0, 1, 2, 3].map((k) => bytes[i + k] ?? 0);
    const n = bytes.length - i >= 4 ? 4 : bytes.length - i;
    let value = ((chunk[0]! << 24) | (chunk[1]! << 16) | (chunk[2]! << 8) | chunk[3]!) >>> 0;
    if (value === 0 && n === 4) {
      out += "z";
      continue;
    }
    const digits: string[] = [];
    for (let k = 0; k < 5; k++) {
      digits.unshift(String.fromCharCode((value % 85) + 33));
      value = Math.floor(value / 85);
    }
    out += digits.slice(0, n + 1).join("");
  }
  return new TextEncoder().encode(`${out}~>`);
}

describe("ASCII85 streams", () => {
  test("decode correctly", async () => {
    const json = new TextEncoder().encode(JSON.stringify({ notes: "Hello from *ASCII85*" }));
    const report = await checkFixture({
      pages: 1,
      attachments: [{ name: "notes-slide-1.json", size: "none", encoding: { raw: ascii85(json), filter: "ASCII85Decode" } }],
    });
    expectValidReport(report);
    expect(report.pages[0]!.presenterNotes?.text).toBe("Hello from *ASCII85*");
  });

  test("a run of 'z' (4 zero bytes per input byte) is handed out a slice at a time, never whole", () => {
    const bomb = new TextEncoder().encode(`${"z".repeat(4 * 1024 * 1024)}~>`); // decodes to 16 MiB
    const sizes: number[] = [];
    decodeAscii85(bomb, Number.MAX_SAFE_INTEGER, (chunk) => {
      expect(chunk.every((b) => b === 0)).toBe(true);
      sizes.push(chunk.length);
    });
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(16 * 1024 * 1024);
    expect(Math.max(...sizes)).toBeLessThanOrEqual((1 << 20) + 8);
  });

  test("a 'z' bomb in a PDF becomes ATTACHMENT_TOO_LARGE", async () => {
    const bomb = new TextEncoder().encode(`${"z".repeat(2 * 1024 * 1024)}~>`);
    const report = await checkFixture(
      { pages: 1, attachments: [{ name: "media-bomb.mp4", size: "none", encoding: { raw: bomb, filter: "ASCII85Decode" } }] },
      { maxAttachmentBytes: 1024 * 1024 },
    );
    expectValidReport(report);
    expect(codes(report)).toContain("ATTACHMENT_TOO_LARGE");
  });
});
