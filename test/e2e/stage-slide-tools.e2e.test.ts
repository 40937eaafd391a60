/**
 * Slides as the deck's own tool counts and paces them, per engine against the compiled binary,
 * on decks built by pdflatex (test/fixtures/slide-tool-decks.ts):
 *
 * - a Polylux-style deck — 40 pages, no page labels — whose .pdfpc (as polylux2pdfpc writes it)
 *   groups them into 31 slides, attached to the PDF and, in a second run, handed beside it as
 *   the `notes` part: the counter says "N / 31", typing a slide number and Enter lands on that
 *   slide's first page, the next-slide preview shows the next slide (not the next step),
 *   Shift+→ skips a build's steps, and the overview shows 31 slides;
 * - a Beamer deck whose 13-step build advances by itself (`\transduration<2-12>{0.2}`, pdfpc's
 *   demo): once the talk's timer runs the presenter steps through pages 3–14 alone, the
 *   audience window follows every step, the presenter (never the projector) says the page
 *   advances by itself, ← during a finished run steps back and the run starts over from there
 *   (pdfpc's behaviour), and a paused timer holds it.
 *
 * Screenshots go to test-output/stage-slide-tools/<engine>/.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { engineSuite, presentPdf } from "../helpers/e2e-suite.ts";
import { ENGINES, type EnginePage } from "../helpers/engine.ts";
import { audiencePainted, openAudience, openPresenter } from "../helpers/stage.ts";
import { removeBeamerDecks } from "../fixtures/beamer.ts";
import { attachFiles, buildDurationDeck, buildPolyluxStyleDeck, polyluxPdfpc } from "../fixtures/slide-tool-decks.ts";
import { OUTPUT } from "./fixtures.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

const STEP_MS = 120_000;
const it = (name: string, fn: () => Promise<void>) => test(name, fn, STEP_MS);

let polylux: Uint8Array;
let attached: Uint8Array;
let timed: Uint8Array;

beforeAll(async () => {
  polylux = buildPolyluxStyleDeck();
  attached = await attachFiles(polylux, [{ name: "talk.pdfpc", text: polyluxPdfpc({ notes: { 7: "The seventh slide" } }) }]);
  timed = buildDurationDeck();
});

afterAll(() => {
  removeBeamerDecks();
});

/** What the presenter shows: the page, the counter, its page line, the previews, the slide's own text. */
function stage(page: EnginePage) {
  return page.evaluate(() => ({
    page: Number(document.body.dataset.slide),
    counter: document.querySelector("#counter")?.textContent ?? "",
    pages: document.querySelector("#counter-pages")?.textContent ?? "",
    nextSlide: document.body.dataset.nextSlide ?? "",
    nextStep: document.body.dataset.nextStep ?? "",
    said: document.querySelector("#current")?.getAttribute("aria-label") ?? "",
    auto: document.querySelector("#auto-advance")?.hasAttribute("hidden") ? "" : (document.querySelector("#auto-advance")?.textContent ?? ""),
  }));
}

/** Press `chord` and wait until the presenter shows PDF page `target`. */
async function pressTo(page: EnginePage, chord: string, target: number): Promise<void> {
  await page.press(chord);
  await page.waitFor(`page ${target} after ${chord}`, (p: number) => document.body.dataset.slide === String(p), [target], 20_000);
}

/** Wait until the current slide's text alternative is in (it carries the page's own text: "Slide 7"). */
function described(page: EnginePage, words: string) {
  return page.waitFor(`the slide described with "${words}"`, (w: string) => (document.querySelector("#current")?.getAttribute("aria-label") ?? "").includes(w), [words], 20_000);
}

