/**
 * Launch Debian's Chromium through playwright-core for the end-to-end tests. A missing
 * browser is a failure, never a skip: a suite that silently skips proves nothing. In `npm
 * test`'s browser lanes a session is a fresh context of the process's one Chromium
 * (test/helpers/browser-reuse.ts); otherwise a browser with a profile of its own.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { REUSE_BROWSER, reused } from "./browser-reuse.ts";

export const CHROMIUM = process.env.DECKHAND_CHROMIUM ?? "/usr/bin/chromium";

/**
 * The features playwright-core turns off (its chromiumSwitches: network noise at start-up, paint
 * holding, storage partitioning, …). Chromium reads only the last `--disable-features`, so ours
 * below repeats them; test/deps/chromium-features.test.ts fails when an upgrade of
 * playwright-core adds one that is not here.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

/**
 * The address bar's suggestion pop-up drawn as a web page. Chromium 156 loads it
 * (chrome://omnibox-popup.top-chrome/, in a renderer of its own) for every new window, headless
 * too, though no test ever types into an address bar: 0.85 CPU-seconds a window, measured — 1.06
 * with it, 0.21 without. The browser lanes open a window for every browser context and every
 * second page (./browser.ts newWindow), some sixty in Chromium's lane.
 */
const OMNIBOX_WEBUI = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup"];

/** Flags for a quiet, reproducible headless Chromium in a container (no GPU, no sandbox). */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_WEBUI].join(",")}`,
];

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** The profile directory of a browser of its own; null for a context of the reused browser. */
  userDataDir: string | null;
  /** Console errors and CSP violations seen on any page of this session. */
  problems: string[];
  close(): Promise<void>;
}

export function assertChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (or set DECKHAND_CHROMIUM). Browser tests fail rather than skip without it.`);
  }
}

/**
 * Launch flags that are the same for every file of a run, so a browser launched with them can
 * serve them all. Any other flag (a proxy at one file's closed port, a host mapped to a test
 * server) belongs to one file: such a session is a browser of its own.
 */
const SHAREABLE_ARGS = new Set(["--ignore-certificate-errors"]);

/** A fresh browser profile (its own IndexedDB, caches and service workers). */
export async function launchBrowser(options: { viewport?: { width: number; height: number }; args?: string[]; hasTouch?: boolean; ignoreHTTPSErrors?: boolean } = {}): Promise<BrowserSession> {
  assertChromium();
  const args = [...CHROMIUM_ARGS, ...(options.args ?? [])];
  const contextOptions: BrowserContextOptions = {
    viewport: options.viewport ?? { width: 1440, height: 900 },
    deviceScaleFactor: 1,
    acceptDownloads: false,
    hasTouch: options.hasTouch ?? false,
    // The URL-media tests serve media over https with a certificate made at test time.
    ignoreHTTPSErrors: options.ignoreHTTPSErrors ?? false,
  };
  if (REUSE_BROWSER && (options.args ?? []).every((a) => SHAREABLE_ARGS.has(a))) {
    const browser = await reused<Browser>(
      `chromium ${args.join(" ")}`,
      () => chromium.launch({ executablePath: CHROMIUM, headless: true, args }),
      (b) => b.isConnected(),
      (b) => b.close(),
    );
    // A context is a fresh profile of its own, in memory: nothing of another file's is in it.
    const context = await browser.newContext(contextOptions);
    return watched(context, await context.newPage(), null, () => context.close());
  }
  const userDataDir = mkdtempSync(join(tmpdir(), "deckhand-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args, ...contextOptions });
  const page = context.pages()[0] ?? (await context.newPage());
  return watched(context, page, userDataDir, async () => {
    await context.close().catch(() => {});
    rmSync(userDataDir, { recursive: true, force: true });
  });
}

/**
 * A new page of `context` in a window of its own, as the presenter's audience window, a
 * viewer's phone or a second browser is. `context.newPage()` opens a tab behind the front one
 * of the context's window, and headless Chromium draws a tab behind another about once a
 * second: every requestAnimationFrame, screenshot and mouse event of the page behind then
 * waits up to a second for its frame (measured: a presenter's screenshot 2.1 s with its
 * audience as a tab beside it, 0.14 s with the audience in a window of its own).
 */
export async function newWindow(context: BrowserContext): Promise<Page> {
  const opener = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(opener);
  try {
    const { targetInfo } = await cdp.send("Target.getTargetInfo");
    const created = cdp.send("Target.createTarget", { url: "about:blank", newWindow: true, browserContextId: targetInfo.browserContextId });
    // The page event of this target (another page may open meanwhile: a popup of the product's).
    const [page] = await Promise.all([
      context.waitForEvent("page", {
        predicate: async (p) => {
          const { targetId } = await created;
          const probe = await context.newCDPSession(p);
          try {
            return (await probe.send("Target.getTargetInfo")).targetInfo.targetId === targetId;
          } finally {
            await probe.detach();
          }
        },
      }),
      created,
    ]);
    return page;
  } finally {
    await cdp.detach();
  }
}

/** A session whose console errors and page errors, on any of its pages, are collected. */
function watched(context: BrowserContext, page: Page, userDataDir: string | null, close: () => Promise<void>): BrowserSession {
  const problems: string[] = [];
  const watch = (p: Page) => {
    p.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`${p.url()}: ${msg.text()}`);
    });
    p.on("pageerror", (error) => problems.push(`${p.url()}: ${error.message}`));
  };
  context.on("page", watch);
  watch(page);
  return {
    context,
    page,
    userDataDir,
    problems,
    close: () => close().catch(() => {}),
  };
}

/**
 * Open `url` in a Chromium of its own, run `use` on that page, and close the browser: how the
 * suites have Chromium record their clip (MediaRecorder), so no binary fixture is committed.
 */
export async function withChromiumPage<T>(url: string, use: (page: Page) => Promise<T>): Promise<T> {
  const session = await launchBrowser();
  try {
    await session.page.goto(url);
    return await use(session.page);
  } finally {
    await session.close();
  }
}

/** What this browser's IndexedDB holds, read the way any page script could. */
export function storedDecks(page: Page) {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open("deckhand");
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const all = <T,>(store: string) =>
      new Promise<T[]>((resolve, reject) => {
        const req = db.transaction(store).objectStore(store).getAll();
        req.onsuccess = () => resolve(req.result as T[]);
        req.onerror = () => reject(req.error);
      });
    const decks = await all<{ id: string; title: string; sha256: string; handoffId?: string; handoffCompletedAt?: number; totalSlides: number }>("decks");
    const bytes = await all<{ id: string; data: ArrayBuffer }>("deckBytes");
    db.close();
    return decks.map((d) => ({ ...d, storedBytes: bytes.find((b) => b.id === d.id)?.data.byteLength ?? 0 }));
  });
}
