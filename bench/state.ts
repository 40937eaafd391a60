/**
 * State benchmark (DESIGN §7): `POST /api/present` latency with 10,000 staged decks against an
 * empty store — target within 1.2×. The quota used to sum the bytes of every staged row on
 * each upload (1.9× slower at 10,000 decks); it is now a running total kept by triggers.
 *
 *   bun bench/state.ts [--reps N] [--decks N] [--source]
 *
 * The 10,000 rows are written straight into the data dir's SQLite database (after the server
 * migrated it once), with their files: a real store, made in seconds instead of minutes.
 * Prints; never asserts; exits 0 unless it crashed.
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { makeDeck } from "../test/fixtures/pdfs.ts";
import { describeMode, pickMode, startDeckhand } from "./lib/proc.ts";
import { describeMs, machineLine, summarize, verdict } from "./lib/stats.ts";

const { values } = parseArgs({ args: Bun.argv.slice(2), options: { reps: { type: "string" }, decks: { type: "string" }, source: { type: "boolean" } } });
const reps = Math.max(5, Math.min(500, Number(values.reps ?? 60)));
const decks = Math.max(1, Number(values.decks ?? 10_000));
const mode = pickMode();
const work = mkdtempSync(join(tmpdir(), "deckhand-bench-state-"));
const stops: Array<() => Promise<void>> = [];

/** Fill `dataDir` (already migrated) with `count` staged decks: rows and files. */
function populate(dataDir: string, count: number, pdf: Uint8Array): void {
  const db = new Database(join(dataDir, "deckhand.db"));
  const insert = db.query(
    `INSERT INTO sessions (id, token_hash, filename, total_slides, bytes, sha256, state, authenticated, created_at, expires_at, ended_at)
     VALUES (?, ?, ?, 1, ?, ?, 'staged', 0, ?, ?, NULL)`,
  );
  const now = Date.now();
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const id = `bench${String(i).padStart(17, "0")}`;
      insert.run(id, "0".repeat(64), `deck ${i}`, pdf.length, "0".repeat(64), now, now + 86_400_000);
      writeFileSync(join(dataDir, "staged", `${id}.pdf`), pdf);
    }
  })();
  db.close();
}

async function presentTimes(url: string, pdf: Uint8Array, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const form = new FormData();
    form.append("file", new Blob([pdf as BlobPart], { type: "application/pdf" }), "talk.pdf");
    const started = performance.now();
    const response = await fetch(`${url}/api/present`, { method: "POST", body: form });
    await response.arrayBuffer();
    times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`present answered ${response.status}`);
  }
  return times;
}

try {
  console.log("## state benchmark");
  console.log(machineLine());
  console.log(`deckhand: ${describeMode(mode)}; client: fetch; ${reps} presents of a 2-page deck per store, interleaved in rounds, median`);
  const pdf = await makeDeck({ pages: 2 });

  const empty = await startDeckhand(mode);
  stops.push(empty.stop);
  // The full store: migrate it by starting once, fill it, start again.
  const fullDir = mkdtempSync(join(tmpdir(), "deckhand-bench-full-"));
  const first = await startDeckhand(mode, [], fullDir);
  await first.proc.kill("SIGTERM");
  await first.proc.exited;
  const filled = performance.now();
  populate(fullDir, decks, pdf);
  console.log(`store filled with ${decks} staged decks in ${Math.round(performance.now() - filled)} ms`);
  const full = await startDeckhand(mode, [], fullDir);
  stops.push(full.stop);

  await presentTimes(empty.url, pdf, 5);
  await presentTimes(full.url, pdf, 5);
  const base: number[] = [];
  const real: number[] = [];
  const round = 10;
  for (let i = 0; i < reps; i += round) {
    base.push(...(await presentTimes(empty.url, pdf, round)));
    real.push(...(await presentTimes(full.url, pdf, round)));
  }
  const b = summarize(base);
  const r = summarize(real);
  console.log(`empty store              ${describeMs(b)}`);
  console.log(`${decks} staged decks     ${describeMs(r)}`);
  console.log(verdict(`present latency with ${decks} staged decks / empty store`, r.median / b.median, 1.2));
} catch (error) {
  console.error("state benchmark crashed:", error);
  process.exitCode = 1;
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => {});
  rmSync(work, { recursive: true, force: true });
}
