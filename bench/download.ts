/**
 * Download benchmark (budget: docs/development/design.md): `GET /api/sessions/{id}/handoff?t=`
 * of a staged 100 MB PDF against serving the same file with `new Response(Bun.file(path))` from
 * a bare Bun.serve — target within 1.1× (client: curl -o /dev/null) — and the throughput of
 * both at 8, 32 and
 * 128 concurrent clients downloading a 4 MiB deck — target ≥ 0.9× (client: fetch in this
 * process, the same for both; at least 512 requests per run, the median ratio of 5
 * alternating runs). Both servers are separate processes.
 *
 *   bun bench/download.ts [--reps N] [--source]
 *
 * Prints; never asserts; exits 0 unless it crashed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { complete, downloadToNull, present } from "./lib/http.ts";
import { writeBenchPdf } from "./lib/pdf.ts";
import { describeMode, pickMode, startBaseline, startDeckhand } from "./lib/proc.ts";
import { describeMs, machineLine, mbPerS, summarize, verdict } from "./lib/stats.ts";

const MiB = 1024 * 1024;
const SIZE = 100 * MiB;
const SMALL = 4 * MiB;
/**
 * Requests of one throughput run, whatever the clients: with 8 requests per client, 8 clients
 * made a 0.16 s run, and one scheduling hiccup moved its ratio between 0.75× and 0.97×.
 */
const REQUESTS_PER_RUN = 512;
/** Alternating runs of each side per client count; the median ratio is reported. */
const RUNS = 5;
const perClient = (clients: number) => Math.max(8, Math.ceil(REQUESTS_PER_RUN / clients));

/** Requests per second of `clients` concurrent loops, each downloading `url` perClient(clients) times. */
async function throughput(url: string, clients: number): Promise<number> {
  const REQUESTS_PER_CLIENT = perClient(clients);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = 0; i < REQUESTS_PER_CLIENT; i++) {
        const response = await fetch(url);
        let size = 0;
        for await (const chunk of response.body!) size += chunk.byteLength;
        if (response.status !== 200 || size !== SMALL) throw new Error(`GET answered ${response.status} with ${size} bytes`);
      }
    }),
  );
  return (clients * REQUESTS_PER_CLIENT) / ((performance.now() - started) / 1000);
}
const { values } = parseArgs({ args: Bun.argv.slice(2), options: { reps: { type: "string" }, source: { type: "boolean" } } });
const reps = Math.max(1, Math.min(50, Number(values.reps ?? 15)));
const mode = pickMode();
const work = mkdtempSync(join(tmpdir(), "deckhand-bench-download-"));
const stops: Array<() => Promise<void>> = [];

async function get(url: string): Promise<number> {
  const result = await downloadToNull(url);
  if (result.status !== 200 || result.bytesDownloaded !== SIZE) {
    throw new Error(`GET ${url.replace(/\?t=.*/, "?t=…")} answered ${result.status} with ${result.bytesDownloaded} bytes`);
  }
  return result.ms;
}

try {
  console.log("## download benchmark");
  console.log(machineLine());
  console.log(`deckhand: ${describeMode(mode)}; client: curl -o /dev/null; ${reps} repetitions, interleaved, median`);
  const deck = join(work, "deck-100mb.pdf");
  await writeBenchPdf(deck, SIZE);

  const deckhand = await startDeckhand(mode);
  stops.push(deckhand.stop);
  const baseline = await startBaseline();
  stops.push(baseline.stop);
  const staged = await present(deckhand.url, deck);
  const handoffUrl = `${deckhand.url}/api/sessions/${staged.id}/handoff?t=${staged.token}`;
  const fileUrl = `${baseline.url}/file?path=${encodeURIComponent(deck)}`;

  // Warm-up: both files in the page cache, both servers' code paths run once.
  await get(handoffUrl);
  await get(fileUrl);
  const base: number[] = [];
  const real: number[] = [];
  for (let i = 0; i < reps; i++) {
    base.push(await get(fileUrl));
    real.push(await get(handoffUrl));
  }
  const b = summarize(base);
  const r = summarize(real);
  console.log(`baseline  new Response(Bun.file(path))      ${describeMs(b)}  ${mbPerS(SIZE, b.median)}`);
  console.log(`deckhand  GET /api/sessions/{id}/handoff   ${describeMs(r)}  ${mbPerS(SIZE, r.median)}`);
  console.log(verdict("download 100 MB, deckhand / baseline", r.median / b.median, 1.1));
  console.log(`      (ratio of the fastest runs: ${(r.min / b.min).toFixed(2)}×)`);
  await complete(deckhand.url, staged.id, staged.token);

  // --- concurrent clients ---------------------------------------------------------------------
  const small = join(work, "deck-4mb.pdf");
  await writeBenchPdf(small, SMALL);
  const smallStaged = await present(deckhand.url, small);
  const smallHandoff = `${deckhand.url}/api/sessions/${smallStaged.id}/handoff?t=${smallStaged.token}`;
  const smallFile = `${baseline.url}/file?path=${encodeURIComponent(small)}`;
  console.log(`\nconcurrent downloads of a 4 MiB deck (≥ ${REQUESTS_PER_RUN} requests per run; median ratio of ${RUNS} alternating runs):`);
  for (const clients of [8, 32, 128]) {
    const runs: { base: number; real: number }[] = [];
    await throughput(smallFile, clients);
    await throughput(smallHandoff, clients);
    for (let i = 0; i < RUNS; i++) runs.push({ base: await throughput(smallFile, clients), real: await throughput(smallHandoff, clients) });
    const ratios = runs.map((run) => run.real / run.base).sort((a, b) => a - b);
    const median = ratios[Math.floor(RUNS / 2)]!;
    const { base, real } = runs[runs.map((run) => run.real / run.base).indexOf(median)]!;
    const ok = median >= 0.9;
    console.log(
      `${ok ? "PASS" : "MISS"}  ${String(clients).padStart(3)} clients: baseline ${base.toFixed(0)} req/s, deckhand ${real.toFixed(0)} req/s: ${median.toFixed(2)}× (runs ${ratios[0]!.toFixed(2)}–${ratios[RUNS - 1]!.toFixed(2)}×; target ≥ 0.9×)`,
    );
  }
  await complete(deckhand.url, smallStaged.id, smallStaged.token);
} catch (error) {
  console.error("download benchmark crashed:", error);
  process.exitCode = 1;
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => {});
  rmSync(work, { recursive: true, force: true });
}
