/**
 * Stage tools end to end, against the compiled binary. Every engine
 * (Chromium, Firefox ESR, WebKit) runs the pen, pointer and zoom path: a laser dot and ink
 * drawn with the real mouse in the presenter appear on the audience window — its pixels are
 * compared before, after, and after `c` — a zoom is re-rendered sharp by mupdf on both
 * windows, and the ink is back after a reload with the server stopped. Chromium also runs the
 * other tools: spotlight and eraser, freeze and unfreeze, go to / bookmark / history,
 * the exported PDF (read back with pdf-lib: Ink annotations on the right pages), a remapped
 * key that works while the old one no longer does, the layout kept across a reload, the
 * rehearsal table and its CSV, and axe on the new panels. Screenshots of each mode, the
 * layout editor, the key editor and the slide times go to test-output/stage-tools/<engine>/.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { decode } from "fast-png";
import { PDFArray, PDFDict, PDFDocument, PDFName } from "pdf-lib";
import { seriousViolations } from "../helpers/axe.ts";
import { engineSuite, presentPdf } from "../helpers/e2e-suite.ts";
import { ENGINES, type EnginePage } from "../helpers/engine.ts";
import { catchDownloads, downloaded } from "../helpers/downloads.ts";
import { audiencePainted, openAudience, pressToPage, waitReady } from "../helpers/stage.ts";
import { OUTPUT } from "../fixtures/stage-deck.ts";
import { makeToolsDeck, TOOLS_LABELS } from "../fixtures/tools-deck.ts";
import { readUntil } from "../helpers/wait.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

const STEP_MS = 180_000;
const it = (name: string, fn: () => Promise<void>) => test(name, fn, STEP_MS);

interface Image {
  width: number;
  height: number;
  channels: number;
  data: Uint8Array | Uint8ClampedArray | Uint16Array;
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The on-screen box of an element, in viewport CSS pixels. */
const boxOf = (page: EnginePage, selector: string) =>
  page.evaluate((s: string) => {
    const r = document.querySelector(s)!.getBoundingClientRect();
    return { x: r.x, y: r.y, w: r.width, h: r.height, dpr: window.devicePixelRatio };
  }, selector);

async function capture(page: EnginePage, file: string): Promise<Image> {
  await page.screenshot(file);
  return decode(readFileSync(file)) as Image;
}

/**
 * A screenshot once `ok` holds for it, or the last one after a few seconds (the assertions
 * that follow then fail on it). WebKit's screenshot of a window that was not in front can show
 * a frame from before the latest paint; the page's own state is already awaited by then.
 */
function captureWhen(page: EnginePage, file: string, ok: (img: Image) => boolean): Promise<Image> {
  return readUntil(() => capture(page, file), ok, 6000);
}

/** Pixels inside `box` (CSS px; the screenshot is at the page's device pixel ratio) that differ clearly. */
function changedPixels(a: Image, b: Image, box: Box, dpr: number): number {
  let changed = 0;
  const x0 = Math.max(0, Math.floor(box.x * dpr));
  const y0 = Math.max(0, Math.floor(box.y * dpr));
  const x1 = Math.min(a.width, b.width, Math.ceil((box.x + box.w) * dpr));
  const y1 = Math.min(a.height, b.height, Math.ceil((box.y + box.h) * dpr));
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * a.width + x) * a.channels;
      const j = (y * b.width + x) * b.channels;
      if (Math.abs(a.data[i]! - b.data[j]!) + Math.abs(a.data[i + 1]! - b.data[j + 1]!) + Math.abs(a.data[i + 2]! - b.data[j + 2]!) > 60) changed++;
    }
  }
  return changed;
}

