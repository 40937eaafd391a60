/**
 * Slow PDFs must not starve everyone's uploads (docs/operating/availability.md). Against the
 * compiled binary, four addresses loop a slow object-stream PDF three at a time each, at
 * /api/check (the audit's attack) and then at /api/present and /api/check by turns (the attack
 * the check-only version missed: before, presents waited 25–29 s); a fifth address's small
 * `POST /api/present` must still complete within 3 s at p95, /healthz must keep answering,
 * server + workers stay < 1 GB, and the looping addresses are refused with 429 PDF_TOO_SLOW
 * (Retry-After) once their files have used their budget of reading time.
 *
 * Addresses are told apart by X-Forwarded-For under --trust-proxy (the server's last hop).
 */
// npm test: alone — its bounds are wall-clock times of the server under its own load, so it runs with nothing beside it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { objStmRepairBomb } from "../fixtures/hostile-pdfs.ts";
import { makeDeck } from "../fixtures/pdfs.ts";
import { watchHealth } from "../helpers/raw-http.ts";
import { type BinaryServer, scratch } from "../helpers/server.ts";
import { waitFor } from "../helpers/wait.ts";

// The timeout of each test and hook here: 30 s for beforeAll, which starts the binary (its tests set their own).
setDefaultTimeout(30_000);

/** The deadline of one PDF here: short, so the test is quick, and long enough to fill the workers. */
const PDF_TIMEOUT_S = 3;
const ATTACKERS = 4;
const PER_ATTACKER = 3;
/**
 * Legitimate presents measured during the attack: twenty, so the p95 is the second slowest — the
 * first presents wait about a second behind each new address's first file (its slowness not yet
 * known), longer on a loaded machine, and one of them may be the slowest.
 */
const LEGIT_RUNS = 20;

const space = scratch();
let server: BinaryServer;
let bomb: Uint8Array;
let deck: Uint8Array;

const start = () => space.start({ args: ["--trust-proxy", "--pdf-timeout", String(PDF_TIMEOUT_S), "--rate-limit", "0"], ...(process.env.DECKHAND_BINARY ? { binary: process.env.DECKHAND_BINARY } : {}) });

beforeAll(async () => {
  // ~340 KB; its repair runs far past the deadline.
  bomb = objStmRepairBomb(80_000);
  deck = await makeDeck({ pages: 2 });
});
afterAll(() => space.cleanup());

async function post(path: string, pdf: Uint8Array, address: string, timeoutMs = 15_000): Promise<{ status: number; body: Record<string, unknown>; retryAfter: string | null; ms: number }> {
  const form = new FormData();
  form.append("file", new Blob([pdf as BlobPart], { type: "application/pdf" }), "deck.pdf");
  const started = performance.now();
  try {
    // Bounded, so that the old server's 30 s waits end the test instead of hanging it.
    const response = await fetch(`${server.url}${path}`, { method: "POST", body: form, headers: { "x-forwarded-for": address }, signal: AbortSignal.timeout(timeoutMs) });
    const body = (await response.json()) as Record<string, unknown>;
    return { status: response.status, body, retryAfter: response.headers.get("retry-after"), ms: performance.now() - started };
  } catch (error) {
    return { status: 0, body: { error: String(error) }, retryAfter: null, ms: performance.now() - started };
  }
}

/** VmRSS of a process and its direct children (the PDF workers), in bytes. */
function treeRss(pid: number): number {
  const rss = (p: number) => {
    try {
      return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0) * 1024;
    } catch {
      return 0;
    }
  };
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {}
  return rss(pid) + children.reduce((sum, c) => sum + rss(c), 0);
}

const p = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(q * values.length) - 1)]!;

