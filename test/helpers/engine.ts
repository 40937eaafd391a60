/**
 * One small driver abstraction over the three browser engines the e2e suite runs: Chromium
 * (playwright-core), Firefox ESR (puppeteer-core over WebDriver BiDi) and WebKit
 * (WebKitWebDriver + MiniBrowser under Xvfb, through selenium-webdriver). A scenario is
 * written once against `Engine`/`EnginePage` and run per engine.
 *
 * Scripts run in the page as source text (`(fn)(...args)`), the one form all three drivers
 * accept; such evaluation is the driver's own and is not bound by the pages' CSP, which is
 * how axe-core gets in. Waiting is done by polling a predicate, the same way everywhere.
 *
 * A missing browser is a failure with the command that installs it, never a skip.
 */
import { existsSync } from "node:fs";

export type EngineName = "chromium" | "firefox" | "webkit";

const ALL: readonly EngineName[] = ["chromium", "firefox", "webkit"];

/**
 * Every engine, always, in `npm test` and CI. DECKHAND_ENGINES=chromium,firefox narrows a run
 * while developing; naming an unknown engine is an error, not an empty run.
 */
export const ENGINES: readonly EngineName[] = (() => {
  const wanted = process.env.DECKHAND_ENGINES?.split(",").map((e) => e.trim()).filter(Boolean);
  if (!wanted?.length) return ALL;
  for (const e of wanted) if (!ALL.includes(e as EngineName)) throw new Error(`DECKHAND_ENGINES names an unknown engine: ${e} (known: ${ALL.join(", ")})`);
  return wanted as EngineName[];
})();

export interface EnginePage {
  goto(url: string): Promise<void>;
  /** location.href read in the page (drivers' own URL can lag a client-side redirect). */
  href(): Promise<string>;
  /** Run `fn` in the page with JSON arguments; resolves with its (awaited, JSON) result. */
  evaluate<T, A extends unknown[] = []>(fn: (...args: A) => T | Promise<T>, ...args: A): Promise<T>;
  /** Run script source in the page (e.g. a library's bundle). */
  evaluateSource(source: string): Promise<void>;
  /**
   * Poll `fn` in the page until it returns true. Anything else is "not yet"; a string says what
   * the page shows instead, and the timeout's message carries the last one.
   */
  waitFor<A extends unknown[] = []>(what: string, fn: (...args: A) => boolean | string, args?: A, timeoutMs?: number): Promise<void>;
  /** A key or chord as the key map writes it: "ArrowRight", "Shift+PageDown", "b", "?", "Enter". */
  press(chord: string): Promise<void>;
  click(selector: string): Promise<void>;
  /** Choose a local file in an <input type="file">. */
  upload(selector: string, path: string): Promise<void>;
  /** Resize the viewport (the window, for WebKit). */
  resize(width: number, height: number): Promise<void>;
  /** A one-finger horizontal swipe across the element's centre (negative = to the left). */
  swipe(selector: string, dx: number): Promise<void>;
  /** Turn the mouse wheel over the element's centre by `deltaY` pixels. */
  wheel(selector: string, deltaY: number): Promise<void>;
  /**
   * Real mouse input, in order: moves to viewport CSS pixels, presses and releases the left
   * button (a drag is down, moves, up). Each engine's own input pipeline, so pointer events,
   * coalesced samples and pointer capture are the browser's.
   */
  mouse(steps: readonly MouseStep[]): Promise<void>;
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}

export type MouseStep = { type: "move"; x: number; y: number } | { type: "down" } | { type: "up" };

export interface Engine {
  name: EngineName;
  page: EnginePage;
  /** A new tab/window in the same profile (same IndexedDB and BroadcastChannel). */
  newPage(): Promise<EnginePage>;
  /**
   * Take the network away by emulation, where the engine can and the emulation also stops
   * the service worker's own requests (Chromium). Null where it cannot: Firefox's offline
   * mode lets service-worker fetches through and WebKitWebDriver has no network emulation,
   * so their tests stop the servers instead.
   */
  setOffline: ((offline: boolean) => Promise<void>) | null;
  /** Console errors and page errors seen, where the driver reports them. */
  problems: string[];
  close(): Promise<void>;
}

export interface LaunchOptions {
  viewport?: { width: number; height: number };
  /**
   * A venue firewall: every host off this machine (YouTube, Vimeo, any CDN) is refused, through
   * a proxy at this closed 127.0.0.1 port; 127.0.0.1 itself stays reachable. Each engine's own
   * proxy setting, so the page sees exactly what a blocked network gives it.
   */
  refuseOffMachine?: { closedPort: number };
  /**
   * A microphone the page may use without a prompt (the recording suites): Chromium plays
   * `wav` in a loop as its fake capture device; Firefox gives its fake stream (a tone) and
   * WebKit its mock capture device (a tone), which take no file — see ./microphone.ts.
   */
  microphone?: { wav: string };
}

export const BINARIES: Record<EngineName, { path: string; install: string }> = {
  chromium: { path: process.env.DECKHAND_CHROMIUM ?? "/usr/bin/chromium", install: "apt-get install -y chromium" },
  firefox: { path: process.env.DECKHAND_FIREFOX ?? "/usr/bin/firefox-esr", install: "apt-get install -y firefox-esr" },
  webkit: { path: process.env.DECKHAND_WEBKITDRIVER ?? "/usr/bin/WebKitWebDriver", install: "apt-get install -y webkit2gtk-driver xvfb" },
};

export function assertInstalled(name: EngineName): void {
  const { path, install } = BINARIES[name];
  if (!existsSync(path)) throw new Error(`${name} is missing at ${path}: install it with \`${install}\`. Browser tests fail rather than skip without it.`);
}

/** `(fn)(...args)` as source, the form every driver evaluates. */
export function callSource(fn: (...args: never[]) => unknown, args: unknown[]): string {
  return `(${fn.toString()})(...${JSON.stringify(args)})`;
}

export async function launchEngine(name: EngineName, options: LaunchOptions = {}): Promise<Engine> {
  assertInstalled(name);
  if (name === "chromium") return (await import("./engine-chromium.ts")).launchChromiumEngine(options);
  if (name === "firefox") return (await import("./engine-firefox.ts")).launchFirefoxEngine(options);
  return (await import("./engine-webkit.ts")).launchWebkitEngine(options);
}
