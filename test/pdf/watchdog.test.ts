/**
 * pdf/watchdog: a job that ends just as its deadline passes is won by one thread only. Either the
 * watchdog ends the process with the job's last words, or the main thread disarms it first and
 * goes on; never the last words and more output after them (which broke `deckhand check --json`
 * on a loaded machine: a small file read past a 0.5 s deadline got two entries and no valid
 * array). Each child overruns its deadline by 0–39 ms, around the thread's 20 ms look.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";

// The timeout of each test here: forty-one short processes, ~100 ms each on a quiet machine.
setDefaultTimeout(60_000);

const JOB = join(import.meta.dir, "..", "helpers", "watchdog-job.ts");
const TIMEOUT_MS = 30;

async function runJob(overrunMs: number): Promise<{ code: number; out: string }> {
  const proc = Bun.spawn([process.execPath, JOB, String(TIMEOUT_MS), String(overrunMs)], { stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return { code, out };
}

describe("the watchdog and the main thread at the deadline", () => {
  test("a job past its deadline ends with its last words or finishes, never both", async () => {
    const outcomes: { overrunMs: number; code: number; out: string }[] = [];
    for (let overrunMs = 0; overrunMs < 40; overrunMs++) outcomes.push({ overrunMs, ...(await runJob(overrunMs)) });
    const mixed = outcomes.filter((o) => !((o.code === 2 && o.out === "late\n") || (o.code === 0 && o.out === "finished\n")));
    expect(mixed).toEqual([]);
    // Far past the deadline the watchdog always wins: the thread looks every 20 ms (a second
    // leaves room for a loaded machine's scheduling).
    expect(await runJob(1_000)).toEqual({ code: 2, out: "late\n" });
  });
});
