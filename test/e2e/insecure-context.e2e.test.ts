/**
 * A handoff link opened over plain http on a host name other than localhost: the browser
 * treats the page as an insecure context, so there is no service worker and no
 * `crypto.subtle`. 127.0.0.1 counts as secure, so Chromium is told to resolve the made-up
 * name `deckhand.test` to 127.0.0.1 (the server still listens only there) and the link is
 * opened as http://deckhand.test:PORT/start/…. The claim must still complete (digests by
 * @noble/hashes), and the page must say plainly that offline mode is unavailable, and why.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { launchBrowser, storedDecks, withChromiumPage, type BrowserSession } from "../helpers/browser.ts";
import { presentPdf, stopSuite } from "../helpers/e2e-suite.ts";
import { freePort, startBinary, type BinaryServer } from "../helpers/server.ts";
import { makePresentationDeck, OUTPUT, recordClip } from "./fixtures.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

const it = (name: string, fn: () => Promise<void>) => test(name, fn, 60_000);
const SHOTS = join(OUTPUT, "e2e");
const HOST = "deckhand.test";

let server: BinaryServer;
let deck: Uint8Array;
let insecureOrigin: string;
const sessions: BrowserSession[] = [];

async function browser(args: string[] = []) {
  const s = await launchBrowser({ viewport: { width: 1280, height: 800 }, args });
  sessions.push(s);
  return s;
}

function stagedFiles(): string[] {
  try {
    return readdirSync(join(server.dataDir, "staged")).filter((f) => !f.startsWith("."));
  } catch {
    return [];
  }
}

/** What the page knows about its own context, read as any page script could. */
function contextFacts(page: Page) {
  return page.evaluate(() => ({
    origin: location.origin,
    isSecureContext: window.isSecureContext,
    subtle: typeof globalThis.crypto?.subtle,
    serviceWorker: "serviceWorker" in navigator,
  }));
}


/** The notice text exactly as a person sees it (hidden elements contribute nothing). */
async function visibleNotice(page: Page): Promise<string> {
  const notice = page.locator("#notices .notice-warn").first();
  await notice.waitFor({ state: "visible", timeout: 10_000 });
  return (await notice.innerText()).replace(/\s+/g, " ");
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // The server is bound to loopback: it answers for the LAN name only when told (DNS rebinding guard).
  const port = await freePort();
  server = await startBinary({ port, args: ["--allow-origin", `http://${HOST}:${port}`] });
  insecureOrigin = `http://${HOST}:${server.port}`;
  deck = await makePresentationDeck(await withChromiumPage(`${server.url}/check`, recordClip), { pages: 3 });
}, 60_000);

afterAll(() => stopSuite(server, sessions));

describe("a handoff link opened over plain http on another host name", () => {
  it("claims the deck without crypto.subtle or a service worker, and says offline mode is unavailable", async () => {
    const handoff = await presentPdf(server.url, deck, "Over plain http.pdf");
    expect(stagedFiles().length).toBe(1);

    // The link as another machine on the LAN would open it.
    const link = new URL(handoff.url);
    expect(link.pathname).toBe(`/start/${handoff.id}`);
    const insecureLink = `${insecureOrigin}${link.pathname}${link.hash}`;

    const s = await browser([`--host-resolver-rules=MAP ${HOST} 127.0.0.1`]);
    const page = s.page;
    // Note every page the claim passes through, with what that page knew about its context.
    const seen: string[] = [];
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) seen.push(new URL(frame.url()).pathname);
    });
    // Hold the final "complete" call so the start page can be read before it moves on.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/handoff/complete", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(insecureLink);
    const onStart = await contextFacts(page);
    expect(onStart).toEqual({ origin: insecureOrigin, isSecureContext: false, subtle: "undefined", serviceWorker: false });
    const startNotice = await visibleNotice(page);
    expect(startNotice).toContain("Offline mode is not available");
    expect(startNotice).toContain(`plain http on ${HOST}:${server.port}`);
    // By now the bytes were downloaded, hashed and stored: only the confirmation waits.
    await page.waitForFunction(() => document.querySelector("#status")?.textContent?.includes("Confirming"), null, { timeout: 30_000 });
    await page.screenshot({ path: join(SHOTS, "insecure-context-start.png") });
    release();

    await page.waitForURL(/\/present\/[0-9a-f]{16}$/, { timeout: 30_000 });
    await page.waitForSelector("body[data-ready='true']", { timeout: 30_000 });
    expect(seen[0]).toBe(`/start/${handoff.id}`);
    expect(await contextFacts(page)).toEqual({ origin: insecureOrigin, isSecureContext: false, subtle: "undefined", serviceWorker: false });

    // The claim completed: digests by @noble/hashes match the server's.
    const decks = await storedDecks(page);
    expect(decks.length).toBe(1);
    expect(decks[0]).toMatchObject({ sha256: handoff.sha256, handoffId: handoff.id, totalSlides: 3, storedBytes: deck.byteLength });
    expect(decks[0]!.handoffCompletedAt).toBeGreaterThan(0);
    expect(stagedFiles()).toEqual([]);
    const again = await fetch(`${server.url}/api/sessions/${handoff.id}/handoff?t=${link.hash.slice(3)}`);
    expect(again.status).toBe(410);

    // The presenter shows slide 1 of 3, painted.
    expect(await page.getAttribute("body", "data-slide")).toBe("1");
    expect((await page.innerText("#counter")).replace(/\s+/g, "")).toBe("1/3");
    const painted = await page.evaluate(() => {
      const canvas = document.querySelector<HTMLCanvasElement>("#current")!;
      const ctx = canvas.getContext("2d")!;
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let dark = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i]! < 100 && data[i + 1]! < 100 && data[i + 2]! < 100) dark++;
      return { width: canvas.width, dark };
    });
    expect(painted.width).toBeGreaterThan(300);
    // The slide's title text is drawn in near-black on a light page.
    expect(painted.dark).toBeGreaterThan(200);

    // Plain words, visible on screen: offline mode is off, because of plain http on this host.
    const notice = await visibleNotice(page);
    expect(notice).toContain("Offline mode is not available");
    expect(notice).toContain(`plain http on ${HOST}:${server.port}`);
    expect(notice).toContain("only over https or on localhost");
    expect(notice).toContain("reloading without a network will not work");
    expect(await page.innerText("#offline-state")).toBe("Online only");
    await page.screenshot({ path: join(SHOTS, "insecure-context-presenter.png") });

    // The library over the same insecure origin lists the deck and says the same.
    await page.goto(`${insecureOrigin}/`);
    await page.waitForSelector("body[data-ready='true']");
    expect(await page.locator(".deck-card").count()).toBe(1);
    expect(await visibleNotice(page)).toContain("Offline mode is not available");
    // A claimed deck has no thumbnail yet: the library renders it here, too.
    await page.waitForSelector("body[data-thumbnails='done']", { timeout: 20_000 });
    expect(await page.locator(".deck-card .deck-thumb-img").count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, "insecure-context-library.png") });

    // Chromium logs that it ignores the server's Cross-Origin-Opener-Policy header on an
    // untrustworthy origin: expected here, and harmless (the header only isolates windows).
    // Anything else (a script error, a CSP violation) fails the test.
    const coopIgnored = /Cross-Origin-Opener-Policy header has been ignored, because the URL's origin was untrustworthy/;
    expect(s.problems.filter((p) => !coopIgnored.test(p))).toEqual([]);
  });
});
