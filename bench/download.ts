/**
 * Download benchmark (DESIGN §7): `GET /api/sessions/{id}/handoff?t=` of a staged 100 MB PDF
 * against serving the same file with `new Response(Bun.file(path))` from a bare Bun.serve —
 * target within 1.1×. Both servers are separate processes; the client is curl -o /dev/null.
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
} catch (error) {
  console.error("download benchmark crashed:", error);
  process.exitCode = 1;
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => {});
  rmSync(work, { recursive: true, force: true });
}
