/**
 * The test Chromium's `--disable-features` (test/helpers/browser.ts). Chromium reads only the
 * last such flag, so ours must repeat playwright-core's own list, which a playwright-core
 * upgrade may grow: the first test reads that list from the installed package. The second
 * launches Chromium as the suites do and opens windows: no renderer may be drawing the
 * address bar's pop-up (`--top-chrome-webui`), the 0.85 CPU-seconds a window that the flag
 * saves, and playwright-core's features are still off in the pages' renderers.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CHROMIUM_ARGS, PLAYWRIGHT_DISABLED_FEATURES, launchBrowser, newWindow, type BrowserSession } from "../helpers/browser.ts";

// The timeout of each test and hook here: 60 s, as for the browser it launches and closes in the
// services stage, yielding beside the browser lanes (3 s for the launch there, the close in the hook).
setDefaultTimeout(60_000);

/** The string literals of playwright-core's `disabledFeatures = [ … ]`. */
function playwrightDisabledFeatures(): string[] {
  const lib = join(dirname(require.resolve("playwright-core/package.json")), "lib");
  const bundle = readFileSync(join(lib, "coreBundle.js"), "utf8");
  const list = /disabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(bundle)?.[1];
  if (!list) throw new Error("playwright-core's coreBundle.js no longer declares `disabledFeatures = [...]`: read its chromiumSwitches and update PLAYWRIGHT_DISABLED_FEATURES");
  return [...list.replace(/\/\/.*$/gm, "").matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
}

/** The command lines of the processes of the browser whose profile is `userDataDir` (Chromium joins its argv into one string). */
function processesOf(userDataDir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const line = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      if (line.includes(`--user-data-dir=${userDataDir}`)) found.push(line);
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

test("our --disable-features keeps every feature playwright-core turns off", () => {
  const theirs = playwrightDisabledFeatures();
  expect(theirs.length).toBeGreaterThan(5);
  expect(theirs.filter((f) => !PLAYWRIGHT_DISABLED_FEATURES.includes(f))).toEqual([]);
  // One --disable-features of ours, so it is the one Chromium reads.
  expect(CHROMIUM_ARGS.filter((a) => a.startsWith("--disable-features=")).length).toBe(1);
});

let session: BrowserSession | undefined;
afterAll(async () => {
  await session?.close();
});

test("a window of the test Chromium draws no address-bar pop-up, and playwright-core's features stay off", async () => {
  session = await launchBrowser();
  expect(session.userDataDir).not.toBeNull();
  await newWindow(session.context);
  const second = await newWindow(session.context);
  await second.goto("about:blank");
  const lines = processesOf(session.userDataDir!);
  const renderers = lines.filter((l) => l.includes("--type=renderer"));
  expect(renderers.length).toBeGreaterThan(0);
  expect(renderers.filter((l) => l.includes("--top-chrome-webui"))).toEqual([]);
  for (const renderer of renderers) {
    const features = /--disable-features=(\S+)/.exec(renderer)?.[1]?.split(",") ?? [];
    expect(features).toContain("WebUIOmniboxPopup");
    expect(features).toContain("PaintHolding");
  }
});
