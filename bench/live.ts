/**
 * Live fan-out (budget: docs/development/design.md): one presenter and 100 / 500 / 2,000
 * WebSocket viewers on loopback against a real server process. For each slide change: the time
 * from the presenter's send to the moment the LAST viewer has received it (p50/p99 over the
 * changes); and the server's resident memory per connected viewer, against the same server's
 * idle RSS (session open, presenter connected, no viewers) measured in this run.
 *
 * The baseline: the bare relay (bench/lib/live-relay.ts), its own process doing only
 * the work a relay must do per message — parse the presenter's JSON, stamp a sequence number,
 * serialise, `server.publish` to the topic every viewer subscribes to. It speaks enough of the
 * live wire format (any join, a minimal hello, the state relayed as `{...message, v, seq}`) that
 * the same client code drives both: the same sockets, join, presenter messages and "received"
 * detection. Per size both servers get the same audience (two sets of sockets, held
 * at once) and the same changes, interleaved one by one (which goes first alternating) after
 * WARMUP untimed ones each; printed: each side's p50/p99 and deckhand / bare, the p99 ratio
 * judged ≤ 1.3× at 500 and 2,000 viewers. The relay then stops, before the interaction run.
 *
 * Then the interaction run, on the largest audience: the presenter starts a poll,
 * every viewer votes once within 2 s while a quarter of them (500 of 2,000) react at 2 taps a
 * second, until the presenter's chart counts every vote; repeated over several polls. Measured:
 * the presenter's chart latency (last vote sent → the presenter's `pollResults` counting every
 * voter), p99 over the polls; slide-change fan-out p99 while the votes come in against the same
 * audience's fan-out in a quiet window just before each poll (the baseline, in the same run),
 * as a ratio; and server memory per viewer, at the peak and settled after the polls. Beside
 * them, per kind of window, how much of the wall time the server's event loop and this
 * process's ran and waited for a CPU (on a machine busy with other work the queue, not
 * deckhand, sets the latencies), and the CPU one vote or tap cost each side.
 *
 * The viewers all live in this one benchmark process, so "last viewer received" includes
 * this process reading 2,000 frames one after another: an upper bound on the server's part.
 * The presenter lives there too: its chart latency includes waiting behind the frames of a
 * slide change in flight when the last vote went out, and the votes' and taps' sending.
 * The relay's viewers live there as well, so both sides pay the same client cost.
 * Asserts nothing; prints figures and the targets (p99 < 50 ms at 500 viewers, p99 ≤ 1.3× the
 * bare relay's at 500 and 2,000, < 100 KB per viewer; chart p99 ≤ 250 ms, fan-out under
 * interaction ≤ 1.2× the quiet one).
 *
 *   bun run bench/live.ts [--source]     (ulimit -n ≥ 6,000: both servers' audiences, and deckhand's socket cap — ¾ of the limit — must leave one address 2,000: its share is 45% of the cap)
 *   LIVE_VIEWERS=200 LIVE_CHANGES=20 LIVE_POLLS=3 bun run bench/live.ts     (a quick check)
 *   LIVE_SHOW=1 bun run bench/live.ts     (results and reactions shown to every viewer during the polls)
 *
 * One machine is one address: the server admits every viewer and every vote from 127.0.0.1
 * (--max-viewers-per-address bounds both the seats and the votes one address may hold, and one
 * address's share of the 100,000 seats is 45,000 — src/live/fair-share.ts).
 */
import { makeDeck } from "../test/fixtures/pdfs.ts";
import { LIVE_REACTIONS } from "../src/shared/live-audience-protocol.ts";
import { describeMode, LIVE_RELAY_COMMAND, pickMode, type Running, startDeckhand, startLiveRelay } from "./lib/proc.ts";
import { cpuMs, cpuWaitMs, readMemory, sampleRss } from "./lib/rss.ts";
import { machineLine, percentile, verdict } from "./lib/stats.ts";

