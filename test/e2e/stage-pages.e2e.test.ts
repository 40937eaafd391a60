/**
 * The pages around the stage, per engine (test/helpers/engine.ts): axe-core on the start,
 * library, presenter (with the key panel open), audience and check pages; a
 * password-protected PDF opened locally is refused with the server's own sentence; the `?`
 * panel lists the one key map; phone layouts, swipe and wheel; the first
 * paint of the presenter after a claim, the first slide painted by the claim's own page while
 * the deck is stored, and the side column laid out before its previews are drawn (Chromium,
 * which can watch every frame and worker message from before the page's scripts run and hold
 * the claim's confirmation back). Screenshots go to
 * test-output/stage-pages/<engine>/.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { DEFAULT_BINDINGS } from "../../client/src/presenter/keymap.ts";
import { editableRows } from "../../client/src/presenter/keymap-store.ts";
import { REFUSAL_DETAIL } from "../../src/deck/accept.ts";
import { seriousViolations } from "../helpers/axe.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { engineSuite, presentPdf } from "../helpers/e2e-suite.ts";
import { ENGINES, type EnginePage } from "../helpers/engine.ts";
import { startBinary, type BinaryServer } from "../helpers/server.ts";
import { openLibrary, waitReady } from "../helpers/stage.ts";
import { makeEncryptedDeck } from "../fixtures/pdfs.ts";
import { makeStageDeck, OUTPUT, PAGE, recordStageClip } from "../fixtures/stage-deck.ts";
import { makeToolsDeck } from "../fixtures/tools-deck.ts";
import { doubleDeck, SLIDE } from "../fixtures/notes-layout-stage.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

const STEP_MS = 180_000;
const it = (name: string, fn: () => Promise<void>) => test(name, fn, STEP_MS);

let deck: Uint8Array;
const deckPath = join(OUTPUT, "fixtures", "stage-deck.pdf");
const encryptedPath = join(OUTPUT, "fixtures", "password-protected.pdf");

beforeAll(async () => {
  mkdirSync(join(OUTPUT, "fixtures"), { recursive: true });
  const recorder = await launchBrowser();
  try {
    // Media URLs point at a closed port: these tests are about the pages, not the media.
    deck = await makeStageDeck({ origin: "https://127.0.0.1:9", clip: await recordStageClip(recorder.page) });
  } finally {
    await recorder.close();
  }
  writeFileSync(deckPath, deck);
  writeFileSync(encryptedPath, await makeEncryptedDeck());
}, STEP_MS);

async function expectNoSeriousA11y(page: EnginePage, where: string) {
  expect({ where, violations: await seriousViolations(page) }).toEqual({ where, violations: [] });
}

for (const name of ENGINES) {
  describe(`pages in ${name}`, () => {
    const shots = join(OUTPUT, "stage-pages", name);
    const suite = engineSuite(name, { shots, launch: { viewport: { width: 1280, height: 800 } }, timeoutMs: STEP_MS });
    const page = suite.page;
    const shot = (file: string) => page.screenshot(join(shots, `${file}.png`));

    it("the start page's failure screen has no serious accessibility violation", async () => {
      const handoff = await presentPdf(suite.server.url, deck, "Talk.pdf");
      await page.goto(handoff.url.replace(/#t=.*/, "#t=wrong-token"));
      await page.waitFor("the wrong-token screen", () => document.body.dataset.screen === "token-invalid", [], 20_000);
      await expectNoSeriousA11y(page, "start");
    });

    it("a password-protected PDF opened from this computer is refused with the server's own sentence", async () => {
      await openLibrary(page, suite.server.url);
      await expectNoSeriousA11y(page, "library (empty)");
      await page.upload("#file-input", encryptedPath);
      await page.waitFor("the refusal", () => !!document.querySelector(".notice[data-code]"), [], 20_000);
      const notice = await page.evaluate(() => ({ code: document.querySelector<HTMLElement>(".notice[data-code]")!.dataset.code, text: document.querySelector(".notice[data-code]")!.textContent }));
      expect(notice.code).toBe("PDF_ENCRYPTED");
      expect(notice.text).toContain(REFUSAL_DETAIL.PDF_ENCRYPTED);
      expect(await page.evaluate(() => document.querySelectorAll(".deck-card").length)).toBe(0);
      await shot("01-library-encrypted-refused");
    });

    it("opens the stage deck locally; the library lists it; the `?` panel shows the one key map", async () => {
      await page.upload("#file-input", deckPath);
      await page.waitFor("the share screen", () => !document.querySelector("#share")!.hasAttribute("hidden"), [], 30_000);
      await page.waitFor("the thumbnail", () => document.body.dataset.thumbnails === "done", [], 30_000);
      await expectNoSeriousA11y(page, "library");
      await shot("02-library");
      await page.click("#share-present");
      await waitReady(page, "the presenter", 30_000, "/present/");
      expect(await page.evaluate(() => document.querySelector("#counter")?.textContent)).toBe("1 / 6");
      await page.press("?");
      await page.waitFor("the key panel", () => !document.querySelector("#help")!.hasAttribute("hidden"));
      // The panel is the key editor: one row per binding a user may change, with its label.
      const rows = await page.evaluate(() => Array.from(document.querySelectorAll("#keys tr td:nth-child(2)")).map((td) => td.textContent));
      expect(rows).toEqual(editableRows(DEFAULT_BINDINGS).map((r) => r.label));
      await expectNoSeriousA11y(page, "presenter with the key panel");
      await shot("03-keys-panel");
      await page.press("Escape");
      await page.waitFor("the key panel closed", () => document.querySelector("#help")!.hasAttribute("hidden"));
    });

    it("on a phone held upright the title is readable and every pane and control can be reached", async () => {
      await page.resize(390, 844);
      await page.waitFor("the slide laid out for the phone", () => {
        const box = document.querySelector("#current-box")!.getBoundingClientRect();
        const frame = document.querySelector("#current-frame")!.getBoundingClientRect();
        // ≤ 480 px: the upright-phone layout (WebKit's window cannot be narrower than 447 px).
        return window.innerWidth <= 480 && Math.abs(frame.width - Math.min(box.width, (box.height * 720) / 405)) <= 2;
      });
      const title = await page.evaluate(() => {
        const el = document.querySelector<HTMLElement>("#deck-title")!;
        return { width: el.getBoundingClientRect().width, overflow: getComputedStyle(el).textOverflow, text: el.textContent };
      });
      // Room for a title, cut with an ellipsis when long (it was "t." before).
      expect(title.width).toBeGreaterThan(250);
      expect(title.overflow).toBe("ellipsis");
      // The toolbar is folded into the Menu on a phone (test/e2e/stage-phone
      // checks its geometry): its buttons are reached by opening it.
      const ids = ["#current-frame", "#next-frame", "#notes", "#elapsed", "#btn-menu", "#btn-prev", "#btn-next", "#btn-timer", "#btn-timer-reset", "#btn-notes-smaller", "#btn-notes-bigger"];
      const folded = ["#btn-audience", "#btn-overview", "#btn-blank", "#btn-white", "#btn-fullscreen", "#btn-help"];
      const unreachableIn = (list: string[]) => page.evaluate((list: string[]) => {
        const bad: string[] = [];
        for (const sel of list) {
          const el = document.querySelector<HTMLElement>(sel)!;
          el.scrollIntoView({ block: "center", inline: "center" });
          const r = el.getBoundingClientRect();
          const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          const inside = r.width > 0 && r.height > 0 && r.left >= -1 && r.right <= innerWidth + 1;
          if (!inside || !hit || !(el === hit || el.contains(hit) || hit.contains(el))) bad.push(`${sel} ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)} hit=${hit?.id || hit?.tagName}`);
        }
        window.scrollTo(0, 0);
        return bad;
      }, list);
      expect(await unreachableIn(ids)).toEqual([]);
      await shot("04-phone-portrait");
      await page.click("#btn-menu");
      await page.waitFor("the menu open", () => document.querySelector("#btn-menu")?.getAttribute("aria-expanded") === "true");
      expect(await unreachableIn(folded)).toEqual([]);
      await page.press("Escape");
      await page.waitFor("the menu closed", () => document.querySelector("#btn-menu")?.getAttribute("aria-expanded") === "false");
    });

    it("on a phone on its side the whole slide is on screen with no page scroll; swipes and the wheel change slides", async () => {
      await page.resize(844, 390);
      await page.waitFor("the landscape layout", () => window.innerHeight <= 420 && window.innerWidth > 800);
      // Laid out again for the new box: the frame is the largest 16:9 box that fits in it.
      await page.waitFor("the slide laid out for the phone on its side", () => {
        const box = document.querySelector("#current-box")!.getBoundingClientRect();
        const frame = document.querySelector("#current-frame")!.getBoundingClientRect();
        return Math.abs(frame.width - Math.min(box.width, (box.height * 720) / 405)) <= 2;
      });
      await shot("05-phone-landscape");
      const fit = await page.evaluate(() => {
        const r = document.querySelector("#current-frame")!.getBoundingClientRect();
        return { scroll: document.documentElement.scrollHeight - innerHeight, top: r.top, bottom: r.bottom - innerHeight, right: r.right - innerWidth, w: r.width };
      });
      expect(fit.scroll).toBeLessThanOrEqual(1);
      expect(fit.top).toBeGreaterThanOrEqual(0);
      expect(fit.bottom).toBeLessThanOrEqual(1);
      expect(fit.right).toBeLessThanOrEqual(1);
      expect(fit.w).toBeGreaterThan(400);
      await page.wheel("#current-frame", 120);
      await page.waitFor("the wheel went forward", () => document.body.dataset.slide === "2");
      await Bun.sleep(600);
      await page.wheel("#current-frame", -120);
      await page.waitFor("the wheel went back", () => document.body.dataset.slide === "1");
      if (name === "webkit") {
        // WebKitWebDriver turns a WebDriver touch pointer into mouse events (pointerType
        // "mouse", no touch events), so there is no touch to test here: this proves that
        // limitation, and swipes are proven in Chromium (CDP touch) and Firefox (BiDi touch).
        await page.evaluate(() => {
          (window as unknown as { __kinds: string[] }).__kinds = [];
          document.addEventListener("pointerdown", (e) => (window as unknown as { __kinds: string[] }).__kinds.push(e.pointerType), true);
        });
        await page.swipe("#current-frame", -200);
        expect(await page.evaluate(() => (window as unknown as { __kinds: string[] }).__kinds)).toEqual(["mouse"]);
        await page.press("Home");
        await page.waitFor("back on slide 1", () => document.body.dataset.slide === "1");
      } else {
        await page.swipe("#current-frame", -200);
        await page.waitFor("a left swipe went forward", () => document.body.dataset.slide === "2");
        await page.swipe("#current-frame", 200);
        await page.waitFor("a right swipe went back", () => document.body.dataset.slide === "1");
      }
      // The setting turns the wheel off (and is remembered with the notes size).
      await page.evaluate(() => document.querySelector<HTMLInputElement>("#setting-wheel")!.click());
      await Bun.sleep(600);
      await page.wheel("#current-frame", 120);
      await Bun.sleep(800);
      expect(await page.evaluate(() => document.body.dataset.slide)).toBe("1");
      await page.evaluate(() => document.querySelector<HTMLInputElement>("#setting-wheel")!.click());
      await page.resize(1280, 800);
    });

    it("the audience and check pages have no serious accessibility violation", async () => {
      const href = await page.href();
      await page.goto(href.replace("/present/", "/view/"));
      await waitReady(page, "the audience", 30_000, "/view/");
      await expectNoSeriousA11y(page, "audience");
      await page.goto(`${suite.server.url}/check`);
      await page.upload("#file-input", deckPath);
      await waitReady(page, "the check report", 30_000);
      await expectNoSeriousA11y(page, "check");
      await shot("06-check-report");
    });
  });
}

