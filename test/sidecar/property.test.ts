/** Property tests of the pure sidecar code: random input never throws, findings stay in the catalogue. */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import fc from "fast-check";
import { createHash } from "node:crypto";
import { deflateRawSync } from "node:zlib";
import { FINDING_CODES } from "../../src/deck/sidecar/findings.ts";
import { md5 } from "@noble/hashes/legacy.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { parseMediaSidecar, readMediaSidecar } from "../../src/deck/sidecar/media.ts";
import { baseName, matchAttachmentName } from "../../src/deck/sidecar/names.ts";
import { parseNotesSidecar, readNotesSidecar } from "../../src/deck/sidecar/notes.ts";
import { parsePdfpc } from "../../src/deck/sidecar/pdfpc.ts";
import { parsePollSidecar, readPollSidecar } from "../../src/deck/sidecar/poll.ts";
import { sniffMime } from "../../src/deck/sidecar/sniff.ts";
import { renderTypst } from "../../src/deck/sidecar/typst.ts";
import { vimeoId, youtubeId } from "../../src/deck/sidecar/video-ids.ts";
import { inflate, InflateError, InflateLimitError } from "../../src/deck/inflate.ts";
import { validatePollSidecar } from "../helpers/report-schema.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (0.8 s).
setDefaultTimeout(10_000);

const known = (issues: { code: string }[]) => issues.every((i) => i.code in FINDING_CODES);
const where = { attachment: "notes-slide-2.json", slide: 2 };
const mediaWhere = { attachment: "media-slide-2-x.json", slide: 2, id: "x" };
const pollWhere = { attachment: "poll-slide-2.json", slide: 2 };

const typstNode = fc.letrec((tie) => ({
  node: fc.record(
    {
      func: fc.constantFrom("sequence", "text", "space", "parbreak", "linebreak", "strong", "emph", "strike", "link", "heading", "raw", "list", "enum", "item", "enum.item", "quote", "smartquote", "styled", "equation", "rect", "", "constructor"),
      text: fc.oneof(fc.string(), fc.integer()),
      body: fc.oneof({ depthSize: "small" }, tie("node"), fc.string(), fc.constant(null)),
      children: fc.array(fc.oneof({ depthSize: "small" }, tie("node"), fc.string(), fc.jsonValue()), { maxLength: 4 }),
      dest: fc.oneof(fc.webUrl(), fc.string()),
      level: fc.oneof(fc.integer(), fc.double()),
      block: fc.boolean(),
      lang: fc.string(),
    },
    { requiredKeys: ["func"] },
  ),
}));