const SIZES = (process.env.LIVE_VIEWERS ?? "100,500,2000").split(",").map(Number);
/** Slide changes timed per size. */
const CHANGES = Number(process.env.LIVE_CHANGES ?? 100);
/** Polls of the interaction run, each with a quiet window before it. */
const POLLS = Number(process.env.LIVE_POLLS ?? 10);
/** LIVE_SHOW=1: the presenter shows the results and the reactions to every viewer while the poll runs (each tick then reaches all of them). */
const SHOW = process.env.LIVE_SHOW === "1";
/** Pause between changes: a presenter clicking fast, and time for the fan-out to drain. */
const GAP_MS = 30;
/** Viewers that connect at once while the audience fills up. */
const CONNECT_BATCH = 100;
const P99_TARGET_MS = 50;
const KB_TARGET = 100;
/** Every viewer votes once within this window after the poll opens. */
const VOTE_WINDOW_MS = 2_000;
/** Each reacting viewer taps this often (2 taps a second, one `react` per tap). */
const TAP_EVERY_MS = 500;
const POLL_OPTIONS = 4;
const CHART_P99_TARGET_MS = 250;
const FANOUT_RATIO_TARGET = 1.2;
/** Untimed slide changes to each server before a size's timed ones. */
const WARMUP = 5;
/** Deckhand's slide change p99 over the bare relay's, judged at these audiences. */
const BARE_RATIO_TARGET = 1.3;
const RATIO_SIZES = [500, 2000];
/** A slide change or a poll's last result that takes longer than this is a broken run, not a slow one. */
const STUCK_MS = 15_000;

const mode = pickMode();
console.log(machineLine());
console.log(`server: ${describeMode(mode)}`);
console.log(`baseline: the bare relay, ${LIVE_RELAY_COMMAND} (parse, stamp a seq, serialise, server.publish)`);
const server = await startDeckhand(mode, ["--max-viewers", "100000", "--max-viewers-per-address", "100000"]);
let relay: Running | null = null;

function open(wsBase: string, code: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${wsBase}/api/live/${code}/ws`);
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error("socket error"));
  });
}

/** Connect and join; resolves on hello. */
async function join(wsBase: string, code: string, role: "presenter" | "viewer", secret?: string, viewerId?: string): Promise<WebSocket> {
  const ws = await open(wsBase, code);
  await new Promise<void>((resolve) => {
    ws.onmessage = (event) => {
      if (String(event.data).includes('"type":"hello"')) resolve();
    };
    ws.send(JSON.stringify({ v: 1, type: "join", role, ...(secret ? { secret } : {}), ...(viewerId ? { viewerId } : {}) }));
  });
  return ws;
}

const settle = async () => {
  // Let the server finish what the last step started (count updates, GC of handshakes).
  await Bun.sleep(1500);
  Bun.gc(true);
};

/** Resolves with `promise`, or fails after STUCK_MS saying what was awaited. */
function bounded<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: Timer | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${STUCK_MS} ms`)), STUCK_MS);
  });
  return Promise.race([promise, stuck]).finally(() => clearTimeout(timer));
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const state = (page: number) => ({ v: 1, type: "state", state: { page, blank: "none", mode: "normal", overlays: { pointer: null, live: null, zoom: null, inkHidden: false }, ink: [], media: {}, frozen: false } });

/**
 * One talk's presenter and viewers on one server (deckhand, or the bare relay): the same client
 * code — sockets, join, messages sent, "received" detection — drives both.
 */
