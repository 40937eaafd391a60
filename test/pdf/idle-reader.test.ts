/**
 * An idle PDF worker sleeps. Its memory watchdog (a thread that samples the resident set every
 * 20 ms) runs only while a job does: between jobs nothing grows, and a timer ticking fifty times
 * a second kept every idle worker of every server waking for nothing (1% of a core each). The
 * wake-ups are counted by the kernel: the context switches of all the worker's threads
 * (/proc/<pid>/task/<tid>/status), while it waits for work, before and after a job. That the
 * watchdog still kills a job past its bound is pool.test.ts's.
 */
// npm test: foreground — its bound counts the worker's wake-ups, to which a loaded machine's preemptions would add, so it runs in the foreground, the browser lanes yielding the CPU to it.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import type { WorkerMessage } from "../../src/pdf/worker/protocol.ts";
import { spawnReader, type Slot } from "../../src/pdf/worker/readers.ts";
import { makeDeck } from "../fixtures/pdfs.ts";
import { writeBytes } from "../fixtures/sidecar-builder.ts";
import { waitFor } from "../helpers/wait.ts";

/** The memory bound of a server's workers by default is in the hundreds of MiB; any bound arms the watchdog. */
const MEMORY_BYTES = 1024 * 1024 * 1024;
/** How long the worker is watched while it waits. */
const WATCH_MS = 2_000;
/**
 * Wake-ups allowed in that time. A waiting worker's threads still wake 45–65 times in 2 s: the
 * runtime's own housekeeping of its two JavaScript VMs (the main one and the watchdog's). With
 * the watchdog's timer ticking they woke ~180 times (measured here: 177), and the worker used
 * 1% of a core instead of 0.2%.
 */
const SLEEPING_WAKEUPS = 110;

// The timeout of each test here: 60 s (the worker loads mupdf, then is watched twice for 2.5 s).
setDefaultTimeout(60_000);

const messages: WorkerMessage[] = [];
let slot: Slot | undefined;

afterAll(() => {
  slot?.proc.kill("SIGKILL");
});

/** Context switches, voluntary and not, of every thread of process `pid` so far. */
function wakeups(pid: number): number {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let status: string;
    try {
      status = readFileSync(`/proc/${pid}/task/${tid}/status`, "utf8");
    } catch {
      continue; // a thread that ended meanwhile
    }
    for (const m of status.matchAll(/^(?:non)?voluntary_ctxt_switches:\s+(\d+)$/gm)) total += Number(m[1]);
  }
  return total;
}

/** The wake-ups of the worker's threads while it is left alone for WATCH_MS. */
async function wakeupsWhileIdle(pid: number): Promise<number> {
  // Let what the last message started settle first (the answer sent, a collection after it).
  await Bun.sleep(500);
  const before = wakeups(pid);
  await Bun.sleep(WATCH_MS);
  return wakeups(pid) - before;
}

describe("an idle PDF worker", () => {
  test("sleeps while it waits for work, before its first job and after one; the job is answered", async () => {
    slot = spawnReader(
      MEMORY_BYTES,
      (_slot, message) => messages.push(message),
      () => {},
    );
    const pid = slot.proc.pid;
    await waitFor(() => messages.some((m) => m.type === "ready"), "the worker to load mupdf", 30_000);
    expect(await wakeupsWhileIdle(pid)).toBeLessThan(SLEEPING_WAKEUPS);

    // A job arms the watchdog and ends it again.
    const path = writeBytes(await makeDeck({ pages: 2 })).path;
    slot.proc.send({ id: 1, kind: "inspect", path });
    await waitFor(() => messages.some((m) => m.type === "done" || m.type === "failed"), "the job's answer", 30_000);
    const answer = messages.find((m) => m.type === "done" || m.type === "failed")!;
    expect(answer).toMatchObject({ type: "done", id: 1, result: { pageCount: 2 } });
    expect(await wakeupsWhileIdle(pid)).toBeLessThan(SLEEPING_WAKEUPS);
  });
});