/**
 * Open a handoff link with the claim's confirmation held back 2 s, so that the start page's
 * probe worker (which compiles mupdf during the download of this small deck) has surely made
 * its picture of slide 1 by then — how long the start page waits for one is a bound of its
 * own (FIRST_SLIDE_WAIT_MS) — and wait for the presenter.
 */
async function claimHeldBack(page: Page, url: string): Promise<void> {
  const complete = /\/handoff\/complete$/;
  await page.route(complete, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await route.continue();
  });
  await page.goto(url);
  await page.waitForSelector("body[data-ready='true']", { timeout: 45_000 });
  await page.unroute(complete);
}

/**
 * Open a handoff link with the claim's confirmation held until `release()`: the start page
 * stays on screen, its deck stored, its first slide painted (or not).
 */
async function claimHeld(page: Page, url: string): Promise<{ release: () => Promise<void> }> {
  const complete = /\/handoff\/complete$/;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  await page.route(complete, async (route) => {
    await gate;
    await route.continue();
  });
  await page.goto(url);
  return {
    release: async () => {
      open();
      await page.waitForSelector("body[data-ready='true']", { timeout: 45_000 });
      await page.unroute(complete);
    },
  };
}

/** A canvas's 32×18 reduction, red levels: what it shows, comparable across sizes. */
function redLevels(page: Page, selector: string): Promise<number[]> {
  return page.evaluate((sel: string) => {
    const small = document.createElement("canvas");
    small.width = 32;
    small.height = 18;
    const ctx = small.getContext("2d", { willReadFrequently: true })!;
    ctx.drawImage(document.querySelector<HTMLCanvasElement>(sel)!, 0, 0, 32, 18);
    return Array.from(ctx.getImageData(0, 0, 32, 18).data.filter((_, i) => i % 4 === 0));
  }, selector);
}