async function audience(url: string, code: string, secret: string | undefined, refused: Map<string, number>) {
  const wsBase = url.replace(/^http/, "ws");
  const presenter = await join(wsBase, code, "presenter", secret);
  const viewers: WebSocket[] = [];
  /** Per slide change (or poll opened or closed): how many viewers have yet to get it, and when the last one got it. */
  let pending = 0;
  let lastAt = 0;
  let done: (() => void) | null = null;
  const onBroadcast = () => {
    if (--pending === 0) {
      lastAt = performance.now();
      done?.();
    }
  };

  /** Send `message` as the presenter; ms until every viewer has the broadcast it causes. */
  async function toEveryViewer(message: object, what: string): Promise<number> {
    pending = viewers.length;
    const arrived = new Promise<void>((resolve) => {
      done = resolve;
    });
    const sentAt = performance.now();
    presenter.send(JSON.stringify(message));
    await bounded(arrived, `${what} to ${viewers.length} viewers (${pending} still waiting)`);
    return lastAt - sentAt;
  }

  let page = 1;
  /** One slide change to every viewer: ms from the presenter's send to the last viewer's frame. */
  function change(): Promise<number> {
    page = (page % 20) + 1;
    return toEveryViewer(state(page), `slide ${page}`);
  }

  /** Connect viewers, CONNECT_BATCH at a time, until there are `size`. */
  async function grow(size: number): Promise<void> {
    while (viewers.length < size) {
      const batch = Math.min(CONNECT_BATCH, size - viewers.length);
      const first = viewers.length;
      const joined = await Promise.all(Array.from({ length: batch }, (_, i) => join(wsBase, code, "viewer", undefined, `bench-viewer-${String(first + i).padStart(8, "0")}`)));
      for (const ws of joined) {
        // Only the relayed state, a poll opening, shown or closing, reactions shown (and refusals) matter here; everything else (counts, results, reactions) is ignored unparsed.
        ws.onmessage = (event) => {
          const data = event.data as string;
          if (data.startsWith('{"v":1,"type":"state"') || data.startsWith('{"v":1,"type":"poll",') || data.startsWith('{"v":1,"type":"reactionsShow"')) onBroadcast();
          else if (data.startsWith('{"v":1,"type":"error"')) {
            const refusal = (JSON.parse(data) as { code: string }).code;
            refused.set(refusal, (refused.get(refusal) ?? 0) + 1);
          }
        };
        viewers.push(ws);
      }
    }
  }

  const close = () => {
    for (const ws of viewers) ws.close();
    presenter.close();
  };
  return { presenter, viewers, toEveryViewer, change, grow, close };
}

