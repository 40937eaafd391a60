/**
 * The size-capped inflate (src/deck/inflate.ts, on fflate): bombs, truncation, trailing data,
 * errors. How long it takes to reach the cap, and to skip trailing junk, is measured against
 * baselines in bench/inflate.ts.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { deflateRawSync, deflateSync, constants as zlibConstants } from "node:zlib";
import { inflate, InflateError, InflateLimitError } from "../../src/deck/inflate.ts";
import { deflateBomb } from "../fixtures/sidecar-builder.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (4.2 s).
setDefaultTimeout(45_000);

const MiB = 1024 * 1024;
const text = new TextEncoder().encode("Speaker notes for slide 7: mention the benchmark. ".repeat(4000));

/** Inflates and returns what came out, or the error thrown plus what came out before it. */
function run(input: Uint8Array, maxBytes = 1 << 30) {
  const chunks: Uint8Array[] = [];
  try {
    const total = inflate(input, { maxBytes, onChunk: (c) => void chunks.push(c) });
    return { total, output: Buffer.concat(chunks), chunks, error: undefined };
  } catch (error) {
    return { total: -1, output: Buffer.concat(chunks), chunks, error };
  }
}

describe("inflate", () => {
  test("stops a 1 GiB bomb at a 16 MiB cap without materialising its output", () => {
    const bomb = deflateBomb(1024);
    expect(bomb.length).toBeLessThan(2 * MiB);
    Bun.gc(true);
    const rssBefore = process.memoryUsage().rss;
    let produced = 0;
    let largest = 0;
    let error: unknown;
    try {
      inflate(bomb, {
        maxBytes: 16 * MiB,
        onChunk: (chunk) => {
          produced += chunk.length;
          largest = Math.max(largest, chunk.length);
        },
      });
    } catch (e) {
      error = e;
    }
    const rssGrowth = process.memoryUsage().rss - rssBefore;
    expect(error).toBeInstanceOf(InflateLimitError);
    expect((error as InflateLimitError).produced).toBe(produced);
    // Everything handed out fits under the cap, and it got close to the cap (it did not quit early).
    expect(produced).toBeLessThanOrEqual(16 * MiB);
    expect(produced).toBeGreaterThan(15 * MiB);
    // One step never produces more than ~4 MiB, whatever the cap: memory per step stays bounded.
    expect(largest).toBeLessThanOrEqual(4 * MiB + 64 * 1024);
    // Decoding all of it would add 1 GiB.
    expect(rssGrowth).toBeLessThan(160 * MiB);
  });

  test("a cap of exactly the output size is not exceeded; one byte less is", () => {
    const z = deflateSync(text);
    expect(run(z, text.length).total).toBe(text.length);
    const over = run(z, text.length - 1);
    expect(over.error).toBeInstanceOf(InflateLimitError);
    expect(over.output.length).toBeLessThan(text.length);
  });

  test("accepts zlib with or without its Adler-32, and raw deflate, ignoring trailing bytes", () => {
    const z = deflateSync(text);
    for (const input of [z, z.subarray(0, -4), deflateRawSync(text), Buffer.concat([z, Buffer.from("\r\nendstream")])]) {
      const r = run(new Uint8Array(input));
      expect(r.error).toBeUndefined();
      expect(r.output.equals(Buffer.from(text))).toBe(true);
    }
  });

  test("megabytes of junk after the final block are skipped", () => {
    const z = deflateSync(text);
    const input = new Uint8Array(16 * MiB).fill(0xa5);
    input.set(z);
    // fflate keeps all input pushed after the end; without our "finished" check this is
    // quadratic (bench/inflate.ts times it against the stream alone).
    expect(run(input).total).toBe(text.length);
  });

  test("truncated data is an error, never a partial success (decided: as zlib's inflate does)", () => {
    const big = new Uint8Array(3 * MiB).map((_, i) => (i * 2654435761) >>> 27);
    const z = deflateSync(big);
    for (const cut of [3, 10, Math.floor(z.length / 2), z.length - 6]) {
      const r = run(z.subarray(0, cut));
      expect(r.error).toBeInstanceOf(InflateError);
      expect(r.output.length).toBeLessThan(big.length);
    }
    // A stream that was flushed but never got its final block is truncated as well.
    const unfinished = deflateRawSync(text, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    expect(run(unfinished).error).toBeInstanceOf(InflateError);
    expect(run(new Uint8Array()).error).toBeInstanceOf(InflateError);
    expect(run(z.subarray(0, 2)).error).toBeInstanceOf(InflateError);
  });

  test("corrupt data and preset dictionaries are InflateErrors", () => {
    expect(run(new Uint8Array([0x07, 0x00])).error).toBeInstanceOf(InflateError); // block type 3
    expect(run(new Uint8Array([0x78, 0xbb, 0, 0, 0, 1, 0x03, 0x00])).error).toBeInstanceOf(InflateError); // FDICT set
    // A fixed-Huffman match (length 3, distance 1) before any output.
    expect(run(new Uint8Array([0x03, 0x02, 0x00])).error).toBeInstanceOf(InflateError);
  });

  test("onChunk returning false stops early; an error it throws comes through unchanged", () => {
    const z = deflateSync(new Uint8Array(32 * MiB).fill(7));
    let calls = 0;
    const total = inflate(z, { maxBytes: 1 << 30, onChunk: () => (++calls, false) });
    expect(calls).toBe(1);
    expect(total).toBeLessThan(32 * MiB);
    class Mine extends Error {}
    expect(() => inflate(z, { maxBytes: 1 << 30, onChunk: () => { throw new Mine(); } })).toThrow(Mine);
  });
});
