/**
 * The browser client end to end: the compiled binary (dist/deckhand) and Debian's Chromium.
 * Present via the API → open the link → the deck is in IndexedDB and gone from the server →
 * a second browser sees "already claimed" → the presenter shows slide 1 of N, notes, a
 * playing video → the audience window follows → offline, a reload still presents. Then the
 * failure paths: expired link, wrong token, network cut mid-download (resumed with Range).
 * Screenshots go to test-output/ (git-ignored).
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { HandoffRecord } from "../../src/shared/handoff-record.ts";
import { launchBrowser, newWindow, storedDecks, withChromiumPage, type BrowserSession } from "../helpers/browser.ts";
import { presentPdf, stopSuite } from "../helpers/e2e-suite.ts";
import { startBinary, type BinaryServer } from "../helpers/server.ts";
import { makePresentationDeck, NOTES, OUTPUT, recordClip } from "./fixtures.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

/** Browser scenarios wait on real rendering and networking: give each its own minute. */
const it = (name: string, fn: () => Promise<void>) => test(name, fn, 60_000);

let server: BinaryServer;
let deck: Uint8Array;
const sessions: BrowserSession[] = [];
const SHOTS = join(OUTPUT, "e2e");

async function browser(viewport?: { width: number; height: number }) {
  const session = await launchBrowser(viewport ? { viewport } : {});
  sessions.push(session);
  return session;
}

function present(name = "Presenting offline.pdf"): Promise<HandoffRecord> {
  return presentPdf(server.url, deck, name);
}

function stagedFiles(): string[] {
  try {
    return readdirSync(join(server.dataDir, "staged")).filter((f) => !f.startsWith("."));
  } catch {
    return [];
  }
}


async function shot(page: Page, name: string) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startBinary();
  deck = await makePresentationDeck(await withChromiumPage(`${server.url}/check`, recordClip));
}, 60_000);

afterAll(() => stopSuite(server, sessions));