try {
  const form = new FormData();
  form.append("file", new File([(await makeDeck({ pages: 20 })) as Uint8Array<ArrayBuffer>], "bench.pdf", { type: "application/pdf" }));
  const res = await fetch(`${server.url}/api/live`, { method: "POST", body: form });
  if (res.status !== 201) throw new Error(`go live: ${res.status} ${await res.text()}`);
  const talk = (await res.json()) as { code: string; presenterSecret: string };
  /** Refusals any viewer received, by code: the run must have none. */
  const refused = new Map<string, number>();
  const live = await audience(server.url, talk.code, talk.presenterSecret, refused);
  const { presenter, viewers, toEveryViewer, change } = live;
  presenter.send(JSON.stringify(state(1)));
  await settle();
  const idle = readMemory(server.pid)!.rss;
  console.log(`idle server (session open, presenter connected, 0 viewers): RSS ${(idle / 1048576).toFixed(1)} MB`);

  relay = await startLiveRelay();
  const bare = await audience(relay.url, talk.code, undefined, refused);
  bare.presenter.send(JSON.stringify(state(1)));

  for (const size of SIZES) {
    await live.grow(size);
    await bare.grow(size);
    await settle();
    const rss = readMemory(server.pid)!.rss;
    const perViewerKb = (rss - idle) / size / 1024;

    // Untimed: both servers' (and this process's) code paths for this audience warmed alike.
    for (let i = 0; i < WARMUP; i++) {
      await live.change();
      await Bun.sleep(GAP_MS);
      await bare.change();
      await Bun.sleep(GAP_MS);
    }
    // Interleaved, which goes first alternating: both see the same machine, moment by moment.
    const latencies: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < CHANGES; i++) {
      const pair = i % 2 === 0 ? [live, bare] : [bare, live];
      for (const side of pair) {
        (side === live ? latencies : baseline).push(await side.change());
        await Bun.sleep(GAP_MS);
      }
    }
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const bareP50 = percentile(baseline, 50);
    const bareP99 = percentile(baseline, 99);
    const row = `${String(size).padStart(5)} viewers: slide change → last viewer p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, max ${Math.max(...latencies).toFixed(2)} ms; RSS ${(rss / 1048576).toFixed(1)} MB = ${perViewerKb.toFixed(1)} KB per viewer over idle`;
    console.log(row);
    console.log(`       bare relay: slide change → last viewer p50 ${bareP50.toFixed(2)} ms, p99 ${bareP99.toFixed(2)} ms, max ${Math.max(...baseline).toFixed(2)} ms; deckhand / bare: p99 ${(p99 / bareP99).toFixed(2)}×, p50 ${(p50 / bareP50).toFixed(2)}× (${CHANGES} changes each, interleaved)`);
    if (size === 500) {
      console.log(`  target p99 < ${P99_TARGET_MS} ms at 500 viewers: ${p99 < P99_TARGET_MS ? "met" : "MISSED"}`);
    }
    console.log(`  target < ${KB_TARGET} KB per viewer: ${perViewerKb < KB_TARGET ? "met" : "MISSED"}`);
    if (RATIO_SIZES.includes(size)) console.log(`  ${verdict(`slide change p99 to ${size} viewers, deckhand / bare relay`, p99 / bareP99, BARE_RATIO_TARGET)}`);
  }
  // The interaction run is deckhand's alone: the relay's audience leaves first.
  bare.close();
  await relay.stop();
  relay = null;

  // ---- the interaction run ------------------------------------------------------------------

  const n = viewers.length;
  const reactors = Math.round(n / 4);
  console.log(`\n${machineLine()}`);
  console.log(`interaction: ${n} viewers each vote once within ${VOTE_WINDOW_MS / 1000} s, ${reactors} of them react at ${1000 / TAP_EVERY_MS} taps/s; ${POLLS} polls, each after a quiet window of slide changes${SHOW ? "; results and reactions shown to every viewer" : ""}`);
  if (SHOW) await toEveryViewer({ v: 1, type: "reactionsShow", show: true }, "reactions shown");

  /** What the presenter hears of the poll: its id once open, the time its results count `n` voters. */
  let opened: ((pollId: string) => void) | null = null;
  let counted: (() => void) | null = null;
  let resultsSeen = 0;
  /** When the presenter got the last `pollResults`, and the gaps between consecutive ones (the server's tick as the presenter sees it). */
  let lastResultsAt = 0;
  /** Gaps are taken while the votes of a poll are being counted only (not to its opening, showing or closing). */
  let counting = false;
  const resultsGaps: number[] = [];
  let reactionsSeen = 0;
  let current = "";
  presenter.onmessage = (event) => {
    const data = event.data as string;
    if (data.startsWith('{"v":1,"type":"pollResults"')) {
      const results = JSON.parse(data) as { pollId: string; voters: number };
      if (results.pollId !== current) return;
      resultsSeen++;
      const at = performance.now();
      if (counting && lastResultsAt) resultsGaps.push(at - lastResultsAt);
      lastResultsAt = at;
      if (results.voters === n) {
        counting = false;
        counted?.();
      }
    } else if (data.startsWith('{"v":1,"type":"poll"')) {
      const { poll } = JSON.parse(data) as { poll: { id: string; status: string } };
      if (poll.status === "open") opened?.(poll.id);
    } else if (data.startsWith('{"v":1,"type":"reactions"')) reactionsSeen++;
    else if (data.startsWith('{"v":1,"type":"error"')) console.log(`  presenter refused: ${data}`);
  };

  /**
   * Votes spread evenly over VOTE_WINDOW_MS (viewer i at (i + 1) / n of it), and taps from the
   * first `reactors` viewers, each every TAP_EVERY_MS at its own phase, until `stop()`.
   */
  function traffic(pollId: string) {
    const start = performance.now();
    let votes = 0;
    let taps = 0;
    let lastVoteAt = 0;
    let votesDone: () => void = () => {};
    const allVoted = new Promise<void>((resolve) => {
      votesDone = resolve;
    });
    // Encoded once: what this process spends per message is the socket's send, as a browser's would be.
    const ballots = Array.from({ length: POLL_OPTIONS }, (_, option) => JSON.stringify({ v: 1, type: "vote", pollId, choices: [option] }));
    const tapped = LIVE_REACTIONS.map((emoji) => JSON.stringify({ v: 1, type: "react", counts: { [emoji]: 1 } }));
    const step = () => {
      const elapsed = performance.now() - start;
      const voteDue = Math.min(n, Math.floor((elapsed / VOTE_WINDOW_MS) * n));
      for (; votes < voteDue; votes++) viewers[votes]!.send(ballots[votes % POLL_OPTIONS]!);
      if (votes === n && lastVoteAt === 0) {
        lastVoteAt = performance.now();
        votesDone();
      }
      const tapDue = Math.floor((elapsed / TAP_EVERY_MS) * reactors);
      for (; taps < tapDue; taps++) viewers[taps % reactors]!.send(tapped[taps % tapped.length]!);
    };
    const timer = setInterval(step, 5);
    return {
      allVoted,
      lastVoteAt: () => lastVoteAt,
      stop: () => {
        clearInterval(timer);
        return taps;
      },
    };
  }

  const quiet: number[] = [];
  const busy: number[] = [];
  const charts: number[] = [];
  /** Poll opened and closed → last viewer: the audience's broadcasts, beside the slide changes'. */
  const pollFanout: number[] = [];
  let taps = 0;
  let interactionSeconds = 0;
  /** Per window kind, ms of: CPU of the server's event loop and of this process's, the time each waited for a CPU, and the wall time. */
  const zero = () => ({ loop: 0, loopWait: 0, bench: 0, benchWait: 0, wall: 0 });
  const cpu = { quiet: zero(), busy: zero() };
  const reading = () => ({ loop: cpuMs(server.pid) ?? 0, loopWait: cpuWaitMs(server.pid) ?? 0, bench: cpuMs(process.pid) ?? 0, benchWait: cpuWaitMs(process.pid) ?? 0, wall: performance.now() });
  /** This process's event loop: how late a 10 ms timer fires, per window kind (a stall here delays every frame and result it reads). */
  const lag = { quiet: [] as number[], busy: [] as number[], into: null as number[] | null };
  let lagLast = performance.now();
  const lagTimer = setInterval(() => {
    const now = performance.now();
    lag.into?.push(now - lagLast - 10);
    lagLast = now;
  }, 10);
  const account = (into: ReturnType<typeof zero>, from: ReturnType<typeof reading>) => {
    const to = reading();
    for (const key of Object.keys(into) as Array<keyof typeof into>) into[key] += to[key] - from[key];
  };
  await settle();
  const peak = sampleRss(server.pid, 20);
  for (let round = 0; round < POLLS; round++) {
    // The baseline: slide changes to the same audience with no interaction traffic.
    let from = reading();
    lag.into = lag.quiet;
    while (performance.now() - from.wall < VOTE_WINDOW_MS) {
      quiet.push(await change());
      await Bun.sleep(GAP_MS);
    }
    account(cpu.quiet, from);

    // A poll: once every viewer has it, each votes within the window and a quarter react; slide changes meanwhile.
    const pollOpen = new Promise<string>((resolve) => {
      opened = resolve;
    });
    pollFanout.push(await toEveryViewer({ v: 1, type: "pollStart", question: `Round ${round + 1}: which one?`, options: ["A", "B", "C", "D"].slice(0, POLL_OPTIONS), multiple: false }, "the poll"));
    current = await bounded(pollOpen, "pollStart");
    if (SHOW) pollFanout.push(await toEveryViewer({ v: 1, type: "pollShow", pollId: current }, "the poll shown"));
    const allCounted = new Promise<number>((resolve) => {
      counted = () => resolve(performance.now());
    });
    from = reading();
    lag.into = lag.busy;
    lastResultsAt = 0;
    counting = true;
    const run = traffic(current);
    let voted = false;
    void run.allVoted.then(() => {
      voted = true;
    });
    while (!voted) {
      busy.push(await change());
      await Bun.sleep(GAP_MS);
    }
    await run.allVoted;
    const chartAt = await bounded(allCounted, `poll ${round + 1}: results counting ${n} voters (refused so far: ${JSON.stringify(Object.fromEntries(refused))})`);
    taps += run.stop();
    interactionSeconds += (performance.now() - from.wall) / 1000;
    account(cpu.busy, from);
    lag.into = null;
    charts.push(chartAt - run.lastVoteAt());
    pollFanout.push(await toEveryViewer({ v: 1, type: "pollClose", pollId: current }, "the closed poll"));
    await Bun.sleep(GAP_MS);
  }
  clearInterval(lagTimer);
  const { maxSampled } = peak.stop();
  await settle();
  const after = readMemory(server.pid)!.rss;

  const quietP99 = percentile(quiet, 99);
  const busyP99 = percentile(busy, 99);
  const chartP99 = percentile(charts, 99);
  console.log(`  chart: last vote sent → presenter's results count all ${n}: p50 ${percentile(charts, 50).toFixed(1)} ms, p99 ${chartP99.toFixed(1)} ms, max ${Math.max(...charts).toFixed(1)} ms (${POLLS} polls; ${(resultsSeen / POLLS).toFixed(1)} results messages per poll, ${percentile(resultsGaps, 50).toFixed(0)} ms apart at p50, ${percentile(resultsGaps, 99).toFixed(0)} ms at p99); each poll: ${charts.map((c) => c.toFixed(0)).join(", ")} ms`);
  console.log(`  slide change → last viewer, quiet: p50 ${percentile(quiet, 50).toFixed(2)} ms, p99 ${quietP99.toFixed(2)} ms (n=${quiet.length}); while voting and reacting: p50 ${percentile(busy, 50).toFixed(2)} ms, p99 ${busyP99.toFixed(2)} ms (n=${busy.length})`);
  console.log(`  poll opened or closed → last viewer: p50 ${percentile(pollFanout, 50).toFixed(2)} ms, max ${Math.max(...pollFanout).toFixed(2)} ms (n=${pollFanout.length})`);
  console.log(`  traffic: ${(n * POLLS / interactionSeconds).toFixed(0)} votes/s and ${(taps / interactionSeconds).toFixed(0)} taps/s on average while polls ran; presenter got ${(reactionsSeen / interactionSeconds).toFixed(1)} reactions messages/s; refused: ${refused.size ? JSON.stringify(Object.fromEntries(refused)) : "none"}`);
  const pct = (ms: number, window: typeof cpu.quiet) => `${((ms / window.wall) * 100).toFixed(0)} %`;
  const share = (w: typeof cpu.quiet) => `server ${pct(w.loop, w)} running, ${pct(w.loopWait, w)} waiting for a CPU; benchmark ${pct(w.bench, w)} running, ${pct(w.benchWait, w)} waiting`;
  console.log(`  event loops, of the wall time — quiet: ${share(cpu.quiet)}; voting and reacting: ${share(cpu.busy)}`);
  const lagged = (values: number[]) => `p99 ${percentile(values, 99).toFixed(0)} ms, max ${Math.max(...values).toFixed(0)} ms`;
  console.log(`  this benchmark's event loop, late by — quiet: ${lagged(lag.quiet)}; voting and reacting: ${lagged(lag.busy)}`);
  // What the votes and taps cost on their own: a busy window's CPU less its slide changes at the quiet windows' cost per change.
  const perMessage = (key: "loop" | "bench") => ((cpu.busy[key] - (cpu.quiet[key] / quiet.length) * busy.length) / (n * POLLS + taps)) * 1000;
  console.log(`  CPU per vote or tap (busy windows less their slide changes at the quiet cost): server event loop ${perMessage("loop").toFixed(1)} µs, this benchmark ${perMessage("bench").toFixed(1)} µs`);
  console.log(`  server RSS: peak ${(maxSampled / 1048576).toFixed(1)} MB = ${kb((maxSampled - idle) / n)} per viewer over idle; settled after the polls ${(after / 1048576).toFixed(1)} MB = ${kb((after - idle) / n)} per viewer`);
  console.log(verdict(`presenter's chart after the last of ${n} votes, p99`, chartP99, CHART_P99_TARGET_MS, "ms"));
  console.log(verdict(`slide change p99 to ${n} viewers, voting and reacting / quiet`, busyP99 / quietP99, FANOUT_RATIO_TARGET) + ` (p50: ${(percentile(busy, 50) / percentile(quiet, 50)).toFixed(2)}×)`);
  console.log(verdict("server memory per viewer at the interaction's peak", (maxSampled - idle) / n / 1024, KB_TARGET, "KB"));

  live.close();
} finally {
  await relay?.stop();
  await server.stop();
}
