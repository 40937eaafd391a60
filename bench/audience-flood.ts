/**
 * A crowd's questions and up-votes against the presenter's window: the compiled binary, the
 * presenter in Chromium with *Questions and polls* open, and a crowd of viewer sockets from
 * this process, each address a 127.0.0.x of its own (test/helpers/crowd.ts). 600 questions
 * come from 30 addresses within 10 s, then 300 viewers up-vote twice a second for 20 s, while
 * the presenter presses → and ← every 1.5 s.
 *
 * Measured, in the flood and — the baseline — in a quiet window of the same talk just before it
 * (the same presenter, panel and crowd connected, no audience traffic, the same presses):
 *   - the presenter's main-thread lag: how late a 20 ms timer inside the page fires, p99 and
 *     max (a page busy with the audience fires it late; a slide change waits the same);
 *   - slide-change latency: from the key press to the last of the crowd's sockets having the
 *     new state, p50 and p99.
 * Printed: each side's figures and flood / quiet, and beside them how much of each window the
 * server's process ran and how long its event loop waited for a CPU (on a machine busy with
 * other work the queue, not deckhand, sets the latencies). Asserts nothing.
 *
 *   bun run scripts/build.ts && bun run bench/audience-flood.ts [--binary OTHER_BINARY]
 *   DECKHAND_FLOOD_SCALE=0.3 bun run bench/audience-flood.ts     (a quicker, smaller crowd)
 *
 * `--binary` runs another build (e.g. of an older commit) in place of dist/deckhand: its
 * presenter page and its server, the same crowd.
 *
 * The crowd lives in this process, so "last socket" includes this process reading every
 * socket's frames: an upper bound on the server's and the presenter's part.
 */
import { parseArgs } from "node:util";
import { askRounds, crowdOf, loopbackAddresses, voteRounds, type CrowdSocket } from "../test/helpers/crowd.ts";
import { presentPdf } from "../test/helpers/e2e-suite.ts";
import { launchEngine, type EnginePage } from "../test/helpers/engine.ts";
import { startBinary } from "../test/helpers/server.ts";
import { liveWithQuestionsOpen } from "../test/helpers/stage.ts";
import { makeDeck } from "../test/fixtures/pdfs.ts";
import { cpuMs, cpuWaitMs } from "./lib/rss.ts";
import { machineLine, percentile } from "./lib/stats.ts";

const SCALE = Number(process.env.DECKHAND_FLOOD_SCALE ?? 1);
const ADDRESSES = Math.max(2, Math.round(30 * SCALE));
/** Per address: 10 viewers, 4 of them asking 5 questions (the server takes 20 a minute from an address, 5 from a viewer id). */
const VIEWERS_PER_ADDRESS = 10;
const ASKERS_PER_ADDRESS = 4;
const QUESTIONS_PER_ASKER = 5;
const ASK_WINDOW_MS = 10_000;
const VOTE_SECONDS = Math.max(4, Math.round(20 * SCALE));
const VOTES_PER_SECOND = 2;
/** The presenter presses → or ← this often, in both windows. */
const SLIDE_EVERY_MS = 1_500;
/** The quiet window's length: about as many presses as the flood's ask phase. */
const QUIET_MS = 15_000;
/** The in-page probe's timer. */
const PROBE_MS = 20;
/** A slide change that takes longer than this is a broken run, not a slow one. */
const STUCK_MS = 60_000;

console.log(machineLine());
console.log(`crowd: ${ADDRESSES} addresses × ${VIEWERS_PER_ADDRESS} viewers; ${ADDRESSES * ASKERS_PER_ADDRESS * QUESTIONS_PER_ASKER} questions within ${ASK_WINDOW_MS / 1000} s, then up-votes ${VOTES_PER_SECOND}/s per viewer for ${VOTE_SECONDS} s; a slide change every ${SLIDE_EVERY_MS / 1000} s`);

const flags = parseArgs({ options: { binary: { type: "string" } } }).values;
const server = await startBinary(flags.binary ? { binary: flags.binary } : {});
if (flags.binary) console.log(`binary: ${flags.binary}`);
const engine = await launchEngine("chromium", { viewport: { width: 1280, height: 800 } });
const presenter: EnginePage = engine.page;
const crowd: CrowdSocket[] = [];

/** Per slide change: how many crowd sockets have it, and when the last one got it. */
let pending = 0;
let lastAt = 0;
const onState = () => {
  if (--pending === 0) lastAt = performance.now();
};

/** The page's probe: a 20 ms timer that notes how late it fires. */
async function startProbe(): Promise<void> {
  await presenter.evaluate((ms: number) => {
    const w = window as unknown as { lateness: number[]; probeTimer?: number };
    w.lateness = [];
    let last = performance.now();
    clearInterval(w.probeTimer);
    w.probeTimer = window.setInterval(() => {
      const now = performance.now();
      w.lateness.push(now - last - ms);
      last = now;
    }, ms);
  }, PROBE_MS);
}

