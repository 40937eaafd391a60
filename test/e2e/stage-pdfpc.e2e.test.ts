/**
 * pdfpc parity on the stage, per engine (test/helpers/engine.ts) against the
 * compiled binary, on a real Beamer deck built by pdflatex: twelve frames, builds of three
 * steps on frames 3 and 7 (16 pages), pdfpc.sty's `enduserslide=10` in its XMP, and a .pdfpc
 * beside the PDF (sent with `deckhand present`'s `notes` part) that hides frame 4 (page 6).
 * In the presenter: Next passes the hidden page by and Shift+P still reaches it; the counter
 * counts to the end slide ("/ 10") and End goes there, then on to the backup slides; Ctrl+→ /
 * Ctrl+← move ten slides; Shift+Space goes forward in the history after Shift+Backspace; the
 * overview dims the hidden slide and names the backup slides; and in a build the next-step
 * preview shows what the next click reveals (not on a phone, where the slide comes first).
 * Screenshots go to
 * test-output/stage-pdfpc/<engine>/.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { engineSuite, presentPdf } from "../helpers/e2e-suite.ts";
import { ENGINES, type EnginePage } from "../helpers/engine.ts";
import { buildBeamerDeck, removeBeamerDecks } from "../fixtures/beamer.ts";
import { OUTPUT } from "./fixtures.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

const STEP_MS = 120_000;
const it = (name: string, fn: () => Promise<void>) => test(name, fn, STEP_MS);

/**
 * Frame → pages: 1:1, 2:2, 3:3–5 (a build), 4:6 (hidden), 5:7, 6:8, 7:9–11 (a build), 8:12,
 * 9:13, 10:14 (the end slide), 11:15, 12:16 (backup).
 */
const FRAMES = Array.from({ length: 12 }, (_, i) => ({
  title: `Frame ${i + 1}`,
  items: i === 2 || i === 6 ? ["first", "second", "third"] : [`point of frame ${i + 1}`],
  overlays: i === 2 || i === 6,
}));
/** pdfpc's own file: frame 4 (page 6, idx 5) hidden with Ctrl+H, as pdfpc writes it. */
const PDFPC = JSON.stringify({ pdfpcFormat: 2, disableMarkdown: false, pages: [{ idx: 5, label: "4", overlay: 0, hidden: true }, { idx: 0, label: "1", overlay: 0, note: "Open the talk" }] });

let deck: Uint8Array;

beforeAll(() => {
  deck = buildBeamerDeck({ position: null, frames: FRAMES, pdfpc: "enduserslide=10", noNavigation: true });
});

afterAll(() => removeBeamerDecks());

/** What the presenter shows: the page, the counter, and the next-step preview. */
function stage(page: EnginePage) {
  return page.evaluate(() => ({
    page: Number(document.body.dataset.slide),
    counter: document.querySelector("#counter")?.textContent ?? "",
    stepShown: !document.querySelector("#step-box")!.hasAttribute("hidden"),
    nextStep: document.body.dataset.nextStep ?? "",
    stepEnd: !document.querySelector("#step-end")!.hasAttribute("hidden"),
    stepPainted: document.querySelector("#step-frame")?.getAttribute("data-state") === "painted",
    stepCard: document.querySelector("#step-end")?.textContent ?? "",
    nextLabel: document.querySelector("#next-label")?.textContent ?? "",
  }));
}

/** Press `chord` and wait until the presenter shows PDF page `page`. */
async function pressTo(page: EnginePage, chord: string, target: number): Promise<void> {
  await page.press(chord);
  await page.waitFor(`page ${target} after ${chord}`, (p: number) => document.body.dataset.slide === String(p), [target], 20_000);
}

