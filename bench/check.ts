/**
 * Benchmark of the sidecar check (DESIGN §7). Prints, does not assert.
 *
 *   bun bench/check.ts
 *
 * 1. A 300-page deck with 100 attachments (notes, media sidecars, GIF binaries, pdfpc) checked
 *    through checkPdfFile (open + report), warm: median of 15 runs against the 200 ms budget.
 * 2. A ~100 MB deck (300 pages, two ~48 MB videos) checked in a child process: peak RSS, and
 *    the same child's RSS right after loading mupdf as the baseline.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { checkPdfFile } from "../src/pdf/check.ts";
import { loadMupdf } from "../src/pdf/mupdf.ts";
import { GIF_BYTES, mediaSidecar, mp4Bytes, notesSidecar, pdfpcFile, writeFixture, type FixtureAttachment } from "../test/fixtures/sidecar-builder.ts";

/** The check of a 300-page, 100-attachment deck must finish within this (DESIGN §7). */
const BUDGET_MS = 200;

if (process.argv[2] === "--rss-child") {
  // Child: measure one check of the file given, report RSS figures as JSON.
  await loadMupdf();
  const baseline = process.memoryUsage().rss;
  const started = performance.now();
  const report = await checkPdfFile(process.argv[3] as string, { bytes: Number(process.argv[4]), sha256: "0".repeat(64) });
  const elapsed = performance.now() - started;
  console.log(JSON.stringify({ baseline, peak: peakRss(), elapsed, attachments: report.summary.total, ok: report.ok }));
  process.exit(0);
}

/**
 * Peak RSS of this process image. Linux's VmHWM belongs to the address space (reset on exec);
 * getrusage's maxRSS is not: it keeps the parent's high-water mark across fork+exec.
 */
function peakRss(): number {
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    if (kb) return Number(kb) * 1024;
  } catch {
    // not Linux: fall through
  }
  return process.resourceUsage().maxRSS * 1024;
}

const MiB = 1024 * 1024;
const fmt = (bytes: number) => (bytes >= MiB ? `${(bytes / MiB).toFixed(0)} MiB` : `${(bytes / 1024).toFixed(0)} KiB`);

async function smallDeck() {
  const attachments: FixtureAttachment[] = [];
  for (let i = 1; i <= 60; i++) attachments.push(notesSidecar(i * 5, [`Notes for slide ${i * 5}`, { func: "sequence", children: [{ func: "strong", body: { func: "text", text: "Key point" } }, { func: "space" }, { func: "text", text: "and some more words ".repeat(20) }] }], { checksum: "correct" }));
  for (let i = 1; i <= 19; i++) {
    attachments.push(mediaSidecar(i * 3, `anim${i}`, { kind: "file", mime: "image/gif", filename: `src/media-anim${i}.gif` }, { name: `src/media-slide-${i * 3}-anim${i}.json` }));
    // Incompressible payload, like real media: 40 KB of pseudo-random bytes after a GIF header.
    const gif = new Uint8Array(40_000);
    let seed = i;
    for (let j = 0; j < gif.length; j++) gif[j] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    gif.set(GIF_BYTES);
    attachments.push({ name: `src/media-anim${i}.gif`, data: gif, mime: "image/gif", checksum: "correct" });
  }
  attachments.push(pdfpcFile({ pdfpcFormat: 2, duration: 30, pages: Array.from({ length: 300 }, (_, idx) => ({ idx, note: `pdfpc note ${idx}` })) }));
  attachments.push(mediaSidecar(1, "yt", { kind: "youtube", video_id: "dQw4w9WgXcQ" }));
  return writeFixture({ pages: 300, attachments }, "bench-300.pdf");
}

await loadMupdf();
const deck = await smallDeck();
const times: number[] = [];
let total = 0;
for (let run = 0; run < 16; run++) {
  const started = performance.now();
  const report = await checkPdfFile(deck.path, { bytes: deck.bytes, sha256: deck.sha256 });
  const elapsed = performance.now() - started;
  total = report.summary.total;
  if (run > 0) times.push(elapsed); // the first run warms the JIT
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)] as number;
console.log(`check: 300 pages, ${total} attachments, ${fmt(deck.bytes)} file`);
console.log(`  median ${median.toFixed(1)} ms (min ${times[0]!.toFixed(1)}, max ${times.at(-1)!.toFixed(1)}) — ${(median / BUDGET_MS).toFixed(2)}× the ${BUDGET_MS} ms budget`);
rmSync(deck.path, { force: true });

const video = mp4Bytes(48 * MiB);
const big = await writeFixture(
  {
    pages: 300,
    attachments: [
      mediaSidecar(2, "a", { kind: "file", mime: "video/mp4" }),
      { name: "media-a.mp4", data: video, encoding: "none", checksum: "correct" },
      mediaSidecar(3, "b", { kind: "file", mime: "video/mp4" }),
      { name: "media-b.mp4", data: video, encoding: "none", checksum: "correct" },
    ],
    pagePadding: 4000,
  },
  "bench-100mb.pdf",
);
const child = spawnSync(process.execPath, [import.meta.path, "--rss-child", big.path, String(big.bytes)], { encoding: "utf8" });
rmSync(big.path, { force: true });
if (child.status !== 0) {
  console.log(`100 MB deck: child failed: ${child.stderr}`);
} else {
  const r = JSON.parse(child.stdout.trim().split("\n").at(-1) as string) as { baseline: number; peak: number; elapsed: number; attachments: number; ok: boolean };
  console.log(`check: ${fmt(big.bytes)} deck (300 pages, two 48 MiB videos), file-backed stream`);
  console.log(`  ${r.elapsed.toFixed(0)} ms; peak RSS ${fmt(r.peak)} (baseline after loading mupdf ${fmt(r.baseline)}, +${fmt(r.peak - r.baseline)}; ${(r.peak / big.bytes).toFixed(2)}× the file size)`);
}