describe("sidecar parsers never throw", () => {
  test("notes: random JSON values and Typst trees", () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), typstNode.node, fc.record({ slide: fc.oneof(fc.string(), fc.integer()), notes: fc.oneof(fc.jsonValue(), typstNode.node, fc.array(typstNode.node)) }, { requiredKeys: [] })), (value) => {
        const result = readNotesSidecar(value, where);
        expect(result.markdown === null || typeof result.markdown === "string").toBe(true);
        expect(known(result.issues)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  test("media: mutated valid sidecars and random values", () => {
    const valid = { kind: "file", slide: 2, id: "x", mime: "video/mp4", x_pt: 1, y_pt: 2, w_pt: 3, h_pt: 4, filename: "media-x.mp4" };
    const field = fc.constantFrom(...Object.keys(valid), "url", "video_id", "autoplay", "loop", "extra");
    fc.assert(
      fc.property(fc.array(fc.tuple(field, fc.jsonValue()), { maxLength: 6 }), fc.jsonValue(), (mutations, other) => {
        const value: Record<string, unknown> = { ...valid };
        for (const [key, v] of mutations) value[key] = v;
        for (const input of [value, other]) {
          const result = readMediaSidecar(input, mediaWhere);
          expect(known(result.issues)).toBe(true);
          if (result.media) expect(result.media.rect.w).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });

  test("poll: the checker accepts without findings exactly what the published schema accepts", () => {
    // Any text (astral characters, lone surrogates, blanks) near the length bounds, so code-point
    // counting, blank detection and uniqueness are compared with Ajv's on the edges.
    const text = (max: number) =>
      fc.oneof({ weight: 8, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 8 }) }, { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: max - 2, maxLength: max + 2 }) }, { weight: 1, arbitrary: fc.constantFrom("", " ", "\u00a0\n", "Yes") });
    const often = <T,>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary }, { weight: 1, arbitrary: fc.jsonValue() });
    const value = fc.record(
      {
        question: often(text(200)),
        options: often(fc.oneof(fc.uniqueArray(text(100), { minLength: 2, maxLength: 6 }), fc.array(text(100), { maxLength: 8 }), fc.array(fc.constantFrom("Yes", "No", "Maybe"), { maxLength: 4 }))),
        multiple: often(fc.boolean()),
        extra: fc.jsonValue(),
      },
      { requiredKeys: ["question", "options"] },
    );
    fc.assert(
      fc.property(fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: fc.jsonValue() }), (input) => {
        const result = readPollSidecar(input, pollWhere);
        expect(known(result.issues)).toBe(true);
        expect(result.poll !== null && result.issues.length === 0).toBe(validatePollSidecar(input));
        if (result.poll) expect(result.poll.options.length).toBeGreaterThanOrEqual(2);
      }),
      { numRuns: 1000 },
    );
  });

  test("raw bytes into every parser", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 1, max: 50 }), (bytes, pages) => {
        expect(known(parseNotesSidecar(bytes, where).issues)).toBe(true);
        expect(known(parseMediaSidecar(bytes, mediaWhere).issues)).toBe(true);
        expect(known(parsePollSidecar(bytes, pollWhere).issues)).toBe(true);
        expect(known(parsePdfpc(bytes, "talk.pdfpc", pages).issues)).toBe(true);
        sniffMime(bytes);
      }),
      { numRuns: 500 },
    );
  });

  test("pdfpc: random page arrays keep notes within the deck", () => {
    fc.assert(
      fc.property(fc.record({ pdfpcFormat: fc.constantFrom(1, 2, 3, "2"), duration: fc.jsonValue(), endTime: fc.oneof(fc.string(), fc.constant("10:30")), pages: fc.array(fc.record({ idx: fc.oneof(fc.integer({ min: -2, max: 20 }), fc.jsonValue()), note: fc.oneof(fc.string(), fc.jsonValue()) }, { requiredKeys: [] })) }, { requiredKeys: [] }), fc.integer({ min: 1, max: 10 }), (value, pages) => {
        const result = parsePdfpc(new TextEncoder().encode(JSON.stringify(value)), "talk.pdfpc", pages);
        expect(known(result.issues)).toBe(true);
        for (const slide of result.notes.keys()) expect(slide >= 1 && slide <= pages).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  test("names and video ids", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 80 }), (name) => {
        const base = baseName(name);
        expect(base.includes("/") && base !== name).toBe(false);
        const match = matchAttachmentName(base);
        if (match.type === "notes" || match.type === "media-sidecar" || match.type === "poll") expect(Number.isInteger(match.slide)).toBe(true);
        youtubeId(name);
        vimeoId(name);
      }),
      { numRuns: 1000 },
    );
  });

  test("Typst rendering of random trees is a string", () => {
    fc.assert(fc.property(typstNode.node, (node) => typeof renderTypst(node).markdown === "string"), { numRuns: 500 });
  });
});

describe("inflate and MD5", () => {
  test("inflate(deflate(x)) === x, in chunks", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200_000 }), fc.integer({ min: 0, max: 9 }), (data, level) => {
        const parts: Uint8Array[] = [];
        const total = inflate(new Uint8Array(deflateRawSync(data, { level })), { maxBytes: 1 << 30, onChunk: (c) => void parts.push(c) });
        expect(total).toBe(data.length);
        expect(Buffer.concat(parts).equals(Buffer.from(data))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  test("inflate of garbage fails only with InflateError/InflateLimitError", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (data) => {
        try {
          inflate(data, { maxBytes: 1 << 20, onChunk: () => {} });
        } catch (error) {
          expect(error instanceof InflateError || error instanceof InflateLimitError).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test("MD5 matches node:crypto", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 5000 }), (data) => bytesToHex(md5.create().update(data).digest()) === createHash("md5").update(data).digest("hex")), { numRuns: 300 });
  });
});
