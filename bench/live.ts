/**
 * Live fan-out (DESIGN §7, issue 11): one presenter and 100 / 500 / 2,000 WebSocket viewers
 * on loopback against a real server process. For each slide change: the time from the
 * presenter's send to the moment the LAST viewer has received it (p50/p99 over the changes);
 * and the server's resident memory per connected viewer, against the same server's idle RSS
 * (session open, presenter connected, no viewers) measured in this run.
 *
 * The viewers all live in this one benchmark process, so "last viewer received" includes
 * this process reading 2,000 frames one after another: an upper bound on the server's part.
 * Asserts nothing; prints figures and the targets (p99 < 50 ms at 500 viewers, < 100 KB per
 * viewer).
 *
 *   bun run bench/live.ts [--source]     (ulimit -n must allow ~2 × 2,000 + slack sockets)
 */
import { makeDeck } from "../test/fixtures/pdfs.ts";
import { describeMode, pickMode, startDeckhand } from "./lib/proc.ts";
import { readMemory } from "./lib/rss.ts";
import { machineLine, percentile } from "./lib/stats.ts";

const SIZES = (process.env.LIVE_VIEWERS ?? "100,500,2000").split(",").map(Number);
/** Slide changes timed per size. */
const CHANGES = Number(process.env.LIVE_CHANGES ?? 100);
/** Pause between changes: a presenter clicking fast, and time for the fan-out to drain. */
const GAP_MS = 30;
/** Viewers that connect at once while the audience fills up. */
const CONNECT_BATCH = 100;
const P99_TARGET_MS = 50;
const KB_TARGET = 100;

const mode = pickMode();
console.log(machineLine());
console.log(`server: ${describeMode(mode)}`);
const server = await startDeckhand(mode, ["--max-viewers", "100000"]);
const wsBase = server.url.replace(/^http/, "ws");

function open(code: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${wsBase}/api/live/${code}/ws`);
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error("socket error"));
  });
}

/** Connect and join; resolves on hello. */
async function join(code: string, role: "presenter" | "viewer", secret?: string): Promise<WebSocket> {
  const ws = await open(code);
  await new Promise<void>((resolve) => {
    ws.onmessage = (event) => {
      if (String(event.data).includes('"type":"hello"')) resolve();
    };
    ws.send(JSON.stringify({ v: 1, type: "join", role, ...(secret ? { secret } : {}) }));
  });
  return ws;
}

const settle = async () => {
  // Let the server finish what the last step started (count updates, GC of handshakes).
  await Bun.sleep(1500);
  Bun.gc(true);
};

try {
  const form = new FormData();
  form.append("file", new File([(await makeDeck({ pages: 20 })) as Uint8Array<ArrayBuffer>], "bench.pdf", { type: "application/pdf" }));
  const res = await fetch(`${server.url}/api/live`, { method: "POST", body: form });
  if (res.status !== 201) throw new Error(`go live: ${res.status} ${await res.text()}`);
  const talk = (await res.json()) as { code: string; presenterSecret: string };
  const presenter = await join(talk.code, "presenter", talk.presenterSecret);
  const state = (page: number) => ({ v: 1, type: "state", state: { page, blank: "none", mode: "normal", overlays: { pointer: null, live: null, zoom: null, inkHidden: false }, ink: [], media: {}, frozen: false } });
  presenter.send(JSON.stringify(state(1)));
  await settle();
  const idle = readMemory(server.pid)!.rss;
  console.log(`idle server (session open, presenter connected, 0 viewers): RSS ${(idle / 1048576).toFixed(1)} MB`);

  const viewers: WebSocket[] = [];
  /** Per change: how many viewers have it, and when the last one got it. */
  let pending = 0;
  let sentAt = 0;
  let lastAt = 0;
  let done: (() => void) | null = null;
  const onState = () => {
    if (--pending === 0) {
      lastAt = performance.now();
      done?.();
    }
  };

  let page = 1;
  for (const size of SIZES) {
    while (viewers.length < size) {
      const batch = Math.min(CONNECT_BATCH, size - viewers.length);
      const joined = await Promise.all(Array.from({ length: batch }, () => join(talk.code, "viewer")));
      for (const ws of joined) {
        // Only the relayed state matters here; everything else (counts) is ignored unparsed.
        ws.onmessage = (event) => {
          if ((event.data as string).startsWith('{"v":1,"type":"state"')) onState();
        };
        viewers.push(ws);
      }
    }
    await settle();
    const rss = readMemory(server.pid)!.rss;
    const perViewerKb = (rss - idle) / size / 1024;

    const latencies: number[] = [];
    for (let i = 0; i < CHANGES; i++) {
      page = (page % 20) + 1;
      pending = viewers.length;
      const arrived = new Promise<void>((resolve) => {
        done = resolve;
      });
      sentAt = performance.now();
      presenter.send(JSON.stringify(state(page)));
      await arrived;
      latencies.push(lastAt - sentAt);
      await Bun.sleep(GAP_MS);
    }
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const row = `${String(size).padStart(5)} viewers: slide change → last viewer p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, max ${Math.max(...latencies).toFixed(2)} ms; RSS ${(rss / 1048576).toFixed(1)} MB = ${perViewerKb.toFixed(1)} KB per viewer over idle`;
    console.log(row);
    if (size === 500) {
      console.log(`  target p99 < ${P99_TARGET_MS} ms at 500 viewers: ${p99 < P99_TARGET_MS ? "met" : "MISSED"}`);
    }
    console.log(`  target < ${KB_TARGET} KB per viewer: ${perViewerKb < KB_TARGET ? "met" : "MISSED"}`);
  }
  for (const ws of viewers) ws.close();
  presenter.close();
} finally {
  await server.stop();
}