/** Whether the pixel at CSS (x, y) is clearly red (the laser dot's core ring, the red pen). */
function isRed(img: Image, x: number, y: number, dpr: number, radius = 3): boolean {
  for (let dy = -radius; dy <= radius; dy++) {
    for (let dx = -radius; dx <= radius; dx++) {
      const i = (Math.round(y * dpr + dy) * img.width + Math.round(x * dpr + dx)) * img.channels;
      const [r, g, b] = [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
      if (r > 170 && g < 110 && b < 120) return true;
    }
  }
  return false;
}

/** Mean brightness of a box: the spotlight dims everything but its circle. */
function brightness(img: Image, box: Box, dpr: number): number {
  let sum = 0;
  let n = 0;
  for (let y = Math.floor(box.y * dpr); y < Math.floor((box.y + box.h) * dpr); y += 2) {
    for (let x = Math.floor(box.x * dpr); x < Math.floor((box.x + box.w) * dpr); x += 2) {
      const i = (y * img.width + x) * img.channels;
      sum += (img.data[i]! + img.data[i + 1]! + img.data[i + 2]!) / 3;
      n++;
    }
  }
  return sum / Math.max(1, n);
}

for (const name of ENGINES) {
  const full = name === "chromium";
  describe(`stage tools in ${name}`, () => {
    const shots = join(OUTPUT, "stage-tools", name);
    const suite = engineSuite(name, { shots, launch: { viewport: { width: 1440, height: 900 } }, timeoutMs: STEP_MS });
    const presenter = suite.page;
    let audience: EnginePage;
    let deckId = "";
    const file = (n: string) => join(shots, `${n}.png`);
    const shot = (page: EnginePage, n: string) => page.screenshot(file(n));

    /** A point on the presenter's current slide, as fractions of its width and height. */
    async function at(fx: number, fy: number): Promise<{ x: number; y: number }> {
      const b = await boxOf(presenter, "#current-frame");
      return { x: b.x + fx * b.w, y: b.y + fy * b.h };
    }

    /** Draw a stroke on the presenter's slide through these fractional points. */
    async function stroke(points: [number, number][]) {
      const steps: Parameters<EnginePage["mouse"]>[0][number][] = [];
      const first = await at(...points[0]!);
      steps.push({ type: "move", ...first }, { type: "down" });
      for (let i = 1; i < points.length; i++) {
        const [ax, ay] = points[i - 1]!;
        const [bx, by] = points[i]!;
        for (let k = 1; k <= 6; k++) steps.push({ type: "move", ...(await at(ax + ((bx - ax) * k) / 6, ay + ((by - ay) * k) / 6)) });
      }
      steps.push({ type: "up" });
      await presenter.mouse(steps);
    }

    const audienceInk = (n: number) => audience.waitFor(`${n} strokes on the audience`, (c: number) => document.body.dataset.ink === String(c) && document.querySelector("#frame")?.getAttribute("data-ink") === String(c), [n]);
    const presenterInk = (n: number) => presenter.waitFor(`${n} strokes on the presenter`, (c: number) => document.querySelector("#current-frame")?.getAttribute("data-ink") === String(c), [n]);
    const audienceAt = (page: number) => audiencePainted(audience, page);
    const go = (chord: string, page: number) => pressToPage(presenter, chord, page);
    /** Let the audience paint the latest message (a frame or two) before a screenshot. */
    const settle = () => audience.evaluate(() => new Promise<boolean>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))));

    /**
     * What was just pressed in `from` left the audience's screen unblanked. Not a pause and a
     * look, which passes whenever the audience is slow: a page move pressed next in the same
     * window goes the same way (one BroadcastChannel, whose messages from one sender arrive in
     * order, each applied as it comes), so once the audience shows the moved page, the earlier
     * press has had every effect it will have — and a move keeps a black screen black. The
     * move is undone after.
     */
    async function notBlankedBy(from: EnginePage) {
      const page = Number(await audience.evaluate(() => document.body.dataset.slide));
      const forward = page < TOOLS_LABELS.length;
      await from.press(forward ? "ArrowRight" : "ArrowLeft");
      await audienceAt(forward ? page + 1 : page - 1);
      expect(await audience.evaluate(() => document.body.dataset.blank)).toBe("none");
      await from.press(forward ? "ArrowLeft" : "ArrowRight");
      await audienceAt(page);
    }


    it("claims the deck and opens presenter and audience; the toolbox names every tool", async () => {
      const handoff = await presentPdf(suite.server.url, await makeToolsDeckBytes(), "Stage tools.pdf");
      await presenter.goto(handoff.url);
      await waitReady(presenter, "the presenter", 45_000);
      deckId = (await presenter.href()).split("/").pop()!;
      const tools = await presenter.evaluate(() => Array.from(document.querySelectorAll("#toolbox button")).map((b) => b.textContent?.trim()).filter(Boolean));
      for (const label of ["Normal", "Pointer", "Pen", "Eraser", "Spotlight", "Clear", "Undo", "Redo"]) expect(tools).toContain(label);
      audience = await suite.engine.newPage();
      await openAudience(audience, suite.server.url, deckId);
      await presenter.waitFor("the notes and timer", () => document.body.dataset.extras === "ready");
      await shot(presenter, "01-mode-normal-presenter");
      await shot(audience, "01-mode-normal-audience");
    });

    it("pointer: the laser dot follows the mouse in the presenter and shows at the same place on the audience window", async () => {
      const before = await capture(audience, file("02-audience-before-pointer"));
      await presenter.press("l");
      await presenter.waitFor("pointer mode", () => document.body.dataset.mode === "pointer");
      const p = await at(0.2, 0.3);
      await presenter.mouse([{ type: "move", x: p.x - 30, y: p.y }, { type: "move", x: p.x, y: p.y }]);
      await audience.waitFor("the laser on the audience", () => !document.querySelector(".laser")!.hasAttribute("hidden"));
      await settle();
      const frame = await boxOf(audience, "#frame");
      const after = await captureWhen(audience, file("02-mode-pointer-audience"), (img) => isRed(img, frame.x + 0.2 * frame.w, frame.y + 0.3 * frame.h, frame.dpr, 6));
      await shot(presenter, "02-mode-pointer-presenter");
      expect(changedPixels(before, after, frame, frame.dpr)).toBeGreaterThan(20);
      // Same place: 20% across, 30% down the audience's slide (not the presenter's).
      expect(isRed(after, frame.x + 0.2 * frame.w, frame.y + 0.3 * frame.h, frame.dpr, 6)).toBe(true);
      expect(isRed(before, frame.x + 0.2 * frame.w, frame.y + 0.3 * frame.h, frame.dpr, 6)).toBe(false);
      // Off the slide, the dot is gone from the audience.
      await presenter.mouse([{ type: "move", x: 5, y: 5 }]);
      await audience.waitFor("the laser gone", () => document.querySelector(".laser")!.hasAttribute("hidden"));
    });

    it("pen: ink drawn in the presenter appears on the audience window; c clears it back to the bare slide", async () => {
      await presenter.press("Escape");
      await presenter.press("i");
      await presenter.waitFor("pen mode", () => document.body.dataset.mode === "pen");
      await settle();
      const frame = await boxOf(audience, "#frame");
      const before = await capture(audience, file("03-audience-before-ink"));
      await stroke([[0.15, 0.55], [0.45, 0.75], [0.75, 0.55]]);
      await presenterInk(1);
      await audienceInk(1);
      await settle();
      const after = await captureWhen(audience, file("03-mode-pen-audience"), (img) => changedPixels(before, img, frame, frame.dpr) > 200);
      await shot(presenter, "03-mode-pen-presenter");
      expect(changedPixels(before, after, frame, frame.dpr)).toBeGreaterThan(200);
      // Halfway along the first leg of the V (a corner is rounded by the pen's smoothing).
      expect(isRed(after, frame.x + 0.3 * frame.w, frame.y + 0.65 * frame.h, frame.dpr, 4)).toBe(true);
      // Pressing c while the pen is in hand clears this slide's ink on both windows.
      await presenter.press("c");
      await audienceInk(0);
      await settle();
      const cleared = await captureWhen(audience, file("03-audience-after-clear"), (img) => changedPixels(before, img, frame, frame.dpr) < 10);
      expect(changedPixels(before, cleared, frame, frame.dpr)).toBeLessThan(10);
      // Undo brings it back (Ctrl+Z), redo takes it again (Ctrl+Y); then one stroke stays for later.
      await presenter.press("Ctrl+z");
      await audienceInk(1);
      await presenter.press("Ctrl+y");
      await audienceInk(0);
      await stroke([[0.1, 0.9], [0.3, 0.85]]);
      await audienceInk(1);
    });

    it("zoom: z and a drag zoom both windows into the region, re-rendered sharp by mupdf; Esc returns", async () => {
      await go("End", 4);
      await audienceAt(4);
      await presenter.press("z");
      await presenter.waitFor("choosing a zoom region", () => document.body.dataset.zoomSelect === "true");
      const from = await at(0.05, 0.35);
      const to = await at(0.45, 0.65);
      await presenter.mouse([{ type: "move", ...from }, { type: "down" }, { type: "move", x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 }, { type: "move", ...to }, { type: "up" }]);
      for (const page of [presenter, audience]) {
        await page.waitFor("a zoomed, painted slide", () => {
          const frame = document.querySelector("#frame, #current-frame")!;
          return (frame.getAttribute("data-zoom") ?? "") !== "" && frame.getAttribute("data-state") === "painted";
        });
      }
      // Sharp: the canvas holds as many pixels as the frame shows (mupdf drew the region at
      // full size), not the page's pixels stretched.
      const sharp = await audience.evaluate(() => {
        const c = document.querySelector<HTMLCanvasElement>("#slide")!;
        return { bitmap: c.width, css: c.getBoundingClientRect().width * window.devicePixelRatio, zoom: document.querySelector("#frame")!.getAttribute("data-zoom") };
      });
      expect(Math.abs(sharp.bitmap - sharp.css)).toBeLessThan(4);
      const [zx, , zw] = sharp.zoom!.split(",").map(Number);
      expect(zw).toBeLessThan(720 / 2);
      expect(zx).toBeGreaterThanOrEqual(0);
      await shot(presenter, "04-zoom-presenter");
      await shot(audience, "04-zoom-audience");
      await presenter.press("Escape");
      await audience.waitFor("the whole slide again", () => document.querySelector("#frame")!.getAttribute("data-zoom") === "" && document.querySelector("#frame")!.getAttribute("data-state") === "painted");
      await go("Home", 1);
      await audienceAt(1);
      await audienceInk(1);
    });

    it("the ink is back after a reload of both windows with the server stopped", async () => {
      await presenter.waitFor("the ink stored", () => document.body.dataset.savedInk === "1");
      await suite.server.stop();
      for (const page of [presenter, audience]) await page.goto(await page.href());
      await waitReady(presenter, "the presenter offline", 45_000);
      await waitReady(audience, "the audience offline", 45_000);
      await presenterInk(1);
      await audienceAt(1);
      await audienceInk(1);
      await settle();
      const frame = await boxOf(audience, "#frame");
      const img = await captureWhen(audience, file("05-audience-ink-after-offline-reload"), (i) => isRed(i, frame.x + 0.2 * frame.w, frame.y + 0.875 * frame.h, frame.dpr, 6));
      expect(isRed(img, frame.x + 0.2 * frame.w, frame.y + 0.875 * frame.h, frame.dpr, 6)).toBe(true);
    });

    if (!full) return;

    it("spotlight dims all but a circle on the audience; the eraser wipes a stroke", async () => {
      await presenter.press("x");
      const p = await at(0.5, 0.5);
      await presenter.mouse([{ type: "move", x: p.x - 10, y: p.y }, { type: "move", ...p }]);
      await audience.waitFor("the spotlight", () => !document.querySelector(".spotlight")!.hasAttribute("hidden"));
      await settle();
      const frame = await boxOf(audience, "#frame");
      const dimmed = (i: Image) => brightness(i, { x: frame.x + 5, y: frame.y + 5, w: 60, h: 40 }, frame.dpr) < 0.5 * brightness(i, { x: frame.x + frame.w / 2 - 20, y: frame.y + frame.h / 2 - 10, w: 40, h: 20 }, frame.dpr);
      const img = await captureWhen(audience, file("06-mode-spotlight-audience"), dimmed);
      await shot(presenter, "06-mode-spotlight-presenter");
      const corner = brightness(img, { x: frame.x + 5, y: frame.y + 5, w: 60, h: 40 }, frame.dpr);
      const centre = brightness(img, { x: frame.x + frame.w / 2 - 20, y: frame.y + frame.h / 2 - 10, w: 40, h: 20 }, frame.dpr);
      expect(corner).toBeLessThan(centre * 0.5);
      await presenter.press("e");
      await presenter.waitFor("eraser mode", () => document.body.dataset.mode === "eraser");
      await stroke([[0.2, 0.95], [0.2, 0.8]]);
      await audienceInk(0);
      await shot(presenter, "07-mode-eraser-presenter");
      await presenter.press("Ctrl+z");
      await audienceInk(1);
    });

    it("freeze: the audience keeps its picture while the presenter moves on; unfreezing jumps it to the presenter's slide; black works meanwhile", async () => {
      await presenter.press("Escape");
      await presenter.press("f");
      await presenter.waitFor("frozen", () => document.body.dataset.frozen === "true");
      await go("ArrowRight", 2);
      await go("ArrowRight", 3);
      await presenter.press("b");
      await audience.waitFor("black over the frozen picture", () => document.body.dataset.blank === "black");
      // Black was sent after both moves, on the same ordered channel: the moves have reached the audience too, and left it on page 1.
      expect(await audience.evaluate(() => document.body.dataset.slide)).toBe("1");
      await presenter.press("b");
      await shot(presenter, "08-freeze-presenter");
      await presenter.press("f");
      await audienceAt(3);
    });

    it("g asks for a label and jumps; m bookmarks and Shift+M returns; Shift+Backspace goes back in history", async () => {
      await presenter.press("m");
      await presenter.press("g");
      await presenter.waitFor("the go-to box", () => document.activeElement?.id === "goto-input");
      await presenter.evaluate(() => {
        (document.querySelector("#goto-input") as HTMLInputElement).value = "3";
      });
      await presenter.press("Enter");
      await presenter.waitFor("slide 3 (page 4)", () => document.body.dataset.slide === "4" && document.querySelector("#goto-panel")!.hasAttribute("hidden"));
      await go("Shift+m", 3);
      await go("Shift+Backspace", 4);
      await go("Shift+Backspace", 3);
      await audienceAt(3);
    });

    it("export: the deck as it came, and with the ink as PDF Ink annotations on the right pages (read back with pdf-lib)", async () => {
      await go("ArrowRight", 4);
      await presenter.press("i");
      await stroke([[0.6, 0.2], [0.8, 0.3]]);
      await presenterInk(1);
      await catchDownloads(presenter);
      await presenter.press("Shift+e");
      await presenter.waitFor("the download panel", () => !document.querySelector("#export-panel")!.hasAttribute("hidden"));
      await shot(presenter, "09-export-panel");
      await expectNoSeriousA11y(presenter, "download panel");
      await presenter.click("#export-original");
      await presenter.waitFor("the original offered", () => (window as unknown as { __downloads: unknown[] }).__downloads.length === 1);
      await presenter.click("#export-ink");
      await presenter.waitFor("the inked copy offered", () => (window as unknown as { __downloads: unknown[] }).__downloads.length === 2, [], 30_000);
      const original = await downloaded(presenter, 0);
      const inked = await downloaded(presenter, 1);
      expect(original.name).toBe("Stage tools.pdf");
      expect(inked.name).toBe("Stage tools (with ink).pdf");
      expect(original.bytes.equals(Buffer.from(await makeToolsDeckBytes()))).toBe(true);
      const doc = await PDFDocument.load(inked.bytes);
      const inkOn = (i: number) => (doc.getPage(i).node.Annots()?.asArray() ?? []).map((r) => doc.context.lookup(r) as PDFDict).filter((a) => a.get(PDFName.of("Subtype"))?.toString() === "/Ink");
      expect([0, 1, 2, 3].map((i) => inkOn(i).length)).toEqual([1, 0, 0, 1]);
      // Page 4's stroke runs from 60% to 80% across, 20% to 30% down (y up in PDF space).
      const list = (inkOn(3)[0]!.get(PDFName.of("InkList")) as PDFArray).asArray()[0] as PDFArray;
      const xs = list.asArray().filter((_, i) => i % 2 === 0).map(Number);
      const ys = list.asArray().filter((_, i) => i % 2 === 1).map(Number);
      expect(Math.min(...xs)).toBeGreaterThan(0.55 * 720);
      expect(Math.max(...xs)).toBeLessThan(0.85 * 720);
      expect(Math.max(...ys)).toBeLessThan(405 - 0.15 * 405);
      await presenter.press("Escape");
    });

    it("export from the library: the same deck with the ink kept in this browser, offline", async () => {
      const library = await suite.engine.newPage();
      await library.goto(`${suite.server.url}/`);
      await waitReady(library, "the library (offline: the server is stopped)", 30_000);
      await catchDownloads(library);
      await library.click(`li[data-deck="${deckId}"] summary`);
      await library.click(`li[data-deck="${deckId}"] [data-download="ink"]`);
      await library.waitFor("the inked copy offered", () => (window as unknown as { __downloads: unknown[] }).__downloads.length === 1, [], 30_000);
      await library.screenshot(file("09b-library-download-menu"));
      const inked = await downloaded(library, 0);
      expect(inked.name).toBe("Stage tools (with ink).pdf");
      const doc = await PDFDocument.load(inked.bytes);
      const inks = [0, 1, 2, 3].map((i) => (doc.getPage(i).node.Annots()?.asArray() ?? []).filter((r) => (doc.context.lookup(r) as PDFDict).get(PDFName.of("Subtype"))?.toString() === "/Ink").length);
      expect(inks).toEqual([1, 0, 0, 1]);
      await library.close();
    });

    it("displays: with two screens (the Window Management API, stood in for here: this machine has one display) the audience window covers the other screen; swap exchanges them; the wake lock is asked for", async () => {
      // The browser's own answer about the wake lock: "on", or "refused" where a headless
      // window may not hold one — never missing.
      expect(["on", "refused"]).toContain(await presenter.evaluate(() => document.body.dataset.wakeLock ?? "missing"));
      await presenter.evaluate(() => {
        const laptop = { availLeft: 0, availTop: 0, availWidth: 1440, availHeight: 900, isPrimary: true, label: "Built-in" };
        const projector = { availLeft: 1440, availTop: 0, availWidth: 1920, availHeight: 1080, isPrimary: false, label: "Projector" };
        const w = window as unknown as { __placed: unknown[]; getScreenDetails: () => Promise<unknown> };
        w.__placed = [];
        w.getScreenDetails = async () => ({ screens: [laptop, projector], currentScreen: laptop });
        const fake = {
          closed: false,
          screenX: 1500,
          screenY: 10,
          outerWidth: 1280,
          outerHeight: 720,
          moveTo: (x: number, y: number) => w.__placed.push(["moveTo", x, y]),
          resizeTo: (x: number, y: number) => w.__placed.push(["resizeTo", x, y]),
          postMessage: (m: unknown) => w.__placed.push(["postMessage", m]),
        };
        window.open = ((url: string, _name: string, features: string) => {
          w.__placed.push(["open", url.replace(/^.*\/view\//, "/view/"), features]);
          return fake;
        }) as unknown as typeof window.open;
        navigator.permissions.query = (async () => ({ state: "granted" })) as never;
      });
      await presenter.click("#btn-audience");
      await presenter.waitFor("placed on the projector", () => document.body.dataset.audienceScreen === "Projector");
      const placed = await presenter.evaluate(() => (window as unknown as { __placed: unknown[] }).__placed);
      expect(placed).toEqual([
        ["open", `/view/${deckId}`, "popup,width=1280,height=720"],
        ["moveTo", 1440, 0],
        ["resizeTo", 1920, 1080],
        ["postMessage", { type: "deckhand-fullscreen" }],
      ]);
      // Swap: the audience window comes to the presenter's screen.
      await presenter.evaluate(() => ((window as unknown as { __placed: unknown[] }).__placed.length = 0));
      await presenter.press("Shift+a");
      await presenter.waitFor("the audience moved to the laptop", () => (window as unknown as { __placed: unknown[][] }).__placed.some((p) => p[0] === "moveTo" && p[1] === 0));
      expect(await presenter.evaluate(() => (window as unknown as { __placed: unknown[] }).__placed.slice(0, 2))).toEqual([["moveTo", 0, 0], ["resizeTo", 1440, 900]]);
    });

    it("keys: `?` shows the live map; a remapped key works and the old one no longer does, also after a reload; a conflict is refused", async () => {
      await presenter.press("?");
      await presenter.waitFor("the key editor", () => !document.querySelector("#help")!.hasAttribute("hidden"));
      await shot(presenter, "10-key-editor");
      await expectNoSeriousA11y(presenter, "key editor");
      // Black screen: drop B, add K.
      await presenter.click('#keys tr[data-binding="blackout"] button[data-remove="b"]');
      await presenter.click('#keys tr[data-binding="blackout"] button.key-add');
      await presenter.press("k");
      await presenter.waitFor("K listed for black", () => /K/.test(document.querySelector('#keys tr[data-binding="blackout"] .key-cell')?.textContent ?? ""));
      // F already freezes: refused, with the reason.
      await presenter.click('#keys tr[data-binding="whiteout"] button.key-add');
      await presenter.press("f");
      await presenter.waitFor("the conflict refused", () => /already does/.test(document.querySelector("#keys-status")?.textContent ?? ""));
      await presenter.press("Escape");
      await presenter.waitFor("the editor closed", () => document.querySelector("#help")!.hasAttribute("hidden"));
      await presenter.goto(await presenter.href());
      await waitReady(presenter, "the presenter after reload", 30_000);
      await presenter.press("b");
      await notBlankedBy(presenter);
      await presenter.press("k");
      await audience.waitFor("k blacks out", () => document.body.dataset.blank === "black");
      await presenter.press("k");
      await audience.waitFor("back", () => document.body.dataset.blank === "none");
      // The audience window follows the same map (a clicker pointed at it): B no longer, K yes.
      await audience.press("b");
      await notBlankedBy(audience);
      await audience.press("k");
      await audience.waitFor("the audience's K blacks out", () => document.body.dataset.blank === "black");
      await audience.press("k");
      await audience.waitFor("and back", () => document.body.dataset.blank === "none");
    });

    it("layout: a preset and a drag rearrange the presenter, kept across a reload; the editor is accessible", async () => {
      await presenter.click("#btn-layout");
      await presenter.waitFor("the layout editor", () => !document.querySelector("#layout-editor")!.hasAttribute("hidden"));
      await presenter.click('[data-preset="left"]');
      const split = await boxOf(presenter, ".splitter-v");
      const stage = await boxOf(presenter, "#main");
      await presenter.mouse([{ type: "move", x: split.x + split.w / 2, y: split.y + 100 }, { type: "down" }, { type: "move", x: stage.x + stage.w * 0.45, y: split.y + 120 }, { type: "move", x: stage.x + stage.w * 0.4, y: split.y + 120 }, { type: "up" }]);
      await presenter.waitFor("the column narrower", () => Math.abs(parseFloat(getComputedStyle(document.querySelector("#main")!).getPropertyValue("--current-width")) - 60) < 2);
      await shot(presenter, "11-layout-editor");
      await expectNoSeriousA11y(presenter, "layout editor");
      const before = await boxOf(presenter, ".current-pane");
      await presenter.goto(await presenter.href());
      await waitReady(presenter, "the presenter after reload", 30_000);
      const after = await boxOf(presenter, ".current-pane");
      expect(await presenter.evaluate(() => document.querySelector("#main")!.getAttribute("data-side"))).toBe("left");
      expect(Math.abs(after.x - before.x)).toBeLessThan(2);
      expect(Math.abs(after.w - before.w)).toBeLessThan(2);
      const side = await boxOf(presenter, ".side-pane");
      expect(side.x).toBeLessThan(after.x);
      // Light theme, then back to the default.
      await presenter.click("#btn-layout");
      await presenter.click('input[name="layout-theme"][value="light"]');
      await presenter.waitFor("light theme", () => document.documentElement.dataset.theme === "light");
      // Buttons fade to their new colours (0.15 s): shoot the settled page.
      await Bun.sleep(400);
      await shot(presenter, "12-layout-light-theme");
      await expectNoSeriousA11y(presenter, "light theme");
      await presenter.click("#layout-reset");
      await presenter.waitFor("default layout", () => document.querySelector("#main")!.getAttribute("data-side") === "right" && document.documentElement.dataset.theme === "dark");
      await presenter.press("Escape");
    });

    it("rehearsal: time per slide is recorded, shown in a table after the run and exported as CSV; the pdfpc countdown stays", async () => {
      await presenter.press("s");
      await go("Home", 1);
      await Bun.sleep(1200);
      await go("Shift+ArrowRight", 2);
      await Bun.sleep(600);
      await go("Shift+ArrowRight", 4);
      await presenter.press("Shift+t");
      await presenter.waitFor("the slide times", () => document.querySelectorAll("#times-table tbody tr").length === 3);
      await shot(presenter, "13-slide-times");
      await expectNoSeriousA11y(presenter, "slide times");
      expect(await presenter.evaluate(() => document.querySelector("#countdown-box")!.hasAttribute("hidden"))).toBe(false);
      await catchDownloads(presenter);
      await presenter.click("#times-csv");
      const file = await downloaded(presenter, 0);
      const csv = { name: file.name, text: file.bytes.toString("utf8") };
      expect(csv.name).toBe("Stage tools — slide times.csv");
      const rows = csv.text.trim().split("\r\n").map((l) => l.split(","));
      expect(rows[0]).toEqual(["slide", "label", "planned_seconds", "actual_seconds", "previous_run_seconds", "ran_long_in_rehearsal"]);
      expect(rows.map((r) => r[1])).toEqual(["label", "1", "2", "3"]);
      expect(Number(rows[1]![3])).toBeGreaterThanOrEqual(1);
      expect(Number(rows[2]![3])).toBeGreaterThanOrEqual(0.5);
      // No run before this one: the plan is the deck's 20 minutes, spread evenly over its 3 slides.
      expect(rows.slice(1).map((r) => r[2])).toEqual(["400.0", "400.0", "400.0"]);
      await presenter.press("Escape");
    });
  });
}

async function expectNoSeriousA11y(page: EnginePage, where: string) {
  expect({ where, violations: await seriousViolations(page) }).toEqual({ where, violations: [] });
}

let deckBytes: Uint8Array | null = null;
/** The fixture is deterministic in content but not in bytes (ids, dates): keep the one uploaded. */
async function makeToolsDeckBytes(): Promise<Uint8Array> {
  return (deckBytes ??= await makeToolsDeck());
}