describe("claim a handoff and present offline", () => {
  let a: BrowserSession;
  let handoff: HandoffRecord;
  let presenter: Page;

  it("opening the link stores the deck in IndexedDB, claims it, and opens the presenter", async () => {
    handoff = await present();
    expect(handoff.url).toContain(`/start/${handoff.id}#t=`);
    expect(stagedFiles().length).toBe(1);

    a = await browser();
    presenter = a.page;
    await presenter.goto(handoff.url);
    await presenter.waitForURL(/\/present\/[0-9a-f]{16}$/, { timeout: 30_000 });
    await presenter.waitForSelector("body[data-ready='true']", { timeout: 30_000 });

    const decks = await storedDecks(presenter);
    expect(decks.length).toBe(1);
    expect(decks[0]).toMatchObject({ sha256: handoff.sha256, handoffId: handoff.id, totalSlides: 5, storedBytes: deck.byteLength });
    expect(decks[0]!.handoffCompletedAt).toBeGreaterThan(0);

    // The server's copy is gone and the link is dead.
    expect(stagedFiles()).toEqual([]);
    const again = await fetch(`${server.url}/api/sessions/${handoff.id}/handoff?t=${new URL(handoff.url).hash.slice(3)}`);
    expect(again.status).toBe(410);
    expect(((await again.json()) as { code: string }).code).toBe("HANDOFF_CLAIMED");
  });

  it("a second browser opening the same link sees the already-claimed screen", async () => {
    const b = await browser({ width: 1100, height: 760 });
    await b.page.goto(handoff.url);
    await b.page.waitForSelector("body[data-screen='claimed']", { timeout: 15_000 });
    expect(await b.page.textContent("h1")).toContain("already used");
    expect(await b.page.locator("#open-claimed").count()).toBe(0);
    await shot(b.page, "start-already-claimed");
  });

  it("the same browser reopening the link goes straight to its stored deck", async () => {
    const page = await newWindow(a.context);
    await page.goto(handoff.url);
    await page.waitForURL(/\/present\//, { timeout: 15_000 });
    await page.close();
  });

  it("the presenter shows slide 1 of 5 with its notes, the next slide and the timer", async () => {
    expect(await presenter.textContent("#counter")).toBe("1 / 5");
    expect(await presenter.textContent("#notes")).toContain("Introduce yourself");
    expect(await presenter.locator("#notes strong").first().textContent()).toBe("Introduce yourself");
    expect(await presenter.isVisible("#countdown-box")).toBe(true);
    // The slide is painted: the canvas holds non-white pixels.
    const inked = await presenter.evaluate(() => {
      const c = document.querySelector<HTMLCanvasElement>("#current")!;
      const data = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
      let dark = 0;
      for (let i = 0; i < data.length; i += 4 * 97) if (data[i]! < 128) dark++;
      return { w: c.width, dark };
    });
    expect(inked.w).toBeGreaterThan(600);
    expect(inked.dark).toBeGreaterThan(10);
    await presenter.waitForSelector("body[data-offline='ready']", { timeout: 20_000 });
    await shot(presenter, "presenter-slide-1");
  });

  it("notes from the PDF are rendered as sanitised markdown, their HTML as inert text", async () => {
    await presenter.keyboard.press("ArrowRight");
    await presenter.waitForSelector("body[data-slide='2']");
    const notes = presenter.locator("#notes");
    expect(await notes.locator("li").count()).toBe(3);
    expect(await notes.locator("img, script").count()).toBe(0);
    expect(await notes.textContent()).toContain("<img src=x onerror=");
    expect(await presenter.evaluate(() => document.body.dataset.xss)).toBeUndefined();
    expect(NOTES[2]).toContain("<script>");
  });

  it("the audience window follows the presenter, and the media slide plays its video", async () => {
    const [audience] = await Promise.all([a.context.waitForEvent("page"), presenter.click("#btn-audience")]);
    await audience.setViewportSize({ width: 1280, height: 720 });
    await audience.waitForSelector("body[data-ready='true']", { timeout: 20_000 });
    await audience.waitForSelector("body[data-slide='2']");

    await presenter.keyboard.press("ArrowRight");
    await presenter.waitForSelector("body[data-slide='3']");
    await audience.waitForSelector("body[data-slide='3']", { timeout: 10_000 });
    expect(await presenter.textContent("#counter")).toBe("3 / 5");

    for (const page of [presenter, audience]) {
      const video = page.locator("[data-media='clip'] video");
      await video.waitFor({ timeout: 10_000 });
      await page.waitForFunction(() => {
        const v = document.querySelector<HTMLVideoElement>("[data-media='clip'] video");
        return !!v && !v.paused && v.currentTime > 0.2;
      }, undefined, { timeout: 10_000 });
    }
    // Placed at its rectangle: the right half of the slide, below the title.
    const box = await presenter.locator("[data-media='clip'] video").boundingBox();
    const frame = await presenter.locator("#current-frame").boundingBox();
    expect(box!.x - frame!.x).toBeGreaterThan(frame!.width * 0.5);
    expect(box!.width / frame!.width).toBeCloseTo(300 / 720, 1);
    await shot(presenter, "presenter-media-slide");
    await shot(audience, "audience-media-slide");

    // Pause on the presenter pauses the audience copy.
    await presenter.evaluate(() => document.querySelector<HTMLVideoElement>("[data-media='clip'] video")!.pause());
    await audience.waitForFunction(() => document.querySelector<HTMLVideoElement>("[data-media='clip'] video")?.paused === true, undefined, { timeout: 5_000 });

    // Blank follows too.
    await presenter.keyboard.press("b");
    await audience.waitForSelector("body.is-blank");
    await presenter.keyboard.press("b");
    await audience.waitForSelector("body:not(.is-blank)");

    // A clicker pressed in the audience window steps the presenter.
    await audience.keyboard.press("ArrowRight");
    await presenter.waitForSelector("body[data-slide='4']");
    await audience.waitForSelector("body[data-slide='4']");
    await presenter.keyboard.press("ArrowLeft");
    await audience.waitForSelector("body[data-slide='3']");
    await audience.close();
  });

  it("digits + Enter jump, Home/End, overview and help work from the keyboard", async () => {
    await presenter.keyboard.press("5");
    await presenter.keyboard.press("Enter");
    await presenter.waitForSelector("body[data-slide='5']");
    expect(await presenter.isVisible("#end-card")).toBe(true);
    await presenter.keyboard.press("Home");
    await presenter.waitForSelector("body[data-slide='1']");
    await presenter.keyboard.press("o");
    await presenter.waitForSelector("#overview:not([hidden])");
    await presenter.waitForTimeout(400);
    await shot(presenter, "presenter-overview");
    await presenter.keyboard.press("Escape");
    await presenter.keyboard.press("?");
    await presenter.waitForSelector("#help:not([hidden])");
    await presenter.keyboard.press("Escape");
    await presenter.keyboard.press("End");
    await presenter.waitForSelector("body[data-slide='5']");
    await presenter.keyboard.press("3");
    await presenter.keyboard.press("Enter");
    await presenter.waitForSelector("body[data-slide='3']");
  });

  it("with the network off, a reload still presents the deck where it was", async () => {
    await a.context.setOffline(true);
    try {
      await presenter.reload();
      await presenter.waitForSelector("body[data-ready='true']", { timeout: 20_000 });
      expect(await presenter.textContent("#counter")).toBe("3 / 5");
      await presenter.waitForFunction(() => {
        const v = document.querySelector<HTMLVideoElement>("[data-media='clip'] video");
        return !!v && !v.paused;
      }, undefined, { timeout: 10_000 });
      await presenter.waitForFunction(() => document.querySelector("#offline-state")?.textContent?.includes("Offline"), undefined, { timeout: 10_000 });
      await shot(presenter, "presenter-offline-reload");
      // The library and the audience view load offline too.
      const library = await newWindow(a.context);
      await library.goto(`${server.url}/`);
      await library.waitForSelector("body[data-ready='true']", { timeout: 20_000 });
      expect(await library.locator(".deck-card").count()).toBe(1);
      await shot(library, "library-offline");
      await library.goto(presenter.url().replace("/present/", "/view/"));
      await library.waitForSelector("body[data-ready='true']", { timeout: 20_000 });
      await library.close();
    } finally {
      await a.context.setOffline(false);
    }
    // Nothing broke the page's CSP or threw along the way.
    expect(a.problems.filter((p) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(p))).toEqual([]);
  });
});

describe("failure paths never consume the link", () => {
  it("an expired link shows the expired screen", async () => {
    const handoff = await present("Expired talk.pdf");
    const db = new Database(join(server.dataDir, "deckhand.db"));
    // Expired a second ago, as a link nobody opened in time. Not at 1 (1970): the server's sweep
    // (every minute) would mark it expired and purge it at once, its tombstone older than a
    // week, and the page would rightly say the server does not know the link.
    db.run("UPDATE sessions SET expires_at = ? WHERE id = ?", [Date.now() - 1000, handoff.id]);
    db.close();
    const s = await browser({ width: 1100, height: 760 });
    await s.page.goto(handoff.url);
    await s.page.waitForSelector("body[data-screen='expired']", { timeout: 15_000 });
    expect(await s.page.textContent("h1")).toContain("expired");
    expect(await s.page.locator("#retry").count()).toBe(0);
    await shot(s.page, "start-expired");
  });

  it("a wrong token shows its screen and leaves the link claimable", async () => {
    const handoff = await present("Token talk.pdf");
    const s = await browser();
    await s.page.goto(handoff.url.replace(/#t=.*/, "#t=not-the-token"));
    await s.page.waitForSelector("body[data-screen='token-invalid']", { timeout: 15_000 });
    await shot(s.page, "start-wrong-token");
    const probe = await fetch(`${server.url}/api/sessions/${handoff.id}/handoff?t=${new URL(handoff.url).hash.slice(3)}`, { headers: { Range: "bytes=0-0" } });
    expect(probe.status).toBe(206);
    // The right link still works afterwards, pasted into the same tab (only the fragment changes).
    await s.page.goto(handoff.url);
    await s.page.waitForURL(/\/present\//, { timeout: 30_000 });
    await s.page.waitForSelector("body[data-ready='true']", { timeout: 30_000 });
  });

  it("a ?t= token is moved out of the query string at once", async () => {
    const handoff = await present("Query talk.pdf");
    const s = await browser();
    const token = new URL(handoff.url).hash.slice(3);
    const seen: string[] = [];
    s.page.on("framenavigated", (frame) => seen.push(frame.url()));
    await s.page.goto(`${server.url}/start/${handoff.id}?t=${token}`);
    await s.page.waitForURL(/\/present\//, { timeout: 30_000 });
    expect(seen.some((u) => u.includes(`/start/${handoff.id}#t=`))).toBe(true);
  });

  it("a download cut mid-way shows the interrupted screen; retry resumes with Range and succeeds", async () => {
    const handoff = await present("Flaky network.pdf");
    const s = await browser({ width: 1100, height: 760 });
    const rangeHeaders: (string | null)[] = [];
    const tokenSent: { inUrl: boolean; inHeader: boolean }[] = [];
    // The download: GET …/handoff (the token rides in x-controller-token, never in the URL).
    const isDownload = (url: string) => /\/api\/sessions\/[^/]+\/handoff$/.test(new URL(url).pathname);
    s.page.on("request", (req) => {
      if (!isDownload(req.url())) return;
      rangeHeaders.push(req.headers()["range"] ?? null);
      tokenSent.push({ inUrl: new URL(req.url()).searchParams.has("t"), inHeader: Boolean(req.headers()["x-controller-token"]) });
    });
    let cut = true;
    await s.page.route((url) => isDownload(url.href), async (route) => {
      if (!cut) return route.continue();
      cut = false;
      const upstream = await route.fetch();
      const body = await upstream.body();
      // Deliver the first half and then drop: the advertised length is never reached.
      await route.fulfill({ status: 200, headers: upstream.headers(), body: body.subarray(0, Math.floor(body.length / 2)) });
    });
    await s.page.goto(handoff.url);
    await s.page.waitForSelector("body[data-screen='interrupted']", { timeout: 15_000 });
    expect(await s.page.textContent("#retry")).toContain("Resume");
    await shot(s.page, "start-interrupted");
    // The link was not consumed.
    expect(stagedFiles().length).toBeGreaterThan(0);
    const status = await fetch(`${server.url}/api/sessions/${handoff.id}/handoff?t=${new URL(handoff.url).hash.slice(3)}`, { headers: { Range: "bytes=0-0" } });
    expect(status.status).toBe(206);

    await s.page.click("#retry");
    await s.page.waitForURL(/\/present\//, { timeout: 30_000 });
    await s.page.waitForSelector("body[data-ready='true']", { timeout: 30_000 });
    expect(rangeHeaders.length).toBe(2);
    expect(rangeHeaders[0]).toBeNull();
    expect(rangeHeaders[1]).toMatch(/^bytes=\d+-$/);
    expect(tokenSent).toEqual([{ inUrl: false, inHeader: true }, { inUrl: false, inHeader: true }]);
    const decks = await storedDecks(s.page);
    expect(decks.find((d) => d.handoffId === handoff.id)?.sha256).toBe(handoff.sha256);
  });

  it("a download whose bytes differ from the server's digest is refused: nothing stored, never confirmed; the retry downloads afresh and succeeds", async () => {
    const handoff = await presentPdf(server.url, deck, "Damaged download.pdf");
    const s = await browser({ width: 1100, height: 760 });
    const isDownload = (url: string) => /\/api\/sessions\/[^/]+\/handoff$/.test(new URL(url).pathname);
    const seen = { downloads: 0, completes: 0 };
    s.page.on("request", (req) => {
      const path = new URL(req.url()).pathname;
      if (isDownload(req.url())) seen.downloads++;
      if (path.endsWith("/handoff/complete")) seen.completes++;
    });
    let damage = true;
    await s.page.route((url) => isDownload(url.href), async (route) => {
      if (!damage) return route.continue();
      damage = false;
      const upstream = await route.fetch();
      const body = Buffer.from(await upstream.body());
      // One byte flipped in the middle; the length and the Repr-Digest header stay the server's.
      body[Math.floor(body.length / 2)]! ^= 0xff;
      await route.fulfill({ status: 200, headers: upstream.headers(), body });
    });
    await s.page.goto(handoff.url);
    await s.page.waitForSelector("body[data-screen='checksum']", { timeout: 30_000 });
    await shot(s.page, "start-checksum");
    expect(seen.completes).toBe(0);
    expect((await storedDecks(s.page)).some((d) => d.handoffId === handoff.id)).toBe(false);
    const status = await fetch(`${server.url}/api/sessions/${handoff.id}/handoff?t=${new URL(handoff.url).hash.slice(3)}`, { headers: { Range: "bytes=0-0" } });
    expect(status.status).toBe(206);

    await s.page.click("#retry");
    await s.page.waitForURL(/\/present\//, { timeout: 30_000 });
    await s.page.waitForSelector("body[data-ready='true']", { timeout: 30_000 });
    expect(seen).toEqual({ downloads: 2, completes: 1 });
    expect((await storedDecks(s.page)).find((d) => d.handoffId === handoff.id)?.sha256).toBe(handoff.sha256);
  });
});
