/**
 * Backends benchmark (issue 12, DESIGN §7): the same deckhand binary on the embedded default
 * (SQLite + files in the data dir) and on PostgreSQL + an S3-compatible bucket, in one run:
 *
 * - present, download and claim: latency (p50/p99) and throughput at 1, 8 and 32 concurrent
 *   clients (a 1 MiB deck; each client loops present → download → complete);
 * - state: present latency with 10,000 staged decks against an empty store — target within
 *   1.2× on each backend (the quota is a running total on both, never a sum over the rows).
 *
 * The engines are the tests' (test/helpers/engines.ts): a throw-away PostgreSQL cluster with
 * durable commits, as in production, and s3rver on loopback. s3rver is a small Node program,
 * not a production store: the PostgreSQL + S3 figures are a floor for what a real bucket on a
 * network does, and the ratio to the embedded default says what the extra hops cost here.
 *
 *   bun bench/backends.ts [--decks N] [--source]
 *
 * Prints; never asserts; exits 0 unless it crashed.
 */
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { S3Client } from "bun";
import { makeDeck } from "../test/fixtures/pdfs.ts";
import { type PostgresServer, type S3Server, startPostgres, startS3 } from "../test/helpers/engines.ts";
import { describeMode, pickMode, type Running, startDeckhand } from "./lib/proc.ts";
import { machineLine, ms, percentile, verdict } from "./lib/stats.ts";

const { values } = parseArgs({ args: Bun.argv.slice(2), options: { decks: { type: "string" }, source: { type: "boolean" } } });
const decks = Math.max(1, Number(values.decks ?? 10_000));
const mode = pickMode();
const CLIENTS = [1, 8, 32];
/** Rounds per client at each concurrency: enough samples for a p99 at 32 clients. */
const ROUNDS: Record<number, number> = { 1: 40, 8: 10, 32: 5 };
const STATE_REPS = 40;
const stops: Array<() => Promise<void>> = [];

interface Backend {
  name: string;
  running: Running & { dataDir: string };
  /** Fill the store with `count` staged decks of `pdf` (rows and bytes), outside deckhand. */
  populate(count: number, pdf: Uint8Array): Promise<void>;
}

interface Staged {
  id: string;
  token: string;
}

async function present(base: string, pdf: Uint8Array): Promise<Staged & { ms: number }> {
  const form = new FormData();
  form.append("file", new Blob([pdf as BlobPart], { type: "application/pdf" }), "talk.pdf");
  const started = performance.now();
  const res = await fetch(`${base}/api/present`, { method: "POST", body: form });
  const record = (await res.json()) as { id: string; url: string };
  const took = performance.now() - started;
  if (res.status !== 200) throw new Error(`present answered ${res.status}: ${JSON.stringify(record)}`);
  return { id: record.id, token: new URL(record.url).hash.slice(3), ms: took };
}

async function download(base: string, s: Staged, size: number): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/api/sessions/${s.id}/handoff?t=${s.token}`);
  const got = (await res.arrayBuffer()).byteLength;
  if (res.status !== 200 || got !== size) throw new Error(`download answered ${res.status} with ${got} bytes`);
  return performance.now() - started;
}

async function claim(base: string, s: Staged): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/api/sessions/${s.id}/handoff/complete`, { method: "POST", headers: { "x-controller-token": s.token } });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`complete answered ${res.status}: ${body}`);
  return performance.now() - started;
}

interface Phase {
  times: number[];
  seconds: number;
}

/** `clients` loops of present → download → complete; each phase timed on its own. */
async function handoffLoad(base: string, pdf: Uint8Array, clients: number, rounds: number): Promise<Record<"present" | "download" | "claim", Phase>> {
  const phases = { present: { times: [] as number[], seconds: 0 }, download: { times: [] as number[], seconds: 0 }, claim: { times: [] as number[], seconds: 0 } };
  for (let round = 0; round < rounds; round++) {
    // Phase by phase across all clients, so each throughput is that operation's alone.
    let t0 = performance.now();
    const staged = await Promise.all(Array.from({ length: clients }, () => present(base, pdf)));
    phases.present.seconds += (performance.now() - t0) / 1000;
    phases.present.times.push(...staged.map((s) => s.ms));
    t0 = performance.now();
    phases.download.times.push(...(await Promise.all(staged.map((s) => download(base, s, pdf.length)))));
    phases.download.seconds += (performance.now() - t0) / 1000;
    t0 = performance.now();
    phases.claim.times.push(...(await Promise.all(staged.map((s) => claim(base, s)))));
    phases.claim.seconds += (performance.now() - t0) / 1000;
  }
  return phases;
}

function line(label: string, phase: Phase): string {
  const rate = phase.times.length / phase.seconds;
  return `${label.padEnd(9)} p50 ${ms(percentile(phase.times, 50)).padStart(9)}  p99 ${ms(percentile(phase.times, 99)).padStart(9)}  ${rate.toFixed(0).padStart(5)} ops/s`;
}

async function presentLatency(base: string, pdf: Uint8Array, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push((await present(base, pdf)).ms);
  return times;
}

function benchId(i: number): string {
  return `bench${String(i).padStart(17, "0")}`;
}

