/**
 * Availability benchmark (docs/operating/availability.md): while each hostile input of the
 * outside audit is uploaded, at the audit's sizes, `/healthz` is polled every 10 ms —
 * target p99 under 50 ms (the baseline is the same poll against the idle server, same run);
 * and the resident memory of the server and its PDF workers together is sampled — target a
 * peak under 1 GB for any input within --max-upload-mb (the largest legitimate deck included).
 *
 *   bun bench/availability.ts [--source] [--fairness-only]
 *
 * The server runs with its defaults (10 s PDF deadline, 512 MB per worker, 100 MB uploads).
 * Then fairness: a legitimate present every 2 s from one loopback address while four others
 * loop slow PDFs at /api/present, at both routes, and at /api/check, against the same presents
 * on the idle server (same run): p95, max and refusals printed.
 *
 * Prints; never asserts; exits 0 unless it crashed.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { annotationFanOut, damagedLarge, hugeTextNotes, objStmRepairBomb, sharedStreamNotes } from "../test/fixtures/hostile-pdfs.ts";
import { rawRequest, rawUpload } from "../test/helpers/raw-http.ts";
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

/** How often the honest address presents, and how many times, in each fairness case. */
const HONEST_EVERY_MS = 2000;
const HONEST_PRESENTS = 30;
/** Attacking addresses, and uploads each keeps going at once (the default --max-uploads-per-address). */
const ATTACKERS = 4;
const LOOPS_PER_ATTACKER = 4;

interface Presents {
  times: number[];
  /** Answers other than 200, by status and code. */
  refused: string[];
  /** The presents that took over a second: "at 4.0 s: 2.1 s". */
  slow: string[];
}

/**
 * `count` presents of `deck` from `address` (curl --interface), one started every `everyMs`
 * whether or not the previous one has answered, as a presenter's browser would not wait for
 * another's: a slow server piles them up against the per-address upload bound.
 */
async function honestPresents(url: string, deck: string, address: string, count: number, everyMs: number): Promise<Presents> {
  const times: number[] = [];
  const refused: string[] = [];
  const slow: string[] = [];
  const runs: Promise<void>[] = [];
  const begun = performance.now();
  for (let i = 0; i < count; i++) {
    const at = ((performance.now() - begun) / 1000).toFixed(1);
    runs.push(
      uploadFile(`${url}/api/present`, deck, "deck.pdf", address).then(
        (answer) => {
          times.push(answer.ms);
          if (answer.status !== 200) refused.push(`${answer.status} ${codeOf(answer.body)}`);
          if (answer.ms > 1000) slow.push(`at ${at} s: ${(answer.ms / 1000).toFixed(1)} s`);
        },
        () => {
          refused.push("0 (no answer within 120 s)");
        },
      ),
    );
    await Bun.sleep(everyMs);
  }
  await Promise.all(runs);
  return { times, refused, slow };
}