for (const name of ENGINES) {
  describe(`pdfpc parity in ${name}`, () => {
    const shots = join(OUTPUT, "stage-pdfpc", name);
    const suite = engineSuite(name, { shots, launch: { viewport: { width: 1280, height: 800 } }, timeoutMs: STEP_MS });
    const page = suite.page;
    const shot = (file: string) => page.screenshot(join(shots, `${file}.png`));

    it("a Beamer deck with its .pdfpc opens: the counter counts to the end slide, and the hidden page is known", async () => {
      const handoff = await presentPdf(suite.server.url, deck, "Backup slides.pdf", { notes: new File([PDFPC], "Backup slides.pdfpc", { type: "application/json" }) });
      await page.goto(handoff.url);
      await page.waitFor("the presenter with its extras", () => location.pathname.startsWith("/present/") && document.body.dataset.ready === "true" && document.body.dataset.extras === "ready", [], 60_000);
      await page.waitFor("the end slide applied", () => document.querySelector("#counter")?.textContent === "1 / 10", [], 20_000);
      expect(await page.evaluate(() => ({ hidden: document.body.dataset.hiddenPages, end: document.body.dataset.endSlide }))).toEqual({ hidden: "1", end: "10" });
      // Frame 1 is no build: the step preview is there (the deck has builds) and says the next click leaves the slide.
      expect(await stage(page)).toMatchObject({ page: 1, stepShown: true, stepEnd: true, nextStep: "", stepCard: "No build on this slide", nextLabel: "Next slide" });
    });

    it("in a build, the next-step preview shows what the next click reveals; on its last step, that Next leaves the slide", async () => {
      await pressTo(page, "ArrowRight", 2);
      await pressTo(page, "ArrowRight", 3);
      await page.waitFor("the next step painted", () => document.body.dataset.nextStep === "4" && document.querySelector("#step-frame")?.getAttribute("data-state") === "painted", [], 20_000);
      expect(await stage(page)).toMatchObject({ page: 3, counter: "3 / 10", nextStep: "4", stepEnd: false, stepPainted: true });
      await shot("01-build-step-1-next-step-preview");
      // The previews follow the slide once it is shown: wait for them, then look.
      const previewsFor = (step: string) => page.waitFor(`the next step "${step}"`, (s: string) => document.body.dataset.nextStep === s, [step], 20_000);
      await pressTo(page, "ArrowRight", 4);
      await previewsFor("5");
      expect(await stage(page)).toMatchObject({ nextStep: "5", stepEnd: false });
      await pressTo(page, "ArrowRight", 5);
      await previewsFor("");
      expect(await stage(page)).toMatchObject({ nextStep: "", stepEnd: true, stepCard: "Last step — Next goes to the next slide" });
      await shot("02-build-last-step");
    });

    it("Next passes the page hidden in pdfpc by; Previous too; Shift+P and Shift+N still stop on it", async () => {
      await pressTo(page, "ArrowRight", 7);
      expect((await stage(page)).counter).toBe("5 / 10");
      await pressTo(page, "ArrowLeft", 5);
      await pressTo(page, "Shift+n", 6);
      expect((await stage(page)).counter).toBe("4 / 10");
      await shot("03-hidden-page-reached-with-shift-n");
      await pressTo(page, "Shift+p", 5);
      await pressTo(page, "Shift+ArrowRight", 7);
      // The overview dims the hidden slide and names the backup slides; the hidden one can still be chosen.
      await page.press("o");
      await page.waitFor("the overview", () => !document.querySelector("#overview")!.hasAttribute("hidden") && document.querySelectorAll("#overview-grid canvas[data-painted]").length >= 6, [], 20_000);
      const names = await page.evaluate(() => Array.from(document.querySelectorAll("#overview-grid .thumb-num")).map((el) => el.textContent));
      expect(names).toEqual(["Slide 1", "Slide 2", "Slide 3 (3 steps)", "Slide 4 — hidden", "Slide 5", "Slide 6", "Slide 7 (3 steps)", "Slide 8", "Slide 9", "Slide 10", "Slide 11 — backup", "Slide 12 — backup"]);
      await shot("04-overview-hidden-and-backup");
      await page.click("#overview-grid li:nth-child(4) button");
      await page.waitFor("page 6 from the overview", () => document.body.dataset.slide === "6" && document.querySelector("#overview")!.hasAttribute("hidden"), [], 20_000);
      await pressTo(page, "ArrowRight", 7);
    });

    it("End goes to the end slide, again to the last backup slide; Ctrl+← / Ctrl+→ move ten slides", async () => {
      await pressTo(page, "End", 14);
      // On the end slide the next preview says what follows is backup (once the slide is shown: the previews follow it).
      await page.waitFor("the backup label", () => document.querySelector("#next-label")?.textContent === "Next: a backup slide", [], 20_000);
      expect((await stage(page)).counter).toBe("10 / 10");
      await shot("05-end-slide");
      await pressTo(page, "End", 16);
      expect((await stage(page)).counter).toBe("12 / 10");
      await shot("06-backup-slide-past-the-end");
      await pressTo(page, "Ctrl+ArrowLeft", 2);
      expect((await stage(page)).counter).toBe("2 / 10");
      await pressTo(page, "Home", 1);
      await pressTo(page, "Ctrl+ArrowRight", 15);
      expect((await stage(page)).counter).toBe("11 / 10");
    });

    it("Shift+Backspace goes back in the history and Shift+Space forward again", async () => {
      // The jumps so far: End (7→14), End (14→16), Ctrl+← (16→2), Home (2→1), Ctrl+→ (1→15).
      await pressTo(page, "Shift+Backspace", 1);
      await pressTo(page, "Shift+Backspace", 2);
      await pressTo(page, "Shift+Space", 1);
      await pressTo(page, "Shift+Space", 15);
      await page.press("Shift+Space");
      await page.waitFor("the notice that there is no later page", () => (document.querySelector("#goto")?.textContent ?? "").includes("No later page"), [], 20_000);
      expect((await stage(page)).page).toBe(15);
      await shot("07-history-forward-at-its-end");
    });

    it("on a phone on its side the slide comes first: the next-step preview stays out, the next slide keeps its box", async () => {
      await pressTo(page, "Home", 1);
      await pressTo(page, "ArrowRight", 2);
      await pressTo(page, "ArrowRight", 3);
      await page.resize(844, 390);
      await page.waitFor("the phone layout", () => window.innerHeight <= 500 && document.querySelector("#step-box")!.getClientRects().length === 0, [], 20_000);
      const boxes = await page.evaluate(() => {
        const r = (sel: string) => document.querySelector(sel)!.getBoundingClientRect();
        return { next: r("#next-box").height, step: document.querySelector("#step-label")!.getClientRects().length, nextStep: document.body.dataset.nextStep };
      });
      expect(boxes).toMatchObject({ step: 0, nextStep: "4" });
      expect(boxes.next).toBeGreaterThan(40);
      await page.waitFor("the slide fitted to the phone", () => {
        const box = document.querySelector("#current-box")!.getBoundingClientRect();
        const frame = document.querySelector("#current-frame")!.getBoundingClientRect();
        return frame.width <= box.width + 1 && frame.height <= box.height + 1;
      }, [], 20_000);
      await shot("08-phone-landscape-no-step-preview");
      await page.resize(1280, 800);
      await page.waitFor("the step preview back and painted", () => document.querySelector("#step-box")!.getClientRects().length > 0 && document.querySelector("#step-frame")?.getAttribute("data-state") === "painted", [], 20_000);
      expect(suite.engine.problems).toEqual([]);
    });
  });
}
