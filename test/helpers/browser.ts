/**
 * Launch Debian's Chromium through playwright-core for the end-to-end tests. A missing
 * browser is a failure, never a skip: a suite that silently skips proves nothing.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM = process.env.DECKHAND_CHROMIUM ?? "/usr/bin/chromium";

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
];

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  userDataDir: string;
  /** Console errors and CSP violations seen on any page of this session. */
  problems: string[];
  close(): Promise<void>;
}

export function assertChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (or set DECKHAND_CHROMIUM). Browser tests fail rather than skip without it.`);
  }
}

/** A fresh browser profile (its own IndexedDB, caches and service workers). */
export async function launchBrowser(options: { viewport?: { width: number; height: number }; args?: string[]; hasTouch?: boolean; ignoreHTTPSErrors?: boolean } = {}): Promise<BrowserSession> {
  assertChromium();
  const userDataDir = mkdtempSync(join(tmpdir(), "deckhand-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
    viewport: options.viewport ?? { width: 1440, height: 900 },
    deviceScaleFactor: 1,
    acceptDownloads: false,
    hasTouch: options.hasTouch ?? false,
    // The URL-media tests serve media over https with a certificate made at test time.
    ignoreHTTPSErrors: options.ignoreHTTPSErrors ?? false,
  });
  const problems: string[] = [];
  const watch = (page: Page) => {
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`${page.url()}: ${msg.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`${page.url()}: ${error.message}`));
  };
  context.on("page", watch);
  const page = context.pages()[0] ?? (await context.newPage());
  watch(page);
  return {
    context,
    page,
    userDataDir,
    problems,
    close: async () => {
      await context.close().catch(() => {});
      rmSync(userDataDir, { recursive: true, force: true });
    },
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
