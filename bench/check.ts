/**
 * Benchmark of the sidecar check (budget: docs/development/design.md). Prints, does not assert.
 *
 *   bun bench/check.ts [--cli-only] [--runs N] [--binary dist/deckhand] [--compare OTHER_BINARY]
 *
 * 1. A 300-page deck with 100 attachments (notes, media sidecars, GIF binaries, pdfpc) checked
 *    through checkPdfFile (open + report), warm: median of 15 runs against the 200 ms budget.
 * 2. A ~100 MB deck (300 pages, two ~48 MB videos) checked in a child process: peak RSS, and
 *    the same child's RSS right after loading mupdf as the baseline.
 * 3. The command line as CI runs it: wall time of the compiled binary's
 *    `deckhand check FILE` on a ~5 KB sidecar deck against poppler's `pdfinfo FILE && pdfdetach
 *    -list FILE` on the same file, interleaved, median of N (default 15), and the ratio (target
 *    ≤ 5×); then `check --json` of 10 files in one run against 10 runs of one file. With
 *    `--compare OTHER_BINARY` (e.g. a build of an older commit) that binary runs interleaved
 *    too. Build the binary first (`bun run scripts/build.ts`); without poppler-utils the
 *    baseline is skipped (`apt-get install -y poppler-utils`). On a shared 2-core machine run
 *    it a few times: medians move by tens of ms with the load.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { checkPdfFile } from "../src/pdf/check.ts";
import { loadMupdf } from "../src/pdf/mupdf.ts";
import { GIF_BYTES, mediaSidecar, mp4Bytes, notesSidecar, pdfpcFile, pollSidecar, writeFixture, type FixtureAttachment } from "../test/fixtures/sidecar-builder.ts";

/** The check of a 300-page, 100-attachment deck must finish within this (the performance budget). */
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

/** The command line's wall time against poppler's (section 3). */
const CLI_TARGET_RATIO = 5;
/** Files of the one-run-many-files comparison. */
const MANY_FILES = 10;

const { values: flags } = parseArgs({
  args: Bun.argv.slice(2),
  options: { "cli-only": { type: "boolean" }, runs: { type: "string" }, binary: { type: "string" }, compare: { type: "string" } },
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** Wall milliseconds of running `commands` one after the other (each must exit 0 or 1). */
function wall(commands: string[][]): number {
  const started = performance.now();
  for (const command of commands) {
    const run = Bun.spawnSync(command, { stdout: "pipe", stderr: "pipe" });
    if (run.exitCode !== 0 && run.exitCode !== 1) throw new Error(`${command.join(" ")} exited ${run.exitCode}: ${run.stderr.toString()}`);
    // Each program prints its report: a run that printed nothing did not do the work (a build
    // that exited 0 before its WASM compiled once ran that way, and timed fast).
    if (run.stdout.length === 0) throw new Error(`${command.join(" ")} exited ${run.exitCode} and printed nothing: ${run.stderr.toString()}`);
  }
  return performance.now() - started;
}

async function cliBench(): Promise<void> {
  const binary = flags.binary ?? join(import.meta.dir, "..", "dist", "deckhand");
  if (!existsSync(binary)) {
    console.log(`cli: ${binary} missing: build it with \`bun run scripts/build.ts\``);
    return;
  }
  const runs = Math.max(3, Number(flags.runs ?? 15) || 15);
  const deck = await writeFixture(
    {
      pages: 8,
      attachments: [
        notesSidecar(1, "Welcome everyone"),
        notesSidecar(2, ["Say **hello**", { func: "text", text: "and some more words ".repeat(8) }]),
        notesSidecar(5, "The punchline"),
        mediaSidecar(3, "yt", { kind: "youtube", video_id: "dQw4w9WgXcQ" }),
        mediaSidecar(4, "anim", { kind: "file", mime: "image/gif" }),
        { name: "media-anim.gif", data: GIF_BYTES, mime: "image/gif", checksum: "correct" },
        pollSidecar(6),
        pdfpcFile({ pdfpcFormat: 2, duration: 20, pages: [{ idx: 7, note: "backup" }] }),
      ],
    },
    "bench-cli.pdf",
  );
  const pdfinfo = Bun.which("pdfinfo");
  const pdfdetach = Bun.which("pdfdetach");
  const poppler = pdfinfo && pdfdetach ? [[pdfinfo, deck.path], [pdfdetach, "-list", deck.path]] : null;
  const contenders: { name: string; commands: string[][]; times: number[] }[] = [{ name: "deckhand check", commands: [[binary, "check", deck.path]], times: [] }];
  if (flags.compare) contenders.push({ name: `${flags.compare} check`, commands: [[flags.compare, "check", deck.path]], times: [] });
  if (poppler) contenders.push({ name: "pdfinfo && pdfdetach -list", commands: poppler, times: [] });
  // One untimed round: the page cache holds the binaries afterwards, as in CI's second step.
  for (const c of contenders) wall(c.commands);
  for (let run = 0; run < runs; run++) for (const c of contenders) c.times.push(wall(c.commands));
  console.log(`cli: ${fmt(deck.bytes)} deck (8 pages, ${deck.bytes} bytes), wall time, median of ${runs} interleaved runs`);
  for (const c of contenders) console.log(`  ${c.name.padEnd(28)} ${median(c.times).toFixed(0).padStart(5)} ms (min ${Math.min(...c.times).toFixed(0)}, max ${Math.max(...c.times).toFixed(0)})`);
  if (poppler) {
    const base = median(contenders.at(-1)!.times);
    for (const c of contenders.slice(0, -1)) console.log(`  ${c.name}: ${(median(c.times) / base).toFixed(1)}× poppler (target ≤ ${CLI_TARGET_RATIO}×)`);
  } else console.log("  poppler-utils missing: install it (apt-get install -y poppler-utils) for the baseline");

  const files = Array.from({ length: MANY_FILES }, () => deck.path);
  const manyRuns = Math.max(3, Math.ceil(runs / 3));
  const oneRun: number[] = [];
  const separate: number[] = [];
  const popplerEach: number[] = [];
  for (let run = 0; run < manyRuns; run++) {
    oneRun.push(wall([[binary, "check", "--json", ...files]]));
    separate.push(wall(files.map((file) => [binary, "check", "--json", file])));
    // CI's folder of decks with poppler: both programs once per file.
    if (pdfinfo && pdfdetach) popplerEach.push(wall(files.flatMap((file) => [[pdfinfo, file], [pdfdetach, "-list", file]])));
  }
  console.log(`  check --json of ${MANY_FILES} files in one run: ${median(oneRun).toFixed(0)} ms; ${MANY_FILES} runs of one file: ${median(separate).toFixed(0)} ms (median of ${manyRuns})`);
  if (popplerEach.length) {
    const base = median(popplerEach);
    console.log(`  a folder of ${MANY_FILES} decks: pdfinfo && pdfdetach -list on each: ${base.toFixed(0)} ms; deckhand check in one run: ${(median(oneRun) / base).toFixed(1)}× poppler (target ≤ ${CLI_TARGET_RATIO}×)`);
  }
  rmSync(deck.path, { force: true });
}

if (flags["cli-only"]) {
  await cliBench();
  process.exit(0);
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
const warm = median(times);
console.log(`check: 300 pages, ${total} attachments, ${fmt(deck.bytes)} file`);
console.log(`  median ${warm.toFixed(1)} ms (min ${times[0]!.toFixed(1)}, max ${times.at(-1)!.toFixed(1)}) — ${(warm / BUDGET_MS).toFixed(2)}× the ${BUDGET_MS} ms budget`);
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

await cliBench();
