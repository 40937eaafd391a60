/**
 * Media that cannot reach their servers, and the timer across a closed presenter window, on
 * stage, in Chromium, Firefox ESR and WebKit, against the compiled binary.
 *
 * Media — behind a venue firewall (each engine's own proxy setting refuses every host off
 * this machine, so YouTube and Vimeo cannot load; the URL media's https origin is a closed
 * port): the audience window shows the PDF page at each medium's rectangle — read from a
 * screenshot: the printed placeholder's flat colour inside, no outline on its edge, no frame
 * or broken-page icon — and the presenter gets a tag that says what is known, not a guess.
 * In Chromium a stand-in YouTube player (routed) proves a player that answers is still shown.
 *
 * The timer across a closed presenter window, one rule: a timer that was running keeps
 * running. Closed within the grace (a reload; 40 s in Chromium on Playwright's clock) the gap is
 * counted; closed longer (135 s on Playwright's clock; 8 minutes and a day by moving the saved
 * record back, which is all the page can see of a gap) it goes on from what it showed when the
 * window was last seen, with a notice that never blocks (OK, Reset); slide times never book a
 * gap that was left out.
 *
 * Screenshots go to test-output/stage-media-timer/<engine>/.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { decode } from "fast-png";
import type { Page } from "playwright-core";
import { seriousViolations } from "../helpers/axe.ts";
import { PRESENCE_BEAT_MS } from "../../client/src/lib/timer.ts";
import { engineSuite, presentPdf } from "../helpers/e2e-suite.ts";
import { ENGINES, type Engine, type EnginePage } from "../helpers/engine.ts";
import { audiencePainted, openAudience, openPresenter, pressToPage, waitReady } from "../helpers/stage.ts";
import { freePort } from "../helpers/server.ts";
import { BLOCKED_PAGE, BLOCKED_RECTS, makeBlockedMediaDeck, PLACEHOLDER_RGB, type BlockedRect } from "../fixtures/blocked-media-deck.ts";
import { OUTPUT } from "../fixtures/stage-deck.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

/** Browser steps wait on real rendering and on embeds timing out; a loaded two-core machine is slow. */
const STEP_MS = 180_000;
const it = (name: string, fn: () => Promise<void>) => test(name, fn, STEP_MS);
/** An embed behind the firewall fails once its player has not answered (lib/embed-watch: 8 s after load, 30 s at most). */
const EMBED_FAIL_MS = 45_000;
const MINUTE = 60_000;

const visibleText = (page: EnginePage) => page.evaluate(() => document.body.innerText.trim());

/** "1:23" or "1:02:03" → seconds. */
function seconds(clock: string): number {
  return clock.split(":").reduce((total, part) => total * 60 + Number(part), 0);
}

/**
 * What the audience window shows at `rect` (PDF points), read from a screenshot: the fill
 * well inside the rectangle (its corners, clear of the caption) and the ring just inside its
 * edge, where an outline would be drawn.
 */
