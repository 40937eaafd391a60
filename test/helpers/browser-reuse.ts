/**
 * @module test/helpers/browser-reuse
 * One browser per engine for a whole test process, when the run asks for it: `npm test`'s
 * browser lanes (scripts/test-all.ts) run every e2e file of one engine in one `bun test`
 * process with DECKHAND_REUSE_BROWSER=1, and each launch then gets a fresh context of that
 * process's one browser instead of a browser of its own — its own cookies, storage, caches and
 * service workers, closed with the file's engine; the browser is closed after the last file
 * (test/helpers/teardown.ts). A Firefox start costs about 5 s of CPU, a Chromium start about
 * 1 s, each of the ~25 launches per engine in a run. Without the variable (a file run alone,
 * a developer's loop) every launch is a browser of its own, as before.
 *
 * This module imports no driver: the preload that closes the browsers loads it in every test
 * process, unit tests included.
 */

/** Whether this process keeps one browser per engine across its files. */
export const REUSE_BROWSER = process.env.DECKHAND_REUSE_BROWSER === "1";

interface Kept<T> {
  value: Promise<T>;
  close(): Promise<void>;
}

const kept = new Map<string, Kept<unknown>>();

/**
 * The process's browser under `key` (an engine and its launch flags), launched by `launch` on
 * first use, and again when `alive` says the last one died (a crashed or disconnected browser
 * is replaced for the next file, never handed on). `close` ends it at the end of the run.
 */
export async function reused<T>(key: string, launch: () => Promise<T>, alive: (browser: T) => boolean, close: (browser: T) => Promise<void>): Promise<T> {
  const known = kept.get(key) as Kept<T> | undefined;
  if (known) {
    const browser = await known.value.catch(() => null);
    if (browser !== null && alive(browser)) return browser;
    kept.delete(key);
    if (browser !== null) await close(browser).catch(() => {});
  }
  const value = launch();
  kept.set(key, { value, close: async () => close(await value) });
  // A launch that failed is not kept: the next caller tries again.
  value.catch(() => {
    if (kept.get(key)?.value === value) kept.delete(key);
  });
  return value;
}

/** Close every browser this process kept (after its last test). */
export async function closeReusedBrowsers(): Promise<void> {
  const all = [...kept.values()];
  kept.clear();
  await Promise.all(all.map((k) => k.close().catch(() => {})));
}
