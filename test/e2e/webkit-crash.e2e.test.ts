/**
 * The harness's one allowance for WebKit: Debian's MiniBrowser (WebKitGTK 2.50's test browser,
 * behind WebKitWebDriver) segfaults now and then, mid-file, whatever the page does. The engine
 * then says so on stderr with what WebKit printed last, and writes the crash down for `npm test`
 * (scripts/test-all.ts), which runs that file once more. Here the crash is made on purpose — a
 * SIGSEGV to MiniBrowser — and what the engine does about it is checked: told once, written
 * down with this file's name; a browser that is merely slow is no crash.
 *
 * The other way a WebKit session has been seen to fail here: a command its web process never
 * answers (a script waited on for three minutes). The engine gives such a command up after a
 * bound (60 s; shortened here by DECKHAND_WEBKIT_HUNG_MS), kills the browser, writes the hang
 * down like a crash, and fails every later command of the file at once — so the file fails
 * within its tests' time and is run again, instead of a wait outliving its test.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Engine } from "../helpers/engine.ts";
import { launchWebkitEngine } from "../helpers/engine-webkit.ts";
import { pollUntil } from "../helpers/poll.ts";

// A browser start and a handful of commands: 10× what they take on the loaded machine.
setDefaultTimeout(120_000);

const pgrep = (...args: string[]) => Bun.spawnSync(["pgrep", ...args]).stdout.toString().trim().split("\n").filter(Boolean);

// WebKit only, whatever DECKHAND_ENGINES says: a suite that names its engine runs once in
// `npm test` (scripts/test-plan.ts), and in every browser lane it would have no test to report.
describe("a MiniBrowser crash in WebKit", () => {
  const dir = mkdtempSync(join(tmpdir(), "deckhand-webkit-crash-"));
  const log = join(dir, "crashes.jsonl");
  let engine: Engine;
  // npm test's lane sets its own log for the files it runs after this one: it is put back after.
  const lanes = process.env.DECKHAND_WEBKIT_CRASH_LOG;

  beforeAll(async () => {
    process.env.DECKHAND_WEBKIT_CRASH_LOG = log;
    engine = await launchWebkitEngine({ viewport: { width: 800, height: 600 } });
  });
  afterAll(async () => {
    if (lanes === undefined) delete process.env.DECKHAND_WEBKIT_CRASH_LOG;
    else process.env.DECKHAND_WEBKIT_CRASH_LOG = lanes;
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a live browser's failing command is not a crash; a killed MiniBrowser is told and written down with this file's name", async () => {
    await engine.page.goto("data:text/html,<title>alive</title><p>alive</p>");
    // A script error in a live browser is an ordinary failure: nothing written down.
    await expect(engine.page.evaluate(() => { throw new Error("page error"); })).rejects.toThrow();
    expect(existsSync(log)).toBe(false);

    // Ours: the MiniBrowser in the process group of the WebKitWebDriver this test process started.
    const [driver] = pgrep("-P", String(process.pid), "-x", "WebKitWebDriver");
    const ours = pgrep("-g", driver!, "-x", "MiniBrowser");
    expect(ours).toHaveLength(1);
    process.kill(Number(ours[0]), "SIGSEGV");
    await Bun.sleep(500);
    await expect(engine.page.evaluate(() => document.title)).rejects.toThrow();
    const lines = readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { file: string; error: string });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.file).toBe(import.meta.path);
    // Told once: later failures of the same dead session add nothing.
    await expect(engine.page.evaluate(() => document.title)).rejects.toThrow();
    expect(readFileSync(log, "utf8").trim().split("\n")).toHaveLength(1);
  });
});

describe("a hung WebKit web process", () => {
  const dir = mkdtempSync(join(tmpdir(), "deckhand-webkit-hang-"));
  const log = join(dir, "crashes.jsonl");
  const HUNG_MS = 3_000;
  let engine: Engine;
  const lanes = process.env.DECKHAND_WEBKIT_CRASH_LOG;

  beforeAll(async () => {
    process.env.DECKHAND_WEBKIT_CRASH_LOG = log;
    process.env.DECKHAND_WEBKIT_HUNG_MS = String(HUNG_MS);
    engine = await launchWebkitEngine({ viewport: { width: 800, height: 600 } });
  });
  afterAll(async () => {
    if (lanes === undefined) delete process.env.DECKHAND_WEBKIT_CRASH_LOG;
    else process.env.DECKHAND_WEBKIT_CRASH_LOG = lanes;
    delete process.env.DECKHAND_WEBKIT_HUNG_MS;
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a script the page never finishes is given up after the bound: the browser is killed, the hang written down, and later commands fail at once", async () => {
    await engine.page.goto("data:text/html,<title>busy</title><p>busy</p>");
    const [driver] = pgrep("-P", String(process.pid), "-x", "WebKitWebDriver");
    expect(pgrep("-g", driver!, "-x", "MiniBrowser")).toHaveLength(1);

    // The page's main thread busy for ten minutes: WebDriver's own 30 s script bound does not end it.
    const started = performance.now();
    const hung = await engine.page.evaluate(() => {
      const end = Date.now() + 600_000;
      while (Date.now() < end);
      return "finished";
    }).catch((error: Error) => error);
    const waited = performance.now() - started;
    expect(String(hung)).toContain(`got no answer within ${HUNG_MS / 1000} s; the browser was killed`);
    expect(waited).toBeGreaterThanOrEqual(HUNG_MS);
    expect(waited).toBeLessThan(HUNG_MS + 20_000);
    // Written down like a crash, with this file's name, so npm test runs the file again.
    const lines = readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { file: string; error: string });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.file).toBe(import.meta.path);
    expect(lines[0]!.error).toContain("WebKit hung");
    // Nothing of the browser is left running (killed processes may take a moment to go; a
    // zombie waiting for its parent to read its status runs nothing), and the next command fails
    // at once, saying why.
    const running = () => Bun.spawnSync(["ps", "-o", "pid=,stat=,comm=", "-g", driver!]).stdout.toString().trim().split("\n").filter((l) => l && !/^\s*\d+\s+Z/.test(l));
    await pollUntil(
      async () => {
        const left = running();
        return left.length === 0 || left.join("; ");
      },
      "the hung browser's processes to end",
      5_000,
    );
    const next = performance.now();
    await expect(engine.page.evaluate(() => document.title)).rejects.toThrow("WebKit hung");
    expect(performance.now() - next).toBeLessThan(1_000);
    expect(readFileSync(log, "utf8").trim().split("\n")).toHaveLength(1);
  });
});
