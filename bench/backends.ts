/**
 * Backends benchmark (docs/operating/several-instances.md): the same deckhand binary on the
 * embedded default (SQLite + files in the data dir) and on PostgreSQL + an S3-compatible
 * bucket, in one run:
 *
 * - present, download and claim: latency (p50/p99) and throughput at 1, 8 and 32 concurrent
 *   clients (a 1 MiB deck; each client loops present → download → complete);
 * - state (formerly bench/state.ts): present latency with 10,000 staged decks against an
 *   empty store, each its own server, interleaved — target within 1.2× on each backend (the
 *   quota is a running total on both, never a sum over the rows).
 *
 * The engines are the tests' (test/helpers/engines.ts): a throw-away PostgreSQL cluster with
 * durable commits, as in production, and s3rver on loopback. s3rver is a small Node program,
 * not a production store (it keeps each object as files, and answers a burst of deletes with
 * the odd 500, which deckhand retries): read its figures as what the extra hops cost on this
 * machine, not as what MinIO or AWS would do.
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
/** Presents per store in the state test: medians of 60 moved by ±10 % between runs of the same build. */
const STATE_REPS = 200;
const stops: Array<() => Promise<void>> = [];

interface Backend {
  name: string;
  /** A server on a fresh, empty store of this backend; `fill` decks staged in it (rows and bytes, written outside deckhand) before it is measured. */
  start(fill?: { count: number; pdf: Uint8Array }): Promise<Running & { dataDir: string }>;
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

const sqliteFiles: Backend = {
  name: "SQLite + files",
  async start(fill) {
    let running = await startDeckhand(mode);
    if (fill) {
      // Migrated by its first start; filled while stopped; started again on the full store.
      await running.proc.kill("SIGTERM");
      await running.proc.exited;
      const db = new Database(join(running.dataDir, "deckhand.db"));
      const insert = db.query(
        `INSERT INTO sessions (id, token_hash, filename, total_slides, bytes, sha256, state, authenticated, created_at, expires_at, ended_at)
         VALUES (?, ?, ?, 1, ?, ?, 'staged', 0, ?, ?, NULL)`,
      );
      const now = Date.now();
      db.transaction(() => {
        for (let i = 0; i < fill.count; i++) {
          insert.run(benchId(i), "0".repeat(64), `deck ${i}`, fill.pdf.length, "0".repeat(64), now, now + 86_400_000);
          writeFileSync(join(running.dataDir, "staged", `${benchId(i)}.pdf`), fill.pdf);
        }
      })();
      db.close();
      running = await startDeckhand(mode, [], running.dataDir);
    }
    stops.push(running.stop);
    return running;
  },
};

function postgresS3(pg: PostgresServer, s3: S3Server): Backend {
  let stores = 0;
  return {
    name: "PostgreSQL + S3",
    async start(fill) {
      const n = ++stores;
      const url = await pg.createDatabase(`bench${n}`);
      const running = await startDeckhand(mode, ["--database-url", url, "--storage", `s3://${s3.bucket}/bench${n}`], undefined, s3.env);
      stops.push(running.stop);
      if (fill) {
        const sql = new Bun.SQL(url, { max: 1 });
        const now = Date.now();
        const ids = Array.from({ length: fill.count }, (_, i) => benchId(i));
        await sql`INSERT INTO sessions (id, token_hash, filename, total_slides, bytes, sha256, state, authenticated, created_at, expires_at, ended_at)
                  SELECT id, ${"0".repeat(64)}, 'deck', 1, ${fill.pdf.length}, ${"0".repeat(64)}, 'staged', false, ${now}, ${now + 86_400_000}, NULL
                  FROM unnest(${sql.array(ids, "TEXT")}::text[]) AS id`;
        await sql`VACUUM ANALYZE sessions`;
        await sql.close();
        const bucket = new S3Client({ ...s3.client, bucket: s3.bucket });
        for (let i = 0; i < ids.length; i += 32) await Promise.all(ids.slice(i, i + 32).map((id) => bucket.write(`bench${n}/${id}.pdf`, fill.pdf)));
      }
      return running;
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
  const backends = [sqliteFiles, postgresS3(pg, s3)];
  const servers = [await backends[0]!.start(), await backends[1]!.start()];
  const deck = await makeDeck({ pages: 4, padToBytes: 1024 * 1024 });
  console.log(`deck: 4 pages, ${deck.length} bytes (sha256 ${createHash("sha256").update(deck).digest("hex").slice(0, 12)}…)`);

  const results: Record<string, Record<number, Record<string, Phase>>> = {};
  for (const clients of CLIENTS) {
    for (const backend of backends) {
      const url = servers[backends.indexOf(backend)]!.url;
      await handoffLoad(url, deck, clients, 1); // warm-up
      (results[backend.name] ??= {})[clients] = await handoffLoad(url, deck, clients, ROUNDS[clients]!);
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

  console.log(`\n### state: present latency with ${decks} staged decks vs an empty store (${STATE_REPS} presents of a 2-page deck each, interleaved in rounds of 10, median)`);
  const small = await makeDeck({ pages: 2 });
  for (const backend of backends) {
    const filled = performance.now();
    const full = await backend.start({ count: decks, pdf: small });
    const fillMs = performance.now() - filled;
    const empty = await backend.start();
    await presentLatency(empty.url, small, 5);
    await presentLatency(full.url, small, 5);
    const base: number[] = [];
    const real: number[] = [];
    for (let i = 0; i < STATE_REPS; i += 10) {
      base.push(...(await presentLatency(empty.url, small, 10)));
      real.push(...(await presentLatency(full.url, small, 10)));
    }
    const b = percentile(base, 50);
    const r = percentile(real, 50);
    console.log(`${backend.name}: empty ${ms(b)}, ${decks} staged ${ms(r)} (store made and filled in ${Math.round(fillMs)} ms)`);
    console.log(verdict(`${backend.name}: present latency with ${decks} staged decks / empty store`, r / b, 1.2));
  }
} catch (error) {
  console.error("backends benchmark crashed:", error);
  process.exitCode = 1;
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => {});
  await Promise.all([pg?.stop(), s3?.stop()]);
  rmSync(work, { recursive: true, force: true });
}