async function pixelsAt(page: EnginePage, file: string, rect: BlockedRect): Promise<{ fill: number[][]; ring: number[][] }> {
  await page.screenshot(file);
  const png = decode(readFileSync(file));
  const frame = await page.evaluate(() => {
    const r = document.querySelector("#frame")!.getBoundingClientRect();
    return { x: r.x, y: r.y, w: r.width, h: r.height, innerWidth };
  });
  const scale = png.width / frame.innerWidth;
  const at = (fx: number, fy: number) => {
    const x = Math.round((frame.x + (fx / BLOCKED_PAGE.w) * frame.w) * scale);
    const y = Math.round((frame.y + (fy / BLOCKED_PAGE.h) * frame.h) * scale);
    const i = (y * png.width + x) * png.channels;
    return [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
  };
  const { x_pt: x, y_pt: y, w_pt: w, h_pt: h } = rect;
  const inset = 0.12;
  const fill = [at(x + w * inset, y + h * inset), at(x + w * (1 - inset), y + h * inset), at(x + w * inset, y + h * 0.55), at(x + w * (1 - inset), y + h * 0.55)];
  // One CSS pixel inside the edge, in points: where a 2 px outline drawn inward would show.
  const px = BLOCKED_PAGE.w / frame.w;
  const ring: number[][] = [];
  for (let i = 1; i < 10; i++) {
    ring.push(at(x + (w * i) / 10, y + px), at(x + (w * i) / 10, y + h - px), at(x + px, y + (h * i) / 10), at(x + w - px, y + (h * i) / 10));
  }
  return { fill, ring };
}

const near = (rgb: number[], target: readonly number[], tolerance = 14) => rgb.every((v, i) => Math.abs(v - target[i]!) <= tolerance);
/** deckhand's presenter-only outline colour family (amber/orange). */
const orange = (rgb: number[]) => rgb[0]! > 170 && rgb[1]! > 70 && rgb[1]! < 170 && rgb[2]! < 90;

/** The audience window draws nothing of this medium: no box, no frame, no picture. */
function audienceDrawsNothing(audience: EnginePage, id: string) {
  return audience.evaluate((m: string) => {
    const box = document.querySelector<HTMLElement>(`[data-media='${m}']`);
    if (!box) return "no box";
    const style = getComputedStyle(box);
    const drawn = style.display !== "none" && style.visibility !== "hidden" && (box.childElementCount > 0 || style.outlineStyle !== "none");
    return drawn ? `drawn: ${box.outerHTML.slice(0, 200)} outline ${style.outlineStyle}` : "nothing";
  }, id);
}

const PRESENTER_TAG = (page: EnginePage, id: string) => page.evaluate((m: string) => document.querySelector(`[data-media='${m}'] .media-note`)?.textContent ?? "", id);

/**
 * Wait until a reopened presenter has settled: the deck's extras read and its URL media tried.
 * A refused medium then puts a notice above the stage, which moves every button below it; a
 * click computed before that lands where the button was (WebKit under load clicked beside
 * Reset, and the notice stayed).
 */
function settled(presenter: EnginePage) {
  return presenter.waitFor("the deck's extras and URL media settled", () => (document.body.dataset.extras === "ready" && document.body.dataset.urlMedia === "stored") || `extras ${document.body.dataset.extras}, URL media ${document.body.dataset.urlMedia}`, [], 30_000);
}

/** The progress record as if its window had closed `ms` earlier: what a gap looks like to the page. */
function moveProgressBack(page: EnginePage, deckId: string, ms: number) {
  return page.evaluate(
    async (id: string, back: number) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open("deckhand");
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      const tx = db.transaction("progress", "readwrite");
      const store = tx.objectStore("progress");
      const record = await new Promise<{ updatedAt: number; timer?: { status: string; startedAt: number | null } }>((resolve) => {
        const req = store.get(id);
        req.onsuccess = () => resolve(req.result);
      });
      record.updatedAt -= back;
      if (record.timer?.startedAt) record.timer.startedAt -= back;
      store.put(record);
      await new Promise((resolve) => (tx.oncomplete = resolve));
      db.close();
      return record.timer?.status ?? "none";
    },
    deckId,
    ms,
  );
}

/** What a failed check of a reopened timer needs to be explained: its notice, and the stored record as the page sees it now. */
function storedTimer(page: EnginePage, deckId: string): Promise<string> {
  return page.evaluate(async (id: string) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open("deckhand");
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const record = await new Promise<{ updatedAt?: number; timer?: unknown } | undefined>((resolve) => {
      const req = db.transaction("progress").objectStore("progress").get(id);
      req.onsuccess = () => resolve(req.result);
    });
    db.close();
    const now = Date.now();
    return `notice "${document.querySelector("#timer-away-text")?.textContent ?? "none"}"; stored ${record?.updatedAt ? Math.round((now - record.updatedAt) / 1000) : "?"} s ago: ${JSON.stringify(record?.timer)} (now ${now})`;
  }, deckId);
}