/** The start page's slide canvas: its backing size, the device pixels of its box, magenta (notes-half marker) pixels, and the spread of grey levels. */
function previewStats(page: Page) {
  return page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>("#preview-slide")!;
    const box = canvas.getBoundingClientRect();
    const dpr = Math.min(window.devicePixelRatio || 1, 3);
    const { data } = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height);
    let magenta = 0;
    let min = 255;
    let max = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      if (r > 200 && g < 90 && b > 200) magenta++;
      const grey = (r + g + b) / 3;
      min = Math.min(min, grey);
      max = Math.max(max, grey);
    }
    return { width: canvas.width, height: canvas.height, boxWidth: Math.round(box.width * dpr), boxHeight: Math.round(box.height * dpr), magenta, spread: max - min, screen: document.body.dataset.screen };
  });
}

// Chromium only (its driver holds a request back, and watches every frame): like the engine
// suites above, a run narrowed by DECKHAND_ENGINES to other engines does not register these two.
if (ENGINES.includes("chromium")) describe("the claim's own page paints the first slide while the deck is stored (Chromium: the confirmation is held back)", () => {
  let server: BinaryServer;
  let session: Awaited<ReturnType<typeof launchBrowser>>;
  /** One build of the deck: pdf-lib stamps the time, and the same deck must be claimed twice. */
  let notesRight: Uint8Array;

  beforeAll(async () => {
    server = await startBinary();
    session = await launchBrowser({ viewport: { width: 1280, height: 800 } });
    notesRight = await doubleDeck("right");
  }, STEP_MS);

  afterAll(async () => {
    await session?.close();
    await server?.stop();
    server?.cleanup();
  });

  test("slide 1 shows on the start page, sharp at its box's device pixels, before the claim is confirmed; the presenter then shows the same slide", async () => {
    const page: Page = session.page;
    const handoff = await presentPdf(server.url, deck, "First slide.pdf");
    const held = await claimHeld(page, handoff.url);
    await page.waitForSelector("body[data-preview='shown']", { timeout: 45_000 });
    const stats = await previewStats(page);
    // Still the claim: nothing confirmed yet, and the slide is up.
    expect(stats.screen).toBe("loading");
    expect(stats.width / stats.height).toBeCloseTo(PAGE.w / PAGE.h, 1);
    // Rendered for its box (never a blurred smaller picture, never a needlessly larger one).
    expect(Math.abs(stats.width - stats.boxWidth)).toBeLessThanOrEqual(2);
    expect(Math.abs(stats.height - stats.boxHeight)).toBeLessThanOrEqual(2);
    expect(stats.spread).toBeGreaterThan(40);
    // The server still holds the deck: the link is not used up until the confirmation.
    const staged = await fetch(`${server.url}/api/sessions/${handoff.id}/handoff`, { headers: { "x-controller-token": new URL(handoff.url).hash.slice(3), range: "bytes=0-0" } });
    expect(staged.status).toBe(206);
    await staged.body?.cancel();
    await page.screenshot({ path: join(OUTPUT, "stage-pages", "claim-first-slide.png") });
    const claimSignature = await redLevels(page, "#preview-slide");
    await held.release();
    const phases = await page.evaluate(() => (window as unknown as { __deckhand: { metrics: { phases?: Record<string, number> } } }).__deckhand.metrics.phases ?? {});
    expect(phases["claim.paintedMs"]).toBeGreaterThan(0);
    expect(phases["claim.paintedMs"]!).toBeLessThan(phases["claim.confirmedMs"]!);
    await page.waitForSelector("#current-frame[data-state='painted']", { timeout: 30_000 });
    const presenterSignature = await redLevels(page, "#current");
    const diff = presenterSignature.reduce((sum, v, i) => sum + Math.abs(v - claimSignature[i]!), 0) / presenterSignature.length;
    expect(diff).toBeLessThan(8);
  }, STEP_MS);

  test("a deck with Beamer-style notes on the second screen: the start page shows the slide half only, never the notes", async () => {
    const page: Page = session.page;
    const handoff = await presentPdf(server.url, notesRight, "Notes right.pdf");
    const held = await claimHeld(page, handoff.url);
    await page.waitForSelector("body[data-preview='shown']", { timeout: 45_000 });
    const stats = await previewStats(page);
    expect(stats.width / stats.height).toBeCloseTo(SLIDE.w / SLIDE.h, 1);
    expect(stats.magenta).toBe(0);
    expect(stats.spread).toBeGreaterThan(40);
    await page.screenshot({ path: join(OUTPUT, "stage-pages", "claim-first-slide-notes-right.png") });
    await held.release();
  }, STEP_MS);

  test("the split this browser keeps for a deck applies on the start page too (here: the speaker chose none, so the whole page)", async () => {
    const page: Page = session.page;
    // The presenter of the notes deck claimed above is open at slide 1: set its split to none.
    const deckId = page.url().split("/").pop()!;
    await page.evaluate(async (id: string) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open("deckhand");
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction("decks", "readwrite");
        const store = tx.objectStore("decks");
        const req = store.get(id);
        req.onsuccess = () => store.put({ ...req.result, notesPosition: "none" });
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    }, deckId);
    const handoff = await presentPdf(server.url, notesRight, "Notes right.pdf");
    const held = await claimHeld(page, handoff.url);
    await page.waitForSelector("body[data-preview='shown']", { timeout: 45_000 });
    const stats = await previewStats(page);
    expect(stats.width / stats.height).toBeCloseTo((2 * SLIDE.w) / SLIDE.h, 1);
    expect(stats.magenta).toBeGreaterThan(0);
    await held.release();
    expect(page.url()).toEndWith(`/present/${deckId}`);
  }, STEP_MS);
});

