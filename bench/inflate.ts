/**
 * Benchmark of the size-capped inflate (src/deck/inflate.ts, on fflate), each case against a
 * baseline in the same run. Prints, does not assert (test/sidecar/inflate.test.ts holds the
 * behaviour: the cap, the chunks' size, the memory).
 *
 *   bun bench/inflate.ts [--reps N]
 *
 * 1. A 1 GiB deflate bomb (~1 MiB of input) stopped at a 16 MiB cap, against fflate's own
 *    inflateSync of the same bomb cut to 16 MiB (all of its output, no cap): stopping at the
 *    cap costs about the work of the 16 MiB it lets out, not of the whole GiB (~64× that).
 *    Target within 2×: the input is fed in slices, so that no step outgrows the cap.
 * 2. A 200 KB zlib stream followed by 16 MiB of junk, against the same stream alone: the junk
 *    is skipped once the final block is in (fflate alone keeps everything pushed after the end,
 *    which made this quadratic). Target within 2×.
 * 3. Hostile notes files (deck/notes-file) against reading a real-sized presentation's
 *    notes (60 slides) in the same run: a .pptx zip bomb (64 MB of notes XML in ~100 KB) and a
 *    .pptx of 10,000 notes slides are refused before anything is inflated, so each costs no
 *    more than the honest file (target within 1× and 3×: the 10,000 names are still listed).
 *    test/sidecar/notes-file.test.ts holds what is refused; here, that it is refused cheaply.
 */
import { parseArgs } from "node:util";
import { deflateSync } from "node:zlib";
import { inflateSync } from "fflate";
import { inflate, InflateLimitError } from "../src/deck/inflate.ts";
import { readNotesFile } from "../src/deck/notes-file/index.ts";
import { buildPptx, pptxManySlides, pptxZipBomb } from "../test/fixtures/pptx.ts";
import { deflateBomb } from "../test/fixtures/sidecar-builder.ts";
import { describeMs, machineLine, summarize, verdict } from "./lib/stats.ts";

const { values } = parseArgs({ args: Bun.argv.slice(2), options: { reps: { type: "string" } } });
const reps = Math.max(1, Math.min(50, Number(values.reps ?? 7)));
const MiB = 1024 * 1024;
const CAP = 16 * MiB;

/** Milliseconds of each of `reps` runs of `work`, after one run to warm the JIT. */
function time(work: () => void): number[] {
  work();
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return times;
}

/** Inflate with our cap, counting the output; the error it ends with, if any, is returned. */
function capped(input: Uint8Array, maxBytes: number): { produced: number; error: unknown } {
  let produced = 0;
  try {
    inflate(input, { maxBytes, onChunk: (chunk) => void (produced += chunk.length) });
    return { produced, error: undefined };
  } catch (error) {
    return { produced, error };
  }
}

console.log(machineLine());

const bomb = deflateBomb(1024);
const stopped = capped(bomb, CAP);
if (!(stopped.error instanceof InflateLimitError)) throw new Error(`the bomb was not stopped at the cap: ${String(stopped.error)}`);
const ours = summarize(time(() => void capped(bomb, CAP)));
// The same bomb, 16 MiB long: its zlib header, then the raw deflate stream fflate reads whole.
const small = deflateBomb(CAP / MiB).subarray(2);
const whole = summarize(time(() => void inflateSync(small)));
console.log(`1 GiB bomb (${(bomb.length / MiB).toFixed(1)} MiB of input) stopped at a 16 MiB cap, ${(stopped.produced / MiB).toFixed(1)} MiB handed out`);
console.log(`baseline  fflate inflateSync of the 16 MiB bomb   ${describeMs(whole)}`);
console.log(`deckhand  deck/inflate, the 1 GiB bomb to the cap  ${describeMs(ours)}`);
console.log(verdict("bomb to the cap, deck/inflate / fflate's 16 MiB", ours.median / whole.median, 2));

const text = new TextEncoder().encode("Speaker notes for slide 7: mention the benchmark. ".repeat(4000));
const stream = deflateSync(text);
const withJunk = new Uint8Array(16 * MiB).fill(0xa5);
withJunk.set(stream);
const alone = summarize(time(() => void capped(stream, 1 << 30)));
const junk = summarize(time(() => void capped(withJunk, 1 << 30)));
console.log(`\n${(text.length / 1000).toFixed(0)} KB of text, its ${(stream.length / 1000).toFixed(1)} KB zlib stream followed by 16 MiB of junk`);
console.log(`baseline  the stream alone      ${describeMs(alone)}`);
console.log(`deckhand  with 16 MiB of junk   ${describeMs(junk)}`);
console.log(verdict("junk after the final block, with / without", junk.median / alone.median, 2));

const honest = buildPptx(Array.from({ length: 60 }, (_, i) => ({ notes: [`Slide ${i + 1}: the point to make, the number to quote, the question to expect.`] })));
const zipBomb = pptxZipBomb(64);
const many = pptxManySlides(10_000);
for (const [name, bytes, code] of [["bomb.pptx", zipBomb, "PPTX_ZIP_BOMB"], ["many.pptx", many, "PPTX_TOO_MANY_SLIDES"]] as const) {
  const codes = readNotesFile(bytes, name, 60).issues.map((f) => f.code);
  if (!codes.includes(code)) throw new Error(`${name} was not refused with ${code}: ${codes.join(", ")}`);
}
const read = summarize(time(() => void readNotesFile(honest, "talk.pptx", 60)));
const bombed = summarize(time(() => void readNotesFile(zipBomb, "bomb.pptx", 60)));
const crowded = summarize(time(() => void readNotesFile(many, "many.pptx", 60)));
console.log(`\nnotes files: a 60-slide .pptx (${(honest.length / 1000).toFixed(0)} KB), a zip bomb (${(zipBomb.length / 1000).toFixed(0)} KB, 64 MB inflated), 10,000 notes slides (${(many.length / 1000).toFixed(0)} KB)`);
console.log(`baseline  the 60-slide presentation's notes read   ${describeMs(read)}`);
console.log(`deckhand  the zip bomb refused                     ${describeMs(bombed)}`);
console.log(`deckhand  10,000 notes slides refused              ${describeMs(crowded)}`);
console.log(verdict("zip bomb refused / honest notes read", bombed.median / read.median, 1));
console.log(verdict("10,000 slides refused / honest notes read", crowded.median / read.median, 3));
