/**
 * Property tests through the whole checker: random sidecar JSON, random attachment names and
 * mutated PDF bytes give either a schema-valid report or one of the documented problems.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { isAppError } from "../../src/base/errors.ts";
import { checkPdfFile } from "../../src/pdf/check.ts";
import { buildFixturePdf, checkFixture, GIF_BYTES, mediaSidecar, notesSidecar, pdfpcFile, writeBytes } from "../fixtures/sidecar-builder.ts";
import { expectValidReport } from "../helpers/report-schema.ts";

const DOCUMENTED = new Set(["NOT_A_PDF", "PDF_UNREADABLE", "PDF_ENCRYPTED", "PDF_NO_PAGES", "TOO_MANY_PAGES"]);

async function checkBytes(data: Uint8Array): Promise<"report" | string> {
  const file = writeBytes(data);
  try {
    const report = await checkPdfFile(file.path, { bytes: file.bytes, sha256: file.sha256 });
    expectValidReport(report);
    return "report";
  } catch (error) {
    if (!isAppError(error)) throw error;
    expect(DOCUMENTED.has(error.code)).toBe(true);
    return error.code;
  }
}

describe("property: the checker never throws outside the documented problems", () => {
  test("mutated PDF bytes (flips, truncation, splices)", async () => {
    const base = await buildFixturePdf({
      pages: 3,
      attachments: [
        notesSidecar(1, "note", { encoding: "none" }),
        notesSidecar(2, { func: "strong", body: { func: "text", text: "typst" } }),
        mediaSidecar(3, "g", { kind: "file", mime: "image/gif" }),
        { name: "media-g.gif", data: GIF_BYTES, checksum: "correct" },
        pdfpcFile({ pdfpcFormat: 2, pages: [{ idx: 0, note: "p" }] }),
      ],
      textNotes: [{ page: 2, text: "annot" }],
    });
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
      fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
      fc.record({ kind: fc.constant("splice" as const), at: fc.nat(), bytes: fc.uint8Array({ maxLength: 40 }) }),
    );
    const outcomes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 12 }), async (mutations) => {
        let data = base.slice();
        for (const m of mutations) {
          const at = data.length === 0 ? 0 : m.at % data.length;
          if (m.kind === "flip") data[at] = m.byte;
          else if (m.kind === "truncate") data = data.slice(0, Math.max(at, 8));
          else data = new Uint8Array([...data.subarray(0, at), ...m.bytes, ...data.subarray(at)]);
        }
        const outcome = await checkBytes(data);
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }),
      { numRuns: 150 },
    );
    expect(outcomes.get("report") ?? 0).toBeGreaterThan(0);
  }, 60_000);

  test("random sidecar JSON embedded in a PDF", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), fc.jsonValue({ maxDepth: 3 }), fc.jsonValue({ maxDepth: 3 }), async (notes, media, pdfpc) => {
        const report = await checkFixture({
          pages: 2,
          attachments: [
            { name: "notes-slide-1.json", data: notes },
            { name: "media-slide-2-r.json", data: media },
            { name: "media-slide-1-s.json", data: typeof media === "object" && media !== null && !Array.isArray(media) ? { ...mediaSidecar(1, "s", { kind: "youtube", video_id: "dQw4w9WgXcQ" }).data as object, ...media } : media },
            pdfpcFile(pdfpc),
          ],
        });
        expectValidReport(report);
      }),
      { numRuns: 40 },
    );
  }, 60_000);

  test("random attachment names", async () => {
    const name = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 40 }),
      fc.tuple(fc.constantFrom("", "src/", "a\\b\\", "../../", "/abs/"), fc.constantFrom("notes-slide-", "media-slide-", "media-", "notes_slide"), fc.integer({ min: -3, max: 9999 }), fc.constantFrom(".json", "-x.json", ".gif", ".mp4", ".pdfpc", "")).map((parts) => parts.join("")),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(name, { minLength: 1, maxLength: 6 }), async (names) => {
        const report = await checkFixture({ pages: 2, attachments: names.map((n, i) => ({ name: n, data: i % 2 ? GIF_BYTES : { notes: "x", slide: "1" } })) });
        expectValidReport(report);
        expect(report.summary.total).toBeLessThanOrEqual(names.length);
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});
