/**
 * Firefox ESR behind the engine abstraction: puppeteer-core with `browser: "firefox"` over
 * WebDriver BiDi (no geckodriver), accepting the media server's test certificate.
 * No usable offline emulation: `page.setOfflineMode` lets the service worker's own fetches
 * through, so offline tests stop the servers instead (Engine.setOffline is null). In `npm
 * test`'s browser lanes an engine is a fresh browser context (a user context of WebDriver BiDi:
 * its own cookies, storage and service workers) of the process's one Firefox
 * (test/helpers/browser-reuse.ts); otherwise a browser with a profile of its own.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { REUSE_BROWSER, reused } from "./browser-reuse.ts";
import { FIREFOX_MICROPHONE_PREFS } from "./microphone.ts";
import { BINARIES, callSource, type Engine, type EnginePage, type LaunchOptions } from "./engine.ts";
import { pollUntil } from "./poll.ts";

/** puppeteer's key names for the chords the key map writes. */
function keys(chord: string): { mods: string[]; key: string } {
  const parts = chord === "+" ? ["+"] : chord.split("+");
  const key = parts.pop()!;
  return { mods: parts.map((m) => (m === "Ctrl" ? "Control" : m)), key: key === "Space" ? " " : key };
}

/** Firefox with a profile of its own (removed by `close`), these prefs set. */
async function startFirefox(prefs: Record<string, unknown>): Promise<{ browser: Browser; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "deckhand-firefox-"));
  const browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: BINARIES.firefox.path,
    headless: true,
    userDataDir: profile,
    acceptInsecureCerts: true,
    // No test reads Firefox's network events; subscribed, they ran Firefox's network observer
    // (JavaScript in the parent process) for every request of every page.
    networkEnabled: false,
    // Service workers and IndexedDB stay on in automation; pop-ups are the tests' own.
    extraPrefsFirefox: { "dom.disable_open_during_load": false, "media.autoplay.default": 0, "media.autoplay.blocking_policy": 0, ...prefs },
  });
  return {
    browser,
    close: async () => {
      await browser.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function launchFirefoxEngine(options: LaunchOptions): Promise<Engine> {
  // A manual proxy at a closed port for every host but this machine's (Firefox never proxies loopback by default).
  const closed = options.refuseOffMachine?.closedPort;
  const firewall = closed
    ? { "network.proxy.type": 1, "network.proxy.http": "127.0.0.1", "network.proxy.http_port": closed, "network.proxy.ssl": "127.0.0.1", "network.proxy.ssl_port": closed, "network.proxy.no_proxies_on": "localhost, 127.0.0.1" }
    : {};
  // The fake microphone's prefs also route all sound to a null device and answer every capture
  // request without asking — not the browser the other files test against, so a launch with a
  // microphone shares only a Firefox launched with them (a second kept browser).
  const microphone = options.microphone ? FIREFOX_MICROPHONE_PREFS : {};
  // Each page is a window of its own, never a tab behind another: Firefox slows a background
  // tab's timers to one a second and stops its frames, and a viewer's page left behind another
  // page of the shared browser then missed its live messages.
  const window = { type: "window" } as const;
  // Prefs are the whole browser's: a firewall is one file's, so that browser is its own.
  let opened: { newPage(): Promise<Page>; first(): Promise<Page>; close(): Promise<void> };
  if (REUSE_BROWSER && !closed) {
    const shared = await reused(
      options.microphone ? "firefox microphone" : "firefox",
      () => startFirefox(microphone),
      (f) => f.browser.connected,
      (f) => f.close(),
    );
    const context = await shared.browser.createBrowserContext();
    opened = { newPage: () => context.newPage(window), first: () => context.newPage(window), close: () => context.close().catch(() => {}) };
  } else {
    const own = await startFirefox({ ...firewall, ...microphone });
    opened = { newPage: () => own.browser.newPage(window), first: async () => (await own.browser.pages())[0] ?? (await own.browser.newPage(window)), close: own.close };
  }
  const viewport = options.viewport ?? { width: 1440, height: 900 };
  const problems: string[] = [];
  const wrap = async (page: Page): Promise<EnginePage> => {
    // The launch default is ignored on the first tab: set it on each.
    await page.setViewport(viewport);
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`firefox: ${msg.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`firefox: ${String(error)}`));
    return {
      goto: async (url) => void (await page.goto(url)),
      href: () => page.evaluate(() => location.href),
      evaluate: (fn, ...args) => page.evaluate(callSource(fn as never, args)) as never,
      evaluateSource: async (source) => void (await page.evaluate(source)),
      waitFor: (what, fn, args = [] as never, timeoutMs = 15_000) => pollUntil(() => page.evaluate(callSource(fn as never, args)), what, timeoutMs),
      press: async (chord) => {
        const { mods, key } = keys(chord);
        for (const m of mods) await page.keyboard.down(m as never);
        await page.keyboard.press(key as never);
        for (const m of mods.reverse()) await page.keyboard.up(m as never);
      },
      click: (selector) => page.click(selector),
      upload: async (selector, path) => {
        const input = (await page.$(selector)) as unknown as { uploadFile(...paths: string[]): Promise<void> } | null;
        if (!input) throw new Error(`No ${selector} to upload into`);
        await input.uploadFile(path);
      },
      resize: (width, height) => page.setViewport({ width, height }),
      swipe: async (selector, dx) => {
        // Touch actions of WebDriver BiDi (input.performActions, pointerType "touch"), the whole
        // gesture in one command: Firefox times its steps (five moves of 20 ms, a quick finger).
        // puppeteer's touchscreen sends each step as a command of its own; on a machine at half
        // speed those seven round trips took longer than the 800 ms a swipe may last, and the
        // page rightly read a slow drag. puppeteer keeps the frame's BiDi context internal.
        const box = (await (await page.$(selector))!.boundingBox())!;
        const x = Math.round(box.x + box.width / 2);
        const y = Math.round(box.y + box.height / 2);
        const moves = Array.from({ length: 5 }, (_, i) => ({ type: "pointerMove", x: Math.round(x + (dx * (i + 1)) / 5), y, duration: 20 }));
        const frame = page.mainFrame() as unknown as { browsingContext: { performActions(actions: unknown[]): Promise<void> } };
        await frame.browsingContext.performActions([
          {
            type: "pointer",
            id: "deckhand_swipe",
            parameters: { pointerType: "touch" },
            actions: [{ type: "pointerMove", x, y }, { type: "pointerDown", button: 0 }, ...moves, { type: "pointerUp", button: 0 }],
          },
        ]);
      },
      wheel: async (selector, deltaY) => {
        const box = (await (await page.$(selector))!.boundingBox())!;
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.wheel({ deltaY });
      },
      mouse: async (steps) => {
        for (const step of steps) {
          if (step.type === "move") await page.mouse.move(step.x, step.y);
          else if (step.type === "down") await page.mouse.down();
          else await page.mouse.up();
        }
      },
      screenshot: async (path) => void (await page.screenshot({ path: path as `${string}.png` })),
      close: () => page.close(),
    };
  };
  return {
    name: "firefox",
    page: await wrap(await opened.first()),
    newPage: async () => wrap(await opened.newPage()),
    setOffline: null,
    problems,
    close: () => opened.close(),
  };
}
