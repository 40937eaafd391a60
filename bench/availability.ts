/**
 * Availability benchmark (DESIGN §7, the hardening issue): while each hostile input of the
 * outside audit is uploaded, at the audit's sizes, `/healthz` is polled every 10 ms —
 * target p99 under 50 ms (the baseline is the same poll against the idle server, same run);
 * and the resident memory of the server and its PDF workers together is sampled — target a
 * peak under 1 GB for any input within --max-upload-mb (the largest legitimate deck included).
 *
 *   bun bench/availability.ts [--source]
 *
 * The server runs with its defaults (10 s PDF deadline, 512 MB per worker, 100 MB uploads).
 * Prints; never asserts; exits 0 unless it crashed.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { annotationFanOut, damagedLarge, hugeTextNotes, objStmRepairBomb, sharedStreamNotes } from "../test/fixtures/hostile-pdfs.ts";
import { uploadFile } from "./lib/http.ts";
import { writeBenchPdf } from "./lib/pdf.ts";
import { describeMode, pickMode, startDeckhand } from "./lib/proc.ts";
import { readMemory } from "./lib/rss.ts";
import { machineLine, mb, ms, percentile, verdict } from "./lib/stats.ts";

const MiB = 1024 * 1024;
const mode = pickMode();
const work = mkdtempSync(join(tmpdir(), "deckhand-bench-availability-"));
const stops: Array<() => Promise<void>> = [];

/** `pid` and every process below it (the PDF workers). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree: number[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    tree.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Poll /healthz back to back every 10 ms, and sample the tree's total RSS, until stopped. */
function watch(url: string, pid: number) {
  const latencies: number[] = [];
  let peak = 0;
  let running = true;
  const health = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${url}/healthz`);
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      await Bun.sleep(10);
    }
  })();
  let pids = processTree(pid);
  let ticks = 0;
  const sampler = setInterval(() => {
    // Workers are killed and replaced: look for new ones now and then.
    if (++ticks % 20 === 0) pids = processTree(pid);
    let total = 0;
    // A worker killed a moment ago reads as a zombie without VmRSS (NaN): it holds nothing.
    for (const p of pids) total += readMemory(p)?.rss || 0;
    peak = Math.max(peak, total);
  }, 10);
  return async () => {
    running = false;
    await health;
    clearInterval(sampler);
    return { latencies, peak };
  };
}

/**
 * Upload with curl, in its own process: the client must not share the poller's event loop
 * (a 99 MB FormData sent by this process's fetch stalled its own /healthz polls for 100+ ms,
 * which read as the server's stalls).
 */
async function upload(url: string, path: string, bytes: Uint8Array | string, filename = "hostile.pdf"): Promise<{ status: number; code: string; ms: number }> {
  let file = typeof bytes === "string" ? bytes : "";
  if (!file) {
    file = join(work, `input-${++inputs}.pdf`);
    await Bun.write(file, bytes as Uint8Array);
  }
  try {
    const result = await uploadFile(`${url}${path}`, file, filename);
    let code = "";
    try {
      code = ((JSON.parse(result.body) as { code?: string }).code ?? "");
    } catch {
      code = "(not JSON)";
    }
    return { status: result.status, code, ms: result.ms };
  } finally {
    if (file !== bytes) rmSync(file, { force: true });
  }
}
let inputs = 0;

try {
  console.log("## availability benchmark");
  console.log(machineLine());
  console.log(`deckhand: ${describeMode(mode)} with its defaults; /healthz polled every 10 ms; RSS of the server and its PDF workers summed every 10 ms`);
  const server = await startDeckhand(mode, ["--max-upload-mb", "100"]);
  stops.push(server.stop);

  const idle = watch(server.url, server.pid);
  await Bun.sleep(3000);
  const calm = await idle();
  const calmP99 = percentile(calm.latencies, 99);
  console.log(`idle server: /healthz p50 ${ms(percentile(calm.latencies, 50))}, p99 ${ms(calmP99)}; RSS ${mb(calm.peak)}`);

  const legit = join(work, "deck-99mb.pdf");
  await writeBenchPdf(legit, 99 * MiB);
  const cases: Array<[string, string, () => Promise<Uint8Array | string>]> = [
    ["object-stream repair bomb, 160,000 objects", "/api/present", async () => objStmRepairBomb(160_000)],
    ["object-stream repair bomb, 160,000 objects", "/api/check", async () => objStmRepairBomb(160_000)],
    ["annotation fan-out, 500 pages × 3,000", "/api/check", () => annotationFanOut(500, 3000)],
    ["1,000 notes sharing one 1 MB stream", "/api/check", () => sharedStreamNotes(1000, 1_000_000)],
    ["3,000 text annotations of 300 KB", "/api/check", () => hugeTextNotes(3000, 300_000)],
    ["a damaged 95 MB PDF (no xref)", "/api/present", async () => damagedLarge(95 * MiB)],
    ["a legitimate 99 MB deck", "/api/present", async () => legit],
    ["a legitimate 99 MB deck", "/api/check", async () => legit],
  ];
  let worstP99 = 0;
  let worstPeak = 0;
  console.log("");
  for (const [name, path, make] of cases) {
    const input = await make();
    const stop = watch(server.url, server.pid);
    const answer = await upload(server.url, path, input);
    const seen = await stop();
    const p99 = percentile(seen.latencies, 99);
    worstP99 = Math.max(worstP99, p99);
    worstPeak = Math.max(worstPeak, seen.peak);
    const size = typeof input === "string" ? 99 * MiB : input.length;
    console.log(
      `${`${name} (${mb(size)}) → ${path}`.padEnd(78)} ${String(answer.status)} ${answer.code.padEnd(16)} ${ms(answer.ms).padStart(10)}  healthz p99 ${ms(p99).padStart(9)} max ${ms(Math.max(...seen.latencies)).padStart(9)}  RSS peak ${mb(seen.peak)}`,
    );
  }
  console.log("");
  console.log(verdict("worst /healthz p99 while a hostile input is read", worstP99, 50, "ms"));
  console.log(`      (the idle server's p99 in the same run: ${ms(calmP99)}; ratio ${(worstP99 / calmP99).toFixed(1)}×)`);
  console.log(verdict("worst peak RSS of server + PDF workers", worstPeak / MiB, 1024, "MB"));
} catch (error) {
  console.error("availability benchmark crashed:", error);
  process.exitCode = 1;
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => {});
  rmSync(work, { recursive: true, force: true });
}