for (const name of ENGINES) {
  describe(`media and timer on stage in ${name}`, () => {
    let audience: EnginePage;
    let deckId = "";
    /** The https origin of the deck's URL media: a port nothing listens on. */
    let closedPort = 0;
    const shots = join(OUTPUT, "stage-media-timer", name);
    const shot = (page: EnginePage, file: string) => page.screenshot(join(shots, `${file}.png`));

    // Before the suite's own start: the engine's firewall proxy is this port.
    beforeAll(async () => {
      closedPort = await freePort();
    });
    const suite = engineSuite(name, { shots, launch: () => ({ viewport: { width: 1280, height: 800 }, refuseOffMachine: { closedPort } }), timeoutMs: STEP_MS });
    /** The presenter window: the timer's tests close it and open another. */
    let presenter = suite.page;

    it("claims the deck and opens the presenter and the audience window", async () => {
      const handoff = await presentPdf(suite.server.url, await makeBlockedMediaDeck(`https://127.0.0.1:${closedPort}`), "Blocked media.pdf");
      await openPresenter(presenter, handoff.url);
      deckId = (await presenter.href()).split("/").pop()!;
      audience = await suite.engine.newPage();
      await openAudience(audience, suite.server.url, deckId);
    });

    it("URL media from a refusing origin — the audience sees the PDF page at their rectangles; the presenter is told what is known", async () => {
      await pressToPage(presenter, "ArrowRight", 2);
      await audiencePainted(audience, 2);
      for (const id of ["gif", "video"] as const) {
        await audience.waitFor(`the audience's ${id} given up`, (m: string) => document.querySelector(`[data-media='${m}']`)?.getAttribute("data-state") === "failed", [id], 30_000);
        const { fill, ring } = await pixelsAt(audience, join(shots, `01-audience-failed-url-${id}.png`), BLOCKED_RECTS[id]);
        expect({ id, fill: fill.filter((p) => !near(p, PLACEHOLDER_RGB)) }).toEqual({ id, fill: [] });
        expect({ id, ring: ring.filter(orange) }).toEqual({ id, ring: [] });
        expect(await audienceDrawsNothing(audience, id)).toBe("nothing");
      }
      for (const id of ["gif", "video"]) {
        await presenter.waitFor(`the presenter's tag for ${id}`, (m: string) => /cannot play/.test(document.querySelector(`[data-media='${m}'] .media-note`)?.textContent ?? ""), [id], 30_000);
        const tag = await PRESENTER_TAG(presenter, id);
        expect(tag).toContain(`Loading it from 127.0.0.1:${closedPort} failed`);
        expect(tag).toContain("no copy is stored in this browser");
        // No guessed cause.
        expect(tag).not.toMatch(/does not allow|server cannot be reached/);
      }
      // The notice about offline copies says both things a failed fetch may be, not one guess.
      await presenter.waitFor("the offline-copy notice", () => /not kept for offline use/.test(document.querySelector("#url-media")?.textContent ?? ""), [], 30_000);
      expect(await presenter.evaluate(() => document.querySelector("#url-media")?.textContent ?? "")).toContain("did not answer, or does not let pages copy its files");
      expect(await visibleText(audience)).toBe("");
      await shot(presenter, "02-presenter-failed-url-media");
    });

    it("YouTube and Vimeo behind the firewall — hidden from the audience (no broken page), a tag for the presenter", async () => {
      await pressToPage(presenter, "ArrowRight", 3);
      await audiencePainted(audience, 3);
      // While the players have not spoken, neither window shows the frame.
      for (const page of [audience, presenter]) {
        expect(await page.evaluate(() => Array.from(document.querySelectorAll<HTMLIFrameElement>(".media-item iframe")).filter((f) => getComputedStyle(f).visibility !== "hidden").map((f) => f.title))).toEqual([]);
      }
      for (const [id, label, host] of [["yt", "YouTube video", "www.youtube-nocookie.com"], ["vimeo", "Vimeo video", "player.vimeo.com"]] as const) {
        await presenter.waitFor(`the presenter's tag for ${id}`, (m: string) => /cannot play/.test(document.querySelector(`[data-media='${m}'] .media-note`)?.textContent ?? ""), [id], EMBED_FAIL_MS);
        expect(await PRESENTER_TAG(presenter, id)).toBe(`${label} cannot play. Its player did not load from ${host}. The audience sees the slide.`);
        await audience.waitFor(`the audience's ${id} given up`, (m: string) => document.querySelector(`[data-media='${m}']`)?.getAttribute("data-embed") === "failed", [id], EMBED_FAIL_MS);
        expect(await audienceDrawsNothing(audience, id)).toBe("nothing");
        expect(await audience.evaluate((m: string) => document.querySelector(`[data-media='${m}'] iframe`), id)).toBeNull();
        const { fill, ring } = await pixelsAt(audience, join(shots, `03-audience-failed-${id}.png`), BLOCKED_RECTS[id]);
        expect({ id, fill: fill.filter((p) => !near(p, PLACEHOLDER_RGB)) }).toEqual({ id, fill: [] });
        expect({ id, ring: ring.filter(orange) }).toEqual({ id, ring: [] });
      }
      expect(await visibleText(audience)).toBe("");
      await shot(presenter, "04-presenter-failed-embeds");
    });

    if (name === "chromium") {
      it("a player that answers is shown in both windows (a stand-in YouTube player, routed; Vimeo stays blocked)", async () => {
        const raw = (suite.engine as Engine & { raw: Page }).raw;
        // The stand-in answers the IFrame API's `listening` the way YouTube's player does.
        await raw.context().route("https://www.youtube-nocookie.com/**", (route) =>
          route.fulfill({
            contentType: "text/html",
            body: `<!doctype html><body style="margin:0;background:#c026d3"><script>addEventListener("message", (e) => { if (String(e.data).includes("listening")) e.source.postMessage(JSON.stringify({ event: "onReady", info: null }), e.origin); });</script></body>`,
          }),
        );
        try {
          await pressToPage(presenter, "ArrowRight", 4);
          await pressToPage(presenter, "ArrowLeft", 3);
          await audiencePainted(audience, 3);
          for (const page of [presenter, audience]) {
            await page.waitFor("the answering player shown", () => {
              const box = document.querySelector<HTMLElement>("[data-media='yt']");
              const frame = box?.querySelector("iframe");
              return box?.dataset.embed === "playing" && !!frame && getComputedStyle(frame).visibility === "visible";
            }, [], EMBED_FAIL_MS);
          }
          const src = await audience.evaluate(() => document.querySelector<HTMLIFrameElement>("[data-media='yt'] iframe")!.src);
          expect(new URL(src).searchParams.get("enablejsapi")).toBe("1");
          await audience.waitFor("the blocked Vimeo still given up", () => document.querySelector("[data-media='vimeo']")?.getAttribute("data-embed") === "failed", [], EMBED_FAIL_MS);
          await shot(audience, "05-audience-answering-player");
        } finally {
          await raw.context().unroute("https://www.youtube-nocookie.com/**");
        }
      });
    }

    it("the timer, closed for 8 minutes — the timer runs on from what it showed, without the gap, with a notice; slide times never book the gap", async () => {
      // The first slide change (the media tests') started the timer; one more slide for the times table.
      await pressToPage(presenter, "ArrowRight", 4);
      expect(await presenter.evaluate(() => document.querySelector("#elapsed")?.getAttribute("data-status"))).toBe("running");
      await presenter.waitFor("page 4 saved", () => document.body.dataset.savedPage === "4");
      const before = seconds((await presenter.evaluate(() => document.querySelector("#elapsed")?.textContent)) ?? "");
      const closedAt = Date.now();
      await presenter.close();
      expect(await moveProgressBack(audience, deckId, 8 * MINUTE)).toBe("running");

      presenter = await suite.engine.newPage();
      await presenter.goto(`${suite.server.url}/present/${deckId}`);
      await waitReady(presenter, "the presenter reopened", 45_000);
      await presenter.waitFor("the notice after the gap", () => !!document.querySelector("#timer-away") || `timer ${document.querySelector("#elapsed")?.getAttribute("data-status")} ${document.querySelector("#elapsed")?.textContent}, notice ${document.querySelector("#timer-away-text")?.textContent ?? "none"}, page ${document.body.dataset.slide}`);
      await settled(presenter);
      expect(await presenter.evaluate(() => document.querySelector("#elapsed")?.getAttribute("data-status"))).toBe("running");
      const resumed = seconds((await presenter.evaluate(() => document.querySelector("#elapsed")?.textContent)) ?? "");
      const resumedAt = Date.now();
      // What was counted until the window was last seen, never the 8 minutes. Last seen is the
      // last save: Firefox and WebKit drop the write a closing window starts, so it may be the
      // last beat before the close — up to one beat less than the clock read just before it.
      // At most, the real time the reopening took is added (however slow a loaded machine made
      // it), and one second for the clock's whole seconds.
      const reopening = Math.ceil((resumedAt - closedAt) / 1000);
      const context = `${before} s before the close, ${resumed} s after, ${reopening} s later; ${await storedTimer(presenter, deckId)}`;
      expect(resumed, context).toBeGreaterThanOrEqual(before - PRESENCE_BEAT_MS / 1000);
      expect(resumed, context).toBeLessThanOrEqual(before + reopening + 1);
      const notice = (await presenter.evaluate(() => document.querySelector("#timer-away-text")?.textContent)) ?? "";
      expect(notice).toMatch(/^This deck was closed for 8 min: the timer goes on from \d+:\d\d, without that time\.$/);
      expect(seconds(/from (\d+:\d\d)/.exec(notice)![1]!)).toBeLessThanOrEqual(resumed);
      await shot(presenter, "06-presenter-timer-after-gap");
      const violations = await seriousViolations(presenter);
      expect(violations).toEqual([]);

      // Slide times: no slide has the gap.
      await presenter.click("#btn-times");
      await presenter.waitFor("the slide times", () => document.querySelectorAll("#times-table tbody tr").length === 4);
      const booked = (await presenter.evaluate(() => Array.from(document.querySelectorAll("#times-table tbody tr td:first-of-type")).map((td) => td.textContent ?? ""))).map(seconds);
      expect(Math.max(...booked)).toBeLessThan(2 * MINUTE / 1000);
      await presenter.press("Escape");
      await presenter.waitFor("the times panel closed", () => document.querySelector("#times-panel")!.hasAttribute("hidden"));

      // The notice never stands in the way: a slide change with it showing keeps the timer running; OK puts it away.
      await pressToPage(presenter, "ArrowLeft", 3);
      expect(await presenter.evaluate(() => document.querySelector("#elapsed")?.getAttribute("data-status"))).toBe("running");
      await presenter.click("#timer-away-ok");
      await presenter.waitFor("the notice gone, the timer running", () => (document.querySelector("#elapsed")?.getAttribute("data-status") === "running" && !document.querySelector("#timer-away")) || `timer ${document.querySelector("#elapsed")?.getAttribute("data-status")} ${document.querySelector("#elapsed")?.textContent}, notice ${document.querySelector("#timer-away-text")?.textContent ?? "none"}, page ${document.body.dataset.slide}`);
      const since = Math.ceil((Date.now() - resumedAt) / 1000);
      expect(seconds((await presenter.evaluate(() => document.querySelector("#elapsed")?.textContent)) ?? "")).toBeLessThanOrEqual(resumed + since + 1);
    });

    it("the timer, reloaded within the grace: it keeps running with the gap counted, and no notice", async () => {
      await presenter.waitFor("the running timer saved", () => document.body.dataset.savedTimer === "running");
      const before = seconds((await presenter.evaluate(() => document.querySelector("#elapsed")?.textContent)) ?? "");
      const reloadedAt = Date.now();
      await presenter.goto(await presenter.href());
      await waitReady(presenter, "the presenter reloaded", 45_000);
      await presenter.waitFor("the timer still running", () => document.querySelector("#elapsed")?.getAttribute("data-status") === "running" || `timer ${document.querySelector("#elapsed")?.getAttribute("data-status")} ${document.querySelector("#elapsed")?.textContent}, notice ${document.querySelector("#timer-away-text")?.textContent ?? "none"}, page ${document.body.dataset.slide}`);
      expect(await presenter.evaluate(() => !!document.querySelector("#timer-away"))).toBe(false);
      const after = seconds((await presenter.evaluate(() => document.querySelector("#elapsed")?.textContent)) ?? "");
      // The gap counted: no more than the real time the reload took (and the clock's whole second).
      expect(after).toBeGreaterThanOrEqual(before);
      expect(after).toBeLessThanOrEqual(before + Math.ceil((Date.now() - reloadedAt) / 1000) + 1);
    });

    it("the timer, closed for a day — Reset in one click starts from 0:00 at the next slide change", async () => {
      await presenter.close();
      expect(await moveProgressBack(audience, deckId, 24 * 60 * MINUTE)).toBe("running");
      presenter = await suite.engine.newPage();
      await presenter.goto(`${suite.server.url}/present/${deckId}`);
      await waitReady(presenter, "the presenter reopened", 45_000);
      await presenter.waitFor("the notice after the gap", () => /closed for 24 h/.test(document.querySelector("#timer-away-text")?.textContent ?? "") || `timer ${document.querySelector("#elapsed")?.getAttribute("data-status")} ${document.querySelector("#elapsed")?.textContent}, notice ${document.querySelector("#timer-away-text")?.textContent ?? "none"}, page ${document.body.dataset.slide}`);
      await settled(presenter);
      await presenter.click("#timer-restart");
      await presenter.waitFor("a reset timer, the notice gone", () => (document.querySelector("#elapsed")?.getAttribute("data-status") === "idle" && document.querySelector("#elapsed")?.textContent === "0:00" && !document.querySelector("#timer-away")) || `timer ${document.querySelector("#elapsed")?.getAttribute("data-status")} ${document.querySelector("#elapsed")?.textContent}, notice ${document.querySelector("#timer-away-text")?.textContent ?? "none"}, page ${document.body.dataset.slide}`);
      // Any slide change starts it: to slide 4 from the 3 the test before left (a neighbour of
      // wherever a failed test before left the talk).
      const page = Number(await presenter.evaluate(() => document.body.dataset.slide));
      await (page < 4 ? pressToPage(presenter, "ArrowRight", page + 1) : pressToPage(presenter, "ArrowLeft", page - 1));
      await presenter.waitFor("the timer started by the slide change", () => document.querySelector("#elapsed")?.getAttribute("data-status") === "running" || `timer ${document.querySelector("#elapsed")?.getAttribute("data-status")} ${document.querySelector("#elapsed")?.textContent}, notice ${document.querySelector("#timer-away-text")?.textContent ?? "none"}, page ${document.body.dataset.slide}`);
      await shot(presenter, "07-presenter-timer-reset");
    });

    if (name === "chromium") {
      /** Close the presenter, let `gapMs` pass on Playwright's clock, reopen it: the elapsed clock before and after, and the notice. */
      const closeFor = async (gapMs: number) => {
        await presenter.waitFor("the running timer saved", () => document.body.dataset.savedTimer === "running");
        const before = seconds((await presenter.evaluate(() => document.querySelector("#elapsed")?.textContent)) ?? "");
        await presenter.close();
        await (suite.engine as Engine & { raw: Page }).raw.context().clock.fastForward(gapMs);
        presenter = await suite.engine.newPage();
        await presenter.goto(`${suite.server.url}/present/${deckId}`);
        await waitReady(presenter, "the presenter reopened", 45_000);
        await settled(presenter);
        const status = await presenter.evaluate(() => document.querySelector("#elapsed")?.getAttribute("data-status"));
        const after = seconds((await presenter.evaluate(() => document.querySelector("#elapsed")?.textContent)) ?? "");
        const notice = await presenter.evaluate(() => document.querySelector("#timer-away-text")?.textContent ?? null);
        return { before, after, status, notice };
      };

      it("the timer on Playwright's clock: closed 40 s, the 40 s are counted; closed 135 s, they are not — and the timer is running both times, through slide changes", async () => {
        const raw = (suite.engine as Engine & { raw: Page }).raw;
        // The clock goes into every page of the context opened from now on: a fresh presenter.
        await presenter.close();
        await raw.context().clock.install();
        presenter = await suite.engine.newPage();
        await presenter.goto(`${suite.server.url}/present/${deckId}`);
        await waitReady(presenter, "the presenter reopened", 45_000);
        await presenter.waitFor("the timer running", () => document.querySelector("#elapsed")?.getAttribute("data-status") === "running");

        const short = await closeFor(40_000);
        expect(short.status).toBe("running");
        expect(short.notice).toBeNull();
        expect(short.after).toBeGreaterThanOrEqual(short.before + 40);
        expect(short.after).toBeLessThan(short.before + 40 + 45);

        const long = await closeFor(135_000);
        expect(long.status).toBe("running");
        expect(long.notice).toMatch(/^This deck was closed for 2 min: the timer goes on from \d+:\d\d, without that time\.$/);
        expect(long.after).toBeGreaterThanOrEqual(long.before);
        expect(long.after).toBeLessThan(long.before + 45);
        await shot(presenter, "08-presenter-timer-after-135s");
        // A slide change with the notice unread: still running, and counting.
        await pressToPage(presenter, "ArrowLeft", 3);
        await raw.context().clock.fastForward(5_000);
        await presenter.waitFor("the timer counting on", (from: number) => {
          const text = document.querySelector("#elapsed")?.textContent ?? "";
          const secs = text.split(":").reduce((t, p) => t * 60 + Number(p), 0);
          return (document.querySelector("#elapsed")?.getAttribute("data-status") === "running" && secs >= from + 5) || `${text} ${document.querySelector("#elapsed")?.getAttribute("data-status")}`;
        }, [long.after]);
      });
    }
  });
}