for (const name of ENGINES) {
  describe(`slides as the deck's tool counts them, in ${name}`, () => {
    const shots = join(OUTPUT, "stage-slide-tools", name);
    const suite = engineSuite(name, { shots, launch: { viewport: { width: 1280, height: 800 } }, timeoutMs: STEP_MS });
    const page = suite.page;
    const shot = (target: EnginePage, file: string) => target.screenshot(join(shots, `${file}.png`));

    it("a Polylux deck with its .pdfpc attached counts 31 slides of 40 pages; 7 Enter lands on slide 7", async () => {
      const handoff = await presentPdf(suite.server.url, attached, "Polylux talk.pdf");
      expect(handoff.next).toContain("(40 pages, 31 slides)");
      await openPresenter(page, handoff.url);
      expect(await stage(page)).toMatchObject({ page: 1, counter: "1 / 31", pages: "page 1 / 40" });
      await page.press("7");
      await pressTo(page, "Enter", 12);
      await described(page, "Topic 7");
      const s = await stage(page);
      expect(s).toMatchObject({ counter: "7 / 31", pages: "page 12 / 40" });
      // The presenter names it slide 7 of 31, and the page is the one whose heading says "Topic 7".
      expect(s.said).toContain("Slide 7 of 31");
      expect(s.said).toContain("point 1 of slide 7");
      await shot(page, "01-polylux-seven-enter");
    });

    it("in a build, the next-slide preview shows the next slide, the next-step preview the next step; Shift+→ skips the steps", async () => {
      await page.press("2");
      await pressTo(page, "Enter", 2);
      // Slide 2 is pages 2–4; slide 3 is page 5.
      await page.waitFor("the previews of slide 2", () => document.body.dataset.nextSlide === "5" && document.body.dataset.nextStep === "3", [], 20_000);
      expect(await stage(page)).toMatchObject({ counter: "2 / 31", nextSlide: "5", nextStep: "3" });
      await page.waitFor("the previews painted", () => document.querySelector("#next-frame")?.getAttribute("data-state") === "painted" && document.querySelector("#step-frame")?.getAttribute("data-state") === "painted", [], 20_000);
      await shot(page, "02-polylux-build-previews");
      await pressTo(page, "ArrowRight", 3);
      expect((await stage(page)).counter).toBe("2 / 31");
      await pressTo(page, "Shift+ArrowRight", 5);
      expect((await stage(page)).counter).toBe("3 / 31");
      await pressTo(page, "Shift+ArrowLeft", 2);
      await pressTo(page, "Shift+ArrowRight", 5);
    });

    it("the overview shows the 31 slides, builds named with their steps", async () => {
      await page.press("o");
      await page.waitFor("the overview", () => !document.querySelector("#overview")!.hasAttribute("hidden") && document.querySelectorAll("#overview-grid canvas[data-painted]").length >= 6, [], 20_000);
      const names = await page.evaluate(() => Array.from(document.querySelectorAll("#overview-grid .thumb-num")).map((el) => el.textContent));
      expect(names.length).toBe(31);
      expect(names.slice(0, 6)).toEqual(["Slide 1", "Slide 2 (3 steps)", "Slide 3", "Slide 4", "Slide 5 (4 steps)", "Slide 6"]);
      await shot(page, "03-polylux-overview");
      await page.click("#overview-grid li:nth-child(5) button");
      // The overview goes to a slide finished, as pdfpc shows it: slide 5 is pages 7–10.
      await page.waitFor("slide 5 from the overview", () => document.body.dataset.slide === "10" && document.querySelector("#overview")!.hasAttribute("hidden"), [], 20_000);
      expect((await stage(page)).counter).toBe("5 / 31");
    });

    it("the same deck with its .pdfpc beside the PDF (the notes part) is grouped the same", async () => {
      const handoff = await presentPdf(suite.server.url, polylux, "Polylux beside.pdf", { notes: new File([polyluxPdfpc({ notes: { 1: "Welcome" } })], "Polylux beside.pdfpc", { type: "application/json" }) });
      expect(handoff.next).toContain("(40 pages, 31 slides, with speaker notes");
      await openPresenter(page, handoff.url);
      expect(await stage(page)).toMatchObject({ page: 1, counter: "1 / 31" });
      await page.press("3");
      await page.press("1");
      await pressTo(page, "Enter", 40);
      expect((await stage(page)).counter).toBe("31 / 31");
      await shot(page, "04-polylux-beside-last-slide");
    });

    it("a Beamer build with page durations runs by itself once the timer runs, and the audience window follows", async () => {
      const handoff = await presentPdf(suite.server.url, timed, "Durations.pdf");
      expect(handoff.next).toContain("(15 pages, 3 slides)");
      await openPresenter(page, handoff.url);
      const deckId = (await page.href()).split("/").pop()!.split("#")[0]!;
      const audience = await suite.engine.newPage();
      await openAudience(audience, suite.server.url, deckId);
      // The audience window keeps a log of the pages it painted.
      await audience.evaluate(() => {
        const log: string[] = [];
        (window as unknown as { shown: string[] }).shown = log;
        new MutationObserver(() => {
          const slide = document.body.dataset.slide ?? "";
          if (log[log.length - 1] !== slide) log.push(slide);
        }).observe(document.body, { attributes: true, attributeFilter: ["data-slide"] });
      });
      // Before the talk starts, nothing advances: page 2 has no duration, and the timer is idle.
      await pressTo(page, "ArrowRight", 2);
      expect((await stage(page)).auto).toBe("");
      // Page 3 has one: from there the build spells itself out, 0.2 s a step, to page 14.
      await page.press("ArrowRight");
      await page.waitFor("the build run to its last step", () => document.body.dataset.slide === "14", [], 20_000);
      await audiencePainted(audience, 14);
      const shown = await audience.evaluate(() => (window as unknown as { shown: string[] }).shown);
      expect(shown[0]).toBe("2");
      // Every step was shown on the projector, in order (a step may pass between two paints on a busy machine).
      const steps = shown.map(Number).filter((p) => p >= 3);
      expect(steps[steps.length - 1]).toBe(14);
      expect(steps).toEqual([...steps].sort((a, b) => a - b));
      expect(steps.length).toBeGreaterThanOrEqual(6);
      // ← on a finished run steps back, and the run starts over from that step (pdfpc): back to 14
      // alone. Page 13 stands for 0.2 s only, which a poll of the page can miss on a busy machine:
      // the presenter's pages are logged as they are shown, and the log is read.
      await page.evaluate(() => {
        const log: string[] = [];
        (window as unknown as { shownHere: string[] }).shownHere = log;
        new MutationObserver(() => log.push(document.body.dataset.slide ?? "")).observe(document.body, { attributes: true, attributeFilter: ["data-slide"] });
      });
      await page.press("ArrowLeft");
      await page.waitFor("page 13 after ArrowLeft, then the run again to page 14", () => {
        const log = (window as unknown as { shownHere: string[] }).shownHere;
        const back = log.indexOf("13");
        return (back >= 0 && log.slice(back + 1).includes("14") && document.body.dataset.slide === "14") || JSON.stringify(log);
      }, [], 20_000);
      expect(await audience.evaluate(() => document.body.textContent?.includes("Advances by itself") ?? false)).toBe(false);
      await audiencePainted(audience, 14);
      // A paused timer holds the run; the presenter (never the projector) says the page advances by itself once the timer runs.
      await page.press("t");
      await page.waitFor("the timer paused", () => document.body.dataset.autoAdvance !== "armed", [], 20_000);
      await pressTo(page, "ArrowLeft", 13);
      await page.waitFor("the badge says it waits", () => document.querySelector("#auto-advance")?.textContent === "▸ Advances by itself after 0.2 s once the timer runs", [], 20_000);
      await Bun.sleep(1000);
      expect((await stage(page)).page).toBe(13);
      await audiencePainted(audience, 13);
      await shot(page, "05-duration-paused-badge");
      await shot(audience, "06-audience-on-step-13");
      // Resumed, it goes on by itself again.
      await page.press("t");
      await page.waitFor("the run resumed to page 14", () => document.body.dataset.slide === "14", [], 20_000);
      await audiencePainted(audience, 14);
      expect(suite.engine.problems).toEqual([]);
    });
  });
}