/** "429 TOO_MANY_UPLOADS ×11, 503 SERVER_BUSY ×1": how often each answer came. */
function tally(answers: string[]): string {
  const counts = new Map<string, number>();
  for (const answer of answers) counts.set(answer, (counts.get(answer) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([answer, n]) => `${answer} ×${n}`).join(", ");
}

function codeOf(body: string): string {
  try {
    return (JSON.parse(body) as { code?: string }).code ?? "";
  } catch {
    return "(not JSON)";
  }
}

/**
 * Attackers: ATTACKERS loopback addresses (127.0.0.2…), each looping `bomb` on
 * LOOPS_PER_ATTACKER connections at once, loop i to `routeOf(i)`; a refused one (429, or no answer) tries
 * again 250 ms later, whatever Retry-After says. `stop()` ends the loops and counts the answers.
 */
function attack(port: number, bomb: Uint8Array, routeOf: (loop: number) => string): { stop(): Promise<Map<string, number>> } {
  const answers = new Map<string, number>();
  let attacking = true;
  const loops = Array.from({ length: ATTACKERS * LOOPS_PER_ATTACKER }, async (_, i) => {
    const localAddress = `127.0.0.${2 + (i % ATTACKERS)}`;
    const request = rawUpload(routeOf(Math.floor(i / ATTACKERS)), bomb);
    for (let n = 0; attacking && n < 1000; n++) {
      const answer = await rawRequest(port, request, { localAddress, timeoutMs: 60_000 }).catch(() => ({ status: 0, body: "" }));
      const key = `${answer.status} ${answer.status ? codeOf(answer.body) : "(connection failed)"}`;
      answers.set(key, (answers.get(key) ?? 0) + 1);
      if (answer.status === 429 || answer.status === 0) await Bun.sleep(250);
    }
  });
  return {
    stop: async () => {
      attacking = false;
      await Promise.all(loops);
      return answers;
    },
  };
}

/**
 * Fairness: a legitimate 2-page present every 2 s from a fifth loopback address while four
 * addresses loop a slow object-stream PDF (mupdf's repair runs far past the 10 s deadline),
 * four uploads at a time each, against the same presents on the idle server (same run, same
 * server before the attack). Each case gets a fresh server, so no address starts it with a
 * spent budget. Target: p95 ≤ 3 s under attack, none refused.
 */
async function fairness(): Promise<void> {
  const { makeDeck } = await import("../test/fixtures/pdfs.ts");
  const deck = join(work, "fair-deck.pdf");
  await Bun.write(deck, await makeDeck({ pages: 2 }));
  // The audit-size bomb: its repair runs far past the 10 s deadline.
  const bomb = objStmRepairBomb(160_000);
  const honest = "127.0.0.6";
  const cases: Array<[string, (loop: number) => string]> = [
    ["at /api/present", () => "/api/present"],
    ["half at /api/present, half at /api/check", (loop) => (loop % 2 === 0 ? "/api/present" : "/api/check")],
    ["at /api/check", () => "/api/check"],
  ];
  console.log("");
  console.log(`fairness: a legitimate 2-page present every ${HONEST_EVERY_MS / 1000} s from ${honest}, ${HONEST_PRESENTS} times, while ${ATTACKERS} addresses loop a ${mb(bomb.length)} slow PDF, ${LOOPS_PER_ATTACKER} uploads at a time each (--max-uploads-per-address 4, --rate-limit 0, defaults otherwise: 2 readers, 10 s deadline)`);
  let worstP95 = 0;
  let refusedTotal = 0;
  let idleWorst = 0;
  for (const [label, routeOf] of cases) {
    const server = await startDeckhand(mode, ["--max-uploads-per-address", "4"]);
    try {
      await uploadFile(`${server.url}/api/present`, deck, "deck.pdf", honest);
      const idle = await honestPresents(server.url, deck, honest, 10, 500);
      const attackers = attack(Number(new URL(server.url).port), bomb, routeOf);
      // The attackers' first files are in the line (fresh addresses, not yet known to be slow) when the first present arrives.
      await Bun.sleep(1000);
      const stop = watch(server.url, server.pid);
      const attacked = await honestPresents(server.url, deck, honest, HONEST_PRESENTS, HONEST_EVERY_MS);
      const seen = await stop();
      const answers = await attackers.stop();
      const idleP95 = percentile(idle.times, 95);
      const p95 = percentile(attacked.times, 95);
      worstP95 = Math.max(worstP95, p95);
      idleWorst = Math.max(idleWorst, idleP95);
      refusedTotal += attacked.refused.length;
      console.log(`  slow PDFs ${label}:`);
      console.log(`    idle server:  p50 ${ms(percentile(idle.times, 50))}, p95 ${ms(idleP95)}, max ${ms(Math.max(...idle.times))}, refused ${idle.refused.length}`);
      console.log(
        `    under attack: p50 ${ms(percentile(attacked.times, 50))}, p95 ${ms(p95)}, max ${ms(Math.max(...attacked.times))}, refused ${attacked.refused.length}${attacked.refused.length ? ` (${tally(attacked.refused)})` : ""}; healthz p99 ${ms(percentile(seen.latencies, 99))}; RSS peak ${mb(seen.peak)}`,
      );
      if (attacked.slow.length) console.log(`    presents over 1 s (from the first present under attack): ${attacked.slow.join(", ")}`);
      console.log(`    attackers' answers: ${[...answers].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ×${v}`).join(", ")}`);
    } finally {
      await server.stop();
    }
  }
  console.log(verdict("legitimate present p95 while other addresses loop slow PDFs (worst case)", worstP95, 3000, "ms"));
  console.log(`      (the idle server's worst p95 in the same run: ${ms(idleWorst)}; ratio ${(worstP95 / idleWorst).toFixed(1)}×)`);
  console.log(verdict("legitimate presents refused while other addresses loop slow PDFs", refusedTotal, 0, "presents"));
  console.log(`      (${machineLine()})`);
}

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

  // --fairness-only: skip the hostile inputs (minutes) and run the fairness cases alone.
  const fairnessOnly = process.argv.includes("--fairness-only");
  const legit = join(work, "deck-99mb.pdf");
  if (!fairnessOnly) await writeBenchPdf(legit, 99 * MiB);
  const cases: Array<[string, string, () => Promise<Uint8Array | string>]> = fairnessOnly ? [] : [
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
  if (!fairnessOnly) {
    console.log("");
    console.log(verdict("worst /healthz p99 while a hostile input is read", worstP99, 50, "ms"));
    console.log(`      (the idle server's p99 in the same run: ${ms(calmP99)}; ratio ${(worstP99 / calmP99).toFixed(1)}×)`);
    console.log(verdict("worst peak RSS of server + PDF workers", worstPeak / MiB, 1024, "MB"));
  }
  await fairness();
} catch (error) {
  console.error("availability benchmark crashed:", error);
  process.exitCode = 1;
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => {});
  rmSync(work, { recursive: true, force: true });
}