const takeProbe = () => presenter.evaluate(() => (window as unknown as { lateness: number[] }).lateness.splice(0));

/** The slide the talk is at: the presses go → from 1, ← from 2, window after window. */
let page = 1;

/** Slide changes every SLIDE_EVERY_MS while `busy` runs: each one's time to the last crowd socket. */
async function pressWhile<T>(busy: Promise<T>): Promise<{ latencies: number[]; result: T }> {
  let done = false;
  let result: T | undefined;
  void busy.then((r) => {
    result = r;
    done = true;
  });
  const latencies: number[] = [];
  while (!done) {
    page = page === 1 ? 2 : 1;
    pending = crowd.length;
    const at = performance.now();
    await presenter.press(page === 2 ? "ArrowRight" : "ArrowLeft");
    const deadline = at + STUCK_MS;
    while (pending > 0) {
      if (performance.now() > deadline) throw new Error(`slide ${page}: ${pending} of ${crowd.length} sockets still waiting after ${STUCK_MS} ms`);
      await Bun.sleep(5);
    }
    latencies.push(lastAt - at);
    await Bun.sleep(Math.max(0, SLIDE_EVERY_MS - (performance.now() - at)));
  }
  await busy;
  return { latencies, result: result as T };
}

const ms = (n: number) => `${n.toFixed(0)} ms`;
/** The server's event loop: CPU it ran and time it waited for one, and the wall time, to compare two readings. */
const reading = () => ({ ran: cpuMs(server.proc.pid, true) ?? 0, waited: cpuWaitMs(server.proc.pid) ?? 0, wall: performance.now() });
function line(name: string, lag: number[], slides: number[], from: ReturnType<typeof reading>): { lagP99: number; slideP99: number } {
  const lagP99 = percentile(lag, 99);
  const slideP99 = percentile(slides, 99);
  const to = reading();
  const share = (ms: number) => `${((100 * ms) / (to.wall - from.wall)).toFixed(0)} %`;
  console.log(`${name.padEnd(6)} presenter lag p99 ${ms(lagP99)}, max ${ms(Math.max(...lag))} (${lag.length} probes); slide change → last of ${crowd.length} sockets p50 ${ms(percentile(slides, 50))}, p99 ${ms(slideP99)}, max ${ms(Math.max(...slides))} (${slides.length} changes); the server's process ran ${share(to.ran - from.ran)} of the window, its event loop waited for a CPU ${share(to.waited - from.waited)}`);
  return { lagP99, slideP99 };
}

try {
  const handoff = await presentPdf(server.url, await makeDeck({ pages: 3 }), "Flood bench.pdf");
  const { code } = await liveWithQuestionsOpen(presenter, handoff.url);
  const groups = await crowdOf(server.port, code, loopbackAddresses(10, ADDRESSES), VIEWERS_PER_ADDRESS, "bench-flood", onState);
  crowd.push(...groups.flat());
  // Question ids, as a viewer learns them: one reading socket of this process.
  const ids: string[] = [];
  const reader = new WebSocket(`${server.url.replace(/^http/, "ws")}/api/live/${code}/ws`);
  reader.onopen = () => reader.send(JSON.stringify({ v: 1, type: "join", role: "viewer", viewerId: "bench-flood-reader-1" }));
  reader.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { type: string; question?: { id: string } };
    if (message.type === "question" && !ids.includes(message.question!.id)) ids.push(message.question!.id);
  };

  // The baseline: the same talk, panel and crowd, no audience traffic.
  await startProbe();
  let from = reading();
  const quiet = await pressWhile(Bun.sleep(QUIET_MS));
  const quietFigures = line("quiet", await takeProbe(), quiet.latencies, from);
  from = reading();

  const flood = await pressWhile(
    (async () => {
      const asked = await askRounds(groups.flatMap((g) => g.slice(0, ASKERS_PER_ADDRESS)), QUESTIONS_PER_ASKER, ASK_WINDOW_MS);
      const deadline = performance.now() + STUCK_MS;
      while (ids.length < asked && performance.now() < deadline) await Bun.sleep(50);
      const votes = await voteRounds(crowd, ids, VOTES_PER_SECOND, VOTE_SECONDS);
      return { asked, votes };
    })(),
  );
  const floodFigures = line("flood", await takeProbe(), flood.latencies, from);
  const refused = crowd.flatMap((s) => s.refused);
  console.log(`flood sent ${flood.result.asked} questions and ${flood.result.votes} up-votes; refused: ${refused.length ? refused.join(", ") : "none"}`);
  console.log(`flood / quiet: presenter lag p99 ${(floodFigures.lagP99 / Math.max(1, quietFigures.lagP99)).toFixed(2)}×, slide change p99 ${(floodFigures.slideP99 / quietFigures.slideP99).toFixed(2)}× (a quiet lag under 1 ms counts as 1 ms)`);
  reader.close();
} finally {
  for (const socket of crowd) socket.close();
  await engine.close().catch(() => {});
  await server.stop();
  server.cleanup();
}