if (ENGINES.includes("chromium")) describe("the first paint after a claim (Chromium: every frame is watched from before the page's scripts)", () => {
  let server: BinaryServer;
  let session: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    server = await startBinary();
    session = await launchBrowser({ viewport: { width: 1280, height: 800 } });
  }, STEP_MS);

  afterAll(async () => {
    await session?.close();
    await server?.stop();
    server?.cleanup();
  });

  test("the slide frame is never shown at another size than the slide's, the canvas never as a blank 300×150, the counter never as – / –", async () => {
    const handoff = await presentPdf(server.url, deck, "Skeleton.pdf");
    const page: Page = session.page;
    await page.addInitScript(() => {
      if (!location.pathname.startsWith("/present/")) return;
      type Frame = { state: string; ratio: number; canvasVisible: boolean; canvas: string; expected: string; counter: string };
      const seen: Frame[] = [];
      /** 32×18 grey levels of the canvas: what it shows, comparable across sizes. */
      const signature = (canvas: HTMLCanvasElement) => {
        const small = document.createElement("canvas");
        small.width = 32;
        small.height = 18;
        const ctx = small.getContext("2d", { willReadFrequently: true })!;
        ctx.drawImage(canvas, 0, 0, 32, 18);
        const data = ctx.getImageData(0, 0, 32, 18).data;
        const grey: number[] = [];
        for (let i = 0; i < data.length; i += 4) grey.push(Math.round((data[i]! + data[i + 1]! + data[i + 2]!) / 3));
        return grey;
      };
      const w = window as unknown as { __frames: Frame[]; __prepainted?: number[]; __signature: typeof signature };
      w.__frames = seen;
      w.__signature = signature;
      const watch = () => {
        const frame = document.querySelector<HTMLElement>("#current-frame");
        const canvas = document.querySelector<HTMLCanvasElement>("#current");
        if (frame && canvas) {
          const r = frame.getBoundingClientRect();
          const visible = getComputedStyle(frame).visibility !== "hidden" && r.width > 0;
          if (visible) {
            const dpr = Math.min(window.devicePixelRatio || 1, 3);
            seen.push({
              state: frame.dataset.state ?? "",
              ratio: r.width / r.height,
              canvasVisible: getComputedStyle(canvas).visibility !== "hidden",
              canvas: `${canvas.width}×${canvas.height}`,
              expected: `${Math.round(r.width * dpr)}×${Math.round(r.height * dpr)}`,
              counter: document.querySelector("#counter")?.textContent?.trim() ?? "",
            });
            if (frame.dataset.state === "prepainted" && !w.__prepainted) w.__prepainted = signature(canvas);
          }
        }
        if (document.body?.dataset.ready !== "true") requestAnimationFrame(watch);
      };
      requestAnimationFrame(watch);
    });
    await claimHeldBack(page, handoff.url);
    const frames = await page.evaluate(() => (window as unknown as { __frames: { state: string; ratio: number; canvasVisible: boolean; canvas: string; expected: string; counter: string }[] }).__frames);
    expect(frames.length).toBeGreaterThan(0);
    // The first visible frame is the skeleton at the final size, or already the first slide
    // as the claim rendered it (lib/first-slide) — mupdf has not rendered in this page yet.
    expect(["skeleton", "prepainted"]).toContain(frames[0]!.state);
    for (const f of frames) {
      expect(Math.abs(f.ratio - PAGE.w / PAGE.h)).toBeLessThan(0.02);
      expect(f.counter).toMatch(/^1 \/ 6$/);
      if (f.canvasVisible) expect(f.canvas).not.toBe("300×150");
    }
    // The claim handed its picture of slide 1 over and the presenter painted it before its own
    // render, at the frame's device pixels (never a blurred smaller picture)...
    const prepainted = frames.filter((f) => f.state === "prepainted");
    expect(prepainted.length).toBeGreaterThan(0);
    for (const f of prepainted) expect(f.canvas).toBe(f.expected);
    expect(frames.findIndex((f) => f.state === "prepainted")).toBeLessThan(frames.findIndex((f) => f.state === "painted") === -1 ? Infinity : frames.findIndex((f) => f.state === "painted"));
    const metrics = await page.evaluate(() => (window as unknown as { __deckhand: { metrics: { prepaintMs?: number; firstPaintMs?: number; phases?: { claimMs?: number } } } }).__deckhand.metrics);
    expect(metrics.phases?.claimMs).toBeGreaterThan(2_000); // the held-back confirmation
    expect(metrics.prepaintMs).toBeLessThan(metrics.firstPaintMs!);
    // ...and it showed the same slide as mupdf's render that replaced it (grey levels of a
    // 32×18 reduction differ by a few steps at most, from the different scaling).
    const compared = await page.evaluate(() => {
      const w = window as unknown as { __prepainted: number[]; __signature: (c: HTMLCanvasElement) => number[] };
      const now = w.__signature(document.querySelector<HTMLCanvasElement>("#current")!);
      const diff = now.reduce((sum, v, i) => sum + Math.abs(v - w.__prepainted[i]!), 0) / now.length;
      const spread = Math.max(...now) - Math.min(...now);
      return { diff, spread };
    });
    expect(compared.spread).toBeGreaterThan(40); // a slide with content, not a blank
    expect(compared.diff).toBeLessThan(6);
    await page.screenshot({ path: join(OUTPUT, "stage-pages", "first-paint-ready.png") });
    // The picture is taken once: a reload renders with mupdf only.
    await page.reload();
    await page.waitForSelector("body[data-ready='true']", { timeout: 45_000 });
    const again = await page.evaluate(() => (window as unknown as { __deckhand: { metrics: { prepaintMs?: number; firstPaintMs?: number } } }).__deckhand.metrics);
    expect(again.firstPaintMs).toBeGreaterThan(0);
    expect(again.prepaintMs).toBeUndefined();
    expect(await page.evaluate(() => sessionStorage.getItem("dh:first-slide"))).toBeNull();
  }, STEP_MS);

  test("a deck claimed again resumes at its slide and never flashes slide 1: the claim leaves no picture then", async () => {
    const page: Page = session.page;
    // Present slide 3 of the deck claimed above (this browser keeps its progress)...
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await page.waitForSelector("body[data-slide='3']", { timeout: 10_000 });
    const deckId = page.url().split("/").pop()!;
    await page.waitForFunction(async (id: string) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open("deckhand");
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      const progress = await new Promise<{ slide?: number } | undefined>((resolve) => {
        const req = db.transaction("progress").objectStore("progress").get(id);
        req.onsuccess = () => resolve(req.result);
      });
      db.close();
      return progress?.slide === 3;
    }, deckId, { timeout: 10_000 });
    // ...then claim a new link of the same deck, its confirmation held back so that a picture
    // would surely have been made by then. The start page never shows slide 1 either.
    await page.addInitScript(() => {
      if (!location.pathname.startsWith("/start/")) return;
      new MutationObserver(() => {
        if (document.body.dataset.preview) sessionStorage.setItem("test:preview-shown", "yes");
      }).observe(document.documentElement, { attributes: true, subtree: true, attributeFilter: ["data-preview"] });
    });
    const handoff = await presentPdf(server.url, deck, "Skeleton.pdf");
    await claimHeldBack(page, handoff.url);
    expect(await page.evaluate(() => sessionStorage.getItem("test:preview-shown"))).toBeNull();
    expect(page.url()).toEndWith(`/present/${deckId}`);
    const metrics = await page.evaluate(() => (window as unknown as { __deckhand: { metrics: { prepaintMs?: number; phases?: { claimMs?: number } } } }).__deckhand.metrics);
    expect(metrics.phases?.claimMs).toBeGreaterThan(2_000);
    expect(metrics.prepaintMs).toBeUndefined();
    const frames = await page.evaluate(() => (window as unknown as { __frames: { state: string; counter: string }[] }).__frames);
    expect(frames.filter((f) => f.state === "prepainted")).toEqual([]);
    for (const f of frames) expect(f.counter).not.toMatch(/^1 \//);
    expect(await page.evaluate(() => document.body.dataset.slide)).toBe("3");
  }, STEP_MS);

  test("the side column is laid out before its previews are drawn: the next slide is sized, rendered and painted once (a deck with builds and a duration)", async () => {
    // The step box (the deck has builds) and the countdown and pace line (its .pdfpc gives 20
    // minutes) each take height from the next slide. Drawn before them, its frame took three
    // sizes in the first second and the render worker rendered it at each.
    const page = await session.context.newPage();
    // A laptop's screen, where the column is tall enough for the previews to follow its rows.
    await page.setViewportSize({ width: 1440, height: 900 });
    try {
      await page.addInitScript(() => {
        if (!location.pathname.startsWith("/present/")) return;
        const seen = { frame: [] as string[], painted: [] as number[], rendered: [] as number[] };
        (window as unknown as { __column: typeof seen }).__column = seen;
        // What the page asks of its render worker: the next slide's preview asks at priority 90.
        const post = Worker.prototype.postMessage;
        Worker.prototype.postMessage = function (this: Worker, message: { type?: string; priority?: number; width?: number }, ...rest: unknown[]) {
          if (message?.type === "render" && message.priority === 90) seen.rendered.push(Math.round(message.width ?? 0));
          return (post as (...args: unknown[]) => void).call(this, message, ...rest);
        } as typeof Worker.prototype.postMessage;
        new MutationObserver((changes) => {
          for (const change of changes) {
            const target = change.target as HTMLElement;
            if (target.id === "next" && change.attributeName === "width") seen.painted.push((target as HTMLCanvasElement).width);
            if (target.id === "next-frame" && change.attributeName === "style" && target.style.width && seen.frame.at(-1) !== target.style.width) seen.frame.push(target.style.width);
          }
        }).observe(document, { attributes: true, subtree: true, attributeFilter: ["width", "style"] });
      });
      const handoff = await presentPdf(server.url, await makeToolsDeck(), "Column.pdf");
      await page.goto(handoff.url);
      await page.waitForSelector("body[data-ready='true'][data-extras='ready']", { timeout: 45_000 });
      // Until the next slide is painted at the device pixels of its box as it finally stands.
      await page.waitForFunction(() => {
        const frame = document.querySelector<HTMLElement>("#next-frame")!;
        const canvas = document.querySelector<HTMLCanvasElement>("#next")!;
        return frame.dataset.state === "painted" && Math.abs(canvas.width - frame.getBoundingClientRect().width * Math.min(window.devicePixelRatio || 1, 3)) <= 2;
      }, null, { timeout: 20_000 });
      const column = await page.evaluate(() => ({
        stepBox: !document.querySelector<HTMLElement>("#step-box")!.hidden,
        countdown: !document.querySelector<HTMLElement>("#countdown-box")!.hidden,
        pace: !document.querySelector<HTMLElement>("#pace-box")!.hidden,
        ...(window as unknown as { __column: { frame: string[]; painted: number[]; rendered: number[] } }).__column,
      }));
      expect({ stepBox: column.stepBox, countdown: column.countdown, pace: column.pace }).toEqual({ stepBox: true, countdown: true, pace: true });
      expect({ frame: column.frame.length, rendered: column.rendered.length, painted: column.painted.length }).toEqual({ frame: 1, rendered: 1, painted: 1 });
      expect(column.rendered[0]).toBe(column.painted[0]!);
      await page.screenshot({ path: join(OUTPUT, "stage-pages", "side-column-laid-out.png") });
    } finally {
      await page.close();
    }
  }, STEP_MS);
});
