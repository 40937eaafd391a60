/**
 * The harness's one allowance for WebKit: Debian's MiniBrowser (WebKitGTK 2.50's test browser,
 * behind WebKitWebDriver) segfaults now and then, mid-file, whatever the page does. The engine
 * then says so on stderr with what WebKit printed last, and writes the crash down for `npm test`
 * (scripts/test-all.ts), which runs that file once more. Here the crash is made on purpose — a
 * SIGSEGV to MiniBrowser — and what the engine does about it is checked: told once, written
 * down with this file's name; a browser that is merely slow is no crash.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Engine } from "../helpers/engine.ts";
import { launchWebkitEngine } from "../helpers/engine-webkit.ts";

// A browser start and a handful of commands: 10× what they take on the loaded machine.
setDefaultTimeout(120_000);

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
    const pgrep = (...args: string[]) => Bun.spawnSync(["pgrep", ...args]).stdout.toString().trim().split("\n").filter(Boolean);
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
