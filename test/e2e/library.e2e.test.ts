/**
 * The library, the check page and storage failures, in Chromium against the binary.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launchBrowser, newWindow, withChromiumPage, type BrowserSession } from "../helpers/browser.ts";
import { presentPdf, stopSuite } from "../helpers/e2e-suite.ts";
import { startBinary, type BinaryServer } from "../helpers/server.ts";
import { makePresentationDeck, OUTPUT, recordClip } from "./fixtures.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

const it = (name: string, fn: () => Promise<void>) => test(name, fn, 60_000);
const SHOTS = join(OUTPUT, "e2e");
const PDF = join(OUTPUT, "fixtures", "presenting-offline.pdf");

let server: BinaryServer;
let deck: Uint8Array;
const sessions: BrowserSession[] = [];

async function browser(viewport?: { width: number; height: number }) {
  const s = await launchBrowser(viewport ? { viewport } : {});
  sessions.push(s);
  return s;
}

const present = () => presentPdf(server.url, deck, "Storage test.pdf");

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startBinary();
  deck = await makePresentationDeck(await withChromiumPage(`${server.url}/check`, recordClip));
  writeFileSync(PDF, deck);
}, 60_000);

afterAll(() => stopSuite(server, sessions));

describe("library", () => {
  it("opens a local PDF without uploading it, shows the share screen, presents and deletes it", async () => {
    const s = await browser();
    const uploads: string[] = [];
    s.page.on("request", (r) => {
      if (r.method() !== "GET") uploads.push(r.url());
    });
    await s.page.goto(`${server.url}/`);
    await s.page.waitForSelector("body[data-ready='true']");
    expect(await s.page.isVisible("#empty")).toBe(true);
    await s.page.setInputFiles("#file-input", PDF);
    await s.page.waitForSelector("#share:not([hidden])", { timeout: 20_000 });
    expect(uploads).toEqual([]);
    expect(await s.page.textContent("#share-deck")).toContain("5 slides");
    expect(await s.page.locator(".deck-card").count()).toBe(1);
    // The usage line follows the list once the browser has counted (the list does not wait for it).
    await s.page.waitForFunction(() => /^1 deck · using .+ of .+ available to this site$/.test(document.querySelector("#storage-usage")?.textContent ?? ""), undefined, { timeout: 10_000 });
    await s.page.screenshot({ path: join(SHOTS, "library-share-screen.png") });

    const [audience] = await Promise.all([s.context.waitForEvent("page"), s.page.click("#share-audience")]);
    await audience.waitForSelector("body[data-ready='true']", { timeout: 20_000 });
    await s.page.click("#share-present");
    await s.page.waitForSelector("body[data-ready='true']", { timeout: 20_000 });
    await s.page.keyboard.press("ArrowRight");
    await audience.waitForSelector("body[data-slide='2']", { timeout: 10_000 });
    await audience.close();

    await s.page.goto(`${server.url}/`);
    await s.page.waitForSelector("body[data-ready='true']");
    s.page.once("dialog", (d) => void d.accept());
    await s.page.click(".deck-card button:has-text('Delete')");
    await s.page.waitForSelector("#empty:not([hidden])");
    expect(await s.page.locator(".deck-card").count()).toBe(0);
    await s.page.waitForFunction(() => document.querySelector("#storage-usage")?.textContent?.startsWith("0 decks · using ") === true, undefined, { timeout: 10_000 });
  });

  it("shows each deck's first page as a thumbnail, rendered once and kept in IndexedDB", async () => {
    const s = await browser({ width: 1280, height: 800 });
    const page = s.page;
    const workers: string[] = [];
    page.on("worker", (w) => workers.push(w.url()));
    const thumbnail = () =>
      page.evaluate(async () => {
        const img = document.querySelector<HTMLImageElement>(".deck-card .deck-thumb-img");
        if (!img) return null;
        await img.decode();
        const canvas = document.createElement("canvas");
        canvas.width = img.naturalWidth;
        canvas.height = img.naturalHeight;
        const ctx = canvas.getContext("2d")!;
        ctx.drawImage(img, 0, 0);
        const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
        let dark = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i]! < 90 && data[i + 1]! < 90 && data[i + 2]! < 90) dark++;
        const [r, g, b] = ctx.getImageData(canvas.width / 2, canvas.height - 4, 1, 1).data;
        return { src: img.src.slice(0, 5), width: img.naturalWidth, height: img.naturalHeight, dark, lightPage: r! > 200 && g! > 200 && b! > 200, placeholder: getComputedStyle(img.parentElement!, "::before").display };
      });
    const storedThumbnails = () =>
      page.evaluate(async () => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const req = indexedDB.open("deckhand");
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
        const all = await new Promise<Array<{ id: string; image: Blob; width: number; height: number }>>((resolve, reject) => {
          const req = db.transaction("thumbnails").objectStore("thumbnails").getAll();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
        db.close();
        return all.map((t) => ({ id: t.id, type: t.image.type, size: t.image.size, width: t.width, height: t.height }));
      });

    // Opening a local PDF stores its thumbnail along with it.
    await page.goto(`${server.url}/`);
    await page.waitForSelector("body[data-ready='true']");
    await page.setInputFiles("#file-input", PDF);
    await page.waitForSelector("#share:not([hidden])", { timeout: 20_000 });
    await page.waitForSelector(".deck-card .deck-thumb-img", { timeout: 20_000 });
    const first = await storedThumbnails();
    expect(first.length).toBe(1);
    expect(first[0]).toMatchObject({ type: "image/webp", width: 320, height: 180 });
    expect(first[0]!.size).toBeGreaterThan(500);
    expect(first[0]!.size).toBeLessThan(40_000);

    // A deck stored before thumbnails existed (or claimed from a link) has none: the library
    // renders it in the background with the render worker, then keeps it.
    await page.evaluate(async () => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open("deckhand");
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      const tx = db.transaction("thumbnails", "readwrite");
      tx.objectStore("thumbnails").clear();
      await new Promise((resolve) => (tx.oncomplete = resolve));
      db.close();
    });
    workers.length = 0;
    // What the page said of its thumbnails, from its first moment: the render may end before the
    // page says it is ready, so it is not read afterwards.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __thumbnailStates: string[] }).__thumbnailStates = seen;
      new MutationObserver(() => {
        const state = document.body?.dataset.thumbnails;
        if (state && seen.at(-1) !== state) seen.push(state);
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-thumbnails"] });
    });
    await page.reload();
    await page.waitForSelector("body[data-ready='true']");
    await page.waitForSelector("body[data-thumbnails='done']", { timeout: 20_000 });
    // The deck had none: the page rendered one, then was done.
    expect(await page.evaluate(() => (window as unknown as { __thumbnailStates: string[] }).__thumbnailStates)).toEqual(["rendering", "done"]);
    expect(workers.filter((u) => u.includes("render-worker")).length).toBe(1);
    expect((await storedThumbnails()).map((t) => t.id)).toEqual(first.map((t) => t.id));
    const rendered = await thumbnail();
    expect(rendered).toMatchObject({ src: "blob:", width: 320, height: 180, lightPage: true, placeholder: "none" });
    // The slide's title and body text are drawn: dark pixels on the light page.
    expect(rendered!.dark).toBeGreaterThan(100);

    // The next visit shows the stored image and starts no render worker at all.
    workers.length = 0;
    await page.reload();
    await page.waitForSelector("body[data-ready='true']");
    await page.waitForSelector("body[data-thumbnails='done']");
    expect(await thumbnail()).toEqual(rendered);
    await page.waitForTimeout(300);
    expect(workers).toEqual([]);
    await page.screenshot({ path: join(SHOTS, "library-thumbnails.png") });
    expect(s.problems).toEqual([]);
  });

  it("refuses a file that is not a PDF, judged by its bytes", async () => {
    const s = await browser();
    await s.page.goto(`${server.url}/`);
    await s.page.waitForSelector("body[data-ready='true']");
    await s.page.setInputFiles("#file-input", { name: "slides.pdf", mimeType: "application/pdf", buffer: Buffer.from("<html>not a pdf</html>") });
    await s.page.waitForSelector(".notice-error");
    expect(await s.page.textContent(".notice-error")).toContain("is not a PDF");
  });

  it("the presenter works on a phone-sized screen", async () => {
    const s = await browser({ width: 390, height: 844 });
    await s.page.goto(`${server.url}/`);
    await s.page.waitForSelector("body[data-ready='true']");
    await s.page.setInputFiles("#file-input", PDF);
    await s.page.waitForSelector("#share:not([hidden])", { timeout: 20_000 });
    await s.page.screenshot({ path: join(SHOTS, "library-phone.png"), fullPage: true });
    await s.page.click("#share-present");
    await s.page.waitForSelector("body[data-ready='true']", { timeout: 20_000 });
    await s.page.click("#btn-next");
    await s.page.waitForSelector("body[data-slide='2']");
    await s.page.screenshot({ path: join(SHOTS, "presenter-phone.png"), fullPage: true });
    const overflow = await s.page.evaluate(() => {
      const wide = [...document.querySelectorAll<HTMLElement>("body *")].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1).map((el) => `${el.tagName}#${el.id}.${el.className}`);
      return { by: document.documentElement.scrollWidth - window.innerWidth, wide: wide.slice(0, 8) };
    });
    expect(overflow).toEqual({ by: 0, wide: [] });
  });
});

describe("check page", () => {
  it("shows the report per slide with thumbnails, notes, media and findings", async () => {
    const s = await browser();
    await s.page.goto(`${server.url}/check`);
    await s.page.setInputFiles("#file-input", PDF);
    await s.page.waitForSelector("body[data-ready='true']", { timeout: 30_000 });
    expect(await s.page.locator(".report-page").count()).toBe(5);
    expect(await s.page.textContent(".report-summary h2")).toBeTruthy();
    const text = await s.page.textContent("#report");
    expect(text).toContain("notes-slide-1.json");
    expect(text).toContain("media-slide-3-clip.json");
    await s.page.waitForTimeout(500);
    await s.page.screenshot({ path: join(SHOTS, "check-report.png"), fullPage: true });
  });

  it("a refused file shows the server's problem sentence, and no report", async () => {
    const s = await browser();
    await s.page.goto(`${server.url}/check`);
    await s.page.setInputFiles("#file-input", { name: "slides.pdf", mimeType: "application/pdf", buffer: Buffer.from("not a pdf at all") });
    await s.page.waitForSelector("#status.status-error", { timeout: 30_000 });
    expect(await s.page.textContent("#status")).toBe("The uploaded bytes are not a PDF; export the deck as PDF and upload that file.");
    expect(await s.page.locator(".report-page").count()).toBe(0);
    await s.page.screenshot({ path: join(SHOTS, "check-refused.png") });
  });
});

describe("storage failures never consume the link", () => {
  it("a browser that refuses storage (private window) gets its own screen", async () => {
    const handoff = await present();
    const s = await browser({ width: 1100, height: 760 });
    await s.context.addInitScript(() => {
      IDBFactory.prototype.open = function () {
        throw new DOMException("The user denied permission to access the database.", "InvalidStateError");
      };
    });
    const page = await newWindow(s.context);
    await page.goto(handoff.url);
    await page.waitForSelector("body[data-screen='storage-unavailable']", { timeout: 15_000 });
    await page.screenshot({ path: join(SHOTS, "start-storage-refused.png") });
    const probe = await fetch(`${server.url}/api/sessions/${handoff.id}/handoff?t=${new URL(handoff.url).hash.slice(3)}`, { headers: { Range: "bytes=0-0" } });
    expect(probe.status).toBe(206);
  });

  it("a full disk (quota exceeded) gets its own screen, and the link stays claimable", async () => {
    const handoff = await present();
    const s = await browser({ width: 1100, height: 760 });
    await s.context.addInitScript(() => {
      const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
        if (this.name === "deckBytes") throw new DOMException("Quota exceeded", "QuotaExceededError");
        return put.call(this, value, key);
      };
    });
    const page = await newWindow(s.context);
    await page.goto(handoff.url);
    await page.waitForSelector("body[data-screen='storage-quota']", { timeout: 15_000 });
    await page.screenshot({ path: join(SHOTS, "start-storage-full.png") });
    const probe = await fetch(`${server.url}/api/sessions/${handoff.id}/handoff?t=${new URL(handoff.url).hash.slice(3)}`, { headers: { Range: "bytes=0-0" } });
    expect(probe.status).toBe(206);
  });
});