async function sqliteFilesBackend(): Promise<Backend> {
  const running = await startDeckhand(mode);
  stops.push(running.stop);
  return {
    name: "SQLite + files",
    running,
    async populate(count, pdf) {
      const db = new Database(join(running.dataDir, "deckhand.db"));
      const insert = db.query(
        `INSERT INTO sessions (id, token_hash, filename, total_slides, bytes, sha256, state, authenticated, created_at, expires_at, ended_at)
         VALUES (?, ?, ?, 1, ?, ?, 'staged', 0, ?, ?, NULL)`,
      );
      const now = Date.now();
      db.transaction(() => {
        for (let i = 0; i < count; i++) {
          insert.run(benchId(i), "0".repeat(64), `deck ${i}`, pdf.length, "0".repeat(64), now, now + 86_400_000);
          writeFileSync(join(running.dataDir, "staged", `${benchId(i)}.pdf`), pdf);
        }
      })();
      db.close();
    },
  };
}

async function postgresS3Backend(pg: PostgresServer, s3: S3Server): Promise<Backend> {
  const url = await pg.createDatabase(`bench${Date.now()}`);
  const running = await startDeckhand(mode, ["--database-url", url, "--storage", `s3://${s3.bucket}/bench`], undefined, s3.env);
  stops.push(running.stop);
  return {
    name: "PostgreSQL + S3",
    running,
    async populate(count, pdf) {
      const sql = new Bun.SQL(url, { max: 1 });
      const now = Date.now();
      const ids = Array.from({ length: count }, (_, i) => benchId(i));
      await sql`INSERT INTO sessions (id, token_hash, filename, total_slides, bytes, sha256, state, authenticated, created_at, expires_at, ended_at)
                SELECT id, ${"0".repeat(64)}, 'deck', 1, ${pdf.length}, ${"0".repeat(64)}, 'staged', false, ${now}, ${now + 86_400_000}, NULL
                FROM unnest(${sql.array(ids, "TEXT")}::text[]) AS id`;
      await sql.close();
      const bucket = new S3Client({ ...s3.client, bucket: s3.bucket });
      for (let i = 0; i < ids.length; i += 32) await Promise.all(ids.slice(i, i + 32).map((id) => bucket.write(`bench/${id}.pdf`, pdf)));
    },
  };
}

const work = mkdtempSync(join(tmpdir(), "deckhand-bench-backends-"));
let pg: PostgresServer | undefined;
let s3: S3Server | undefined;
try {
  console.log("## backends benchmark");
  console.log(machineLine());
  console.log(`deckhand: ${describeMode(mode)}; client: fetch in this process; PostgreSQL (durable commits) and s3rver on loopback`);
  [pg, s3] = await Promise.all([startPostgres({ durable: true }), startS3()]);
  const backends = [await sqliteFilesBackend(), await postgresS3Backend(pg, s3)];
  const deck = await makeDeck({ pages: 4, padToBytes: 1024 * 1024 });
  console.log(`deck: 4 pages, ${deck.length} bytes (sha256 ${createHash("sha256").update(deck).digest("hex").slice(0, 12)}…)`);

  const results: Record<string, Record<number, Record<string, Phase>>> = {};
  for (const clients of CLIENTS) {
    for (const backend of backends) {
      await handoffLoad(backend.running.url, deck, clients, 1); // warm-up
      (results[backend.name] ??= {})[clients] = await handoffLoad(backend.running.url, deck, clients, ROUNDS[clients]!);
    }
  }
  for (const backend of backends) {
    console.log(`\n### ${backend.name}: present → download → complete, 1 MiB deck`);
    for (const clients of CLIENTS) {
      const r = results[backend.name]![clients]!;
      console.log(`${String(clients).padStart(2)} clients  ${line("present", r.present!)}`);
      console.log(`            ${line("download", r.download!)}`);
      console.log(`            ${line("claim", r.claim!)}`);
    }
  }
  console.log("\n### PostgreSQL + S3 / SQLite + files (p50 latency ratio; throughput ratio)");
  for (const clients of CLIENTS) {
    const parts = ["present", "download", "claim"].map((op) => {
      const a = results[backends[0]!.name]![clients]![op]!;
      const b = results[backends[1]!.name]![clients]![op]!;
      return `${op} ${(percentile(b.times, 50) / percentile(a.times, 50)).toFixed(2)}× / ${(b.times.length / b.seconds / (a.times.length / a.seconds)).toFixed(2)}×`;
    });
    console.log(`${String(clients).padStart(2)} clients: ${parts.join(";  ")}`);
  }

  console.log(`\n### state: present latency with ${decks} staged decks vs an empty store (${STATE_REPS} presents of a 2-page deck, median)`);
  const small = await makeDeck({ pages: 2 });
  for (const backend of backends) {
    const empty = percentile(await presentLatency(backend.running.url, small, STATE_REPS), 50);
    const filled = performance.now();
    await backend.populate(decks, small);
    const fillMs = performance.now() - filled;
    await presentLatency(backend.running.url, small, 5);
    const full = percentile(await presentLatency(backend.running.url, small, STATE_REPS), 50);
    console.log(`${backend.name}: empty ${ms(empty)}, ${decks} staged ${ms(full)} (store filled in ${Math.round(fillMs)} ms)`);
    console.log(verdict(`${backend.name}: present latency with ${decks} staged decks / empty store`, full / empty, 1.2));
  }
} catch (error) {
  console.error("backends benchmark crashed:", error);
  process.exitCode = 1;
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => {});
  await Promise.all([pg?.stop(), s3?.stop()]);
  rmSync(work, { recursive: true, force: true });
}