/** The attack with each loop's files sent to `routeOf(loop)`, and the measures and checks of the test. */
async function attackAndMeasure(routeOf: (loop: number) => string): Promise<void> {
  server = await start();
  let attacking = true;
  const answers: { status: number; code: unknown; retryAfter: string | null }[] = [];
  const loops = Array.from({ length: ATTACKERS * PER_ATTACKER }, async (_, i) => {
    const address = `203.0.113.${1 + (i % ATTACKERS)}`;
    const route = routeOf(Math.floor(i / ATTACKERS));
    // Bounded: each loop stops with the attack, and after 200 answers at most.
    for (let n = 0; attacking && n < 200; n++) {
      const answer = await post(route, bomb, address);
      answers.push({ status: answer.status, code: answer.body.code, retryAfter: answer.retryAfter });
      // A refused attacker retries soon anyway (it does not honour Retry-After): the attack's pace.
      if (answer.status === 429) await Bun.sleep(100);
    }
  });
  const health = watchHealth(server.url);
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, treeRss(server.proc.pid))), 200);
  const latencies: number[] = [];
  const statuses: number[] = [];
  try {
    // Let the attack fill the workers and the line first: every attacker's file is in, each
    // one a temp file until its check or validation has answered.
    const inLine = () => readdirSync(join(server.dataDir, "staged")).filter((name) => name.endsWith(".tmp")).length;
    await waitFor(() => inLine() >= ATTACKERS * PER_ATTACKER, "every attacker's file to be in the line");
    for (let i = 0; i < LEGIT_RUNS; i++) {
      const answer = await post("/api/present", deck, "198.51.100.7");
      statuses.push(answer.status);
      latencies.push(answer.ms);
      // With twenty runs the p95 is the second slowest: two past the bound already fail, stop there.
      if (latencies.filter((ms) => ms > 3000).length >= 2) break;
      await Bun.sleep(300); // a presenter's pace through the attack, not a wait for the server
    }
    // The attack goes on until its addresses have run into the deadline often enough to be refused.
    await waitFor(() => answers.some((a) => a.status === 429), "an attacker to be refused", 60_000);
  } finally {
    attacking = false;
    clearInterval(sampler);
    await Promise.all(loops);
  }
  const seen = await health.stop();
  console.log(`legit present ms: [${latencies.map(Math.round).join(", ")}]; p50 ${Math.round(p(latencies, 0.5))}, p95 ${Math.round(p(latencies, 0.95))}, max ${Math.round(Math.max(...latencies))}; /healthz p99 ${Math.round(p(seen.latencies, 0.99))} ms; peak RSS ${Math.round(peakRss / 2 ** 20)} MB; attacker answers ${JSON.stringify(Object.entries(Object.groupBy(answers, (a) => `${a.status} ${String(a.code ?? "")}`)).map(([k, v]) => [k, v!.length]))}`);
  expect(p(latencies, 0.95)).toBeLessThanOrEqual(3000);
  expect(statuses).toEqual(Array(LEGIT_RUNS).fill(200));
  expect(seen.failures).toBe(0);
  expect(p(seen.latencies, 0.99)).toBeLessThan(250);
  expect(peakRss).toBeLessThan(1024 ** 3);
  // The looping addresses ran into the deadline and were then refused, with a time to wait.
  expect(answers.some((a) => a.status === 422 && a.code === "PDF_TOO_COMPLEX")).toBe(true);
  // (Their abandoned uploads may also hold their per-address upload slots: 429 TOO_MANY_UPLOADS.)
  const refused = answers.filter((a) => a.status === 429);
  expect(refused.filter((a) => a.code === "PDF_TOO_SLOW").length).toBeGreaterThan(0);
  for (const a of refused) {
    expect(["PDF_TOO_SLOW", "TOO_MANY_UPLOADS"]).toContain(a.code as string);
    expect(Number(a.retryAfter)).toBeGreaterThan(0);
  }
}

describe("slow PDFs from a few addresses", () => {
  test("looped at /api/check: a legitimate present from another address completes ≤ 3 s p95; the looping addresses get 429 PDF_TOO_SLOW", async () => {
    await attackAndMeasure(() => "/api/check");
  }, 150_000);

  test("looped at /api/present and /api/check by turns: the same", async () => {
    await attackAndMeasure((loop) => (loop % 2 === 0 ? "/api/present" : "/api/check"));
  }, 150_000);

  test("an address refused for slow PDFs does not refuse another: a check from a new address is answered", async () => {
    // Attackers' checks may still wait in the line (their clients gave up; the server does not
    // know): this one goes before them, after the check running now.
    const answer = await post("/api/check", deck, "198.51.100.8", 50_000);
    expect(answer.status).toBe(200);
    expect(answer.body.ok).toBeDefined();
  }, 60_000);
});
