/**
 * The stage, end to end against the compiled binary, in Chromium, Firefox ESR and WebKit, for
 * decks whose pages carry their speaker notes (Beamer's `show notes on second screen`). Code-built double-width/height decks in all four positions
 * (test/fixtures/notes-layout-stage.ts: a magenta bar marks every notes half) and a real
 * pdflatex Beamer deck with pdfpc.sty's XMP duration. Asserted: the audience canvas has the
 * slide half's aspect ratio and not one magenta pixel (nor the notes text in its DOM); the
 * presenter's notes pane shows the notes half's text (and, toggled, its picture); every arrow
 * press over the whole deck changes what the audience sees; the counter counts frames; the XMP
 * duration is the remaining time; the per-deck layout override and timer settings work, reach
 * the audience window and persist across a reload; the phone remote shows the same notes.
 * Screenshots of presenter and audience per layout go to test-output/notes-layouts/<engine>/.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { engineSuite, presentPdf } from "../helpers/e2e-suite.ts";
import { ENGINES, type EnginePage } from "../helpers/engine.ts";
import { audiencePainted, pressToPage, waitReady } from "../helpers/stage.ts";
import { removeBeamerDecks } from "../fixtures/beamer.ts";
import { BEAMER_NOTES, BEAMER_PAGES, beamerDeck, doubleDeck, noteText, PAGES, SLIDE } from "../fixtures/notes-layout-stage.ts";
import { OUTPUT } from "../fixtures/stage-deck.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

/** Rendering and claims on a loaded two-core machine; WebKit is the slowest. */
const STEP_MS = 180_000;
const it = (name: string, fn: () => Promise<void>) => test(name, fn, STEP_MS);

/** The Beamer deck's pages: 128 mm × 96 mm slides (4:3), twice as wide with the notes. */
const BEAMER_SLIDE_RATIO = 4 / 3;
const POSITIONS = ["right", "left", "bottom", "top"] as const;

interface CanvasStats {
  w: number;
  h: number;
  /** Pixels of the notes halves' marker colour. */
  magenta: number;
  /** A digest of the sampled pixels: different pictures, different digests. */
  digest: number;
  /** Pixels that are neither white nor black: something is drawn. */
  drawn: number;
}

/** Read a canvas's pixels in the page: its size, magenta pixels, a digest. */
function statsOf(page: EnginePage, selector: string): Promise<CanvasStats> {
  return page.evaluate((sel: string) => {
    const canvas = document.querySelector(sel) as HTMLCanvasElement;
    const ctx = canvas.getContext("2d")!;
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let magenta = 0;
    let digest = 0;
    let drawn = 0;
    for (let i = 0; i < data.length; i += 4) {
      const r = data[i]!;
      const g = data[i + 1]!;
      const b = data[i + 2]!;
      if (r > 200 && g < 90 && b > 200) magenta++;
      if (!(r > 245 && g > 245 && b > 245) && !(r < 10 && g < 10 && b < 10)) drawn++;
      if (i % 64 === 0) digest = (digest * 31 + r * 7 + g * 3 + b) % 1_000_000_007;
    }
    return { w: canvas.width, h: canvas.height, magenta, digest, drawn };
  }, selector);
}

const ratio = (s: CanvasStats) => s.w / s.h;
const visibleText = (page: EnginePage) => page.evaluate(() => document.body.innerText.trim());
const notesText = (page: EnginePage) => page.evaluate(() => document.querySelector("#notes")?.textContent ?? "");

for (const name of ENGINES) {
  describe(`notes layouts in ${name}`, () => {
    const shots = join(OUTPUT, "notes-layouts", name);
    const suite = engineSuite(name, { shots, launch: { viewport: { width: 1440, height: 900 } }, timeoutMs: STEP_MS });
    const presenter = suite.page;
    let audience: EnginePage | null = null;
    let deckId = "";
    const shot = (page: EnginePage, file: string) => page.screenshot(join(shots, `${file}.png`));

    /** Hand the deck over like an agent, open the link: the presenter of the stored deck. */
    async function claim(bytes: Uint8Array, filename: string): Promise<void> {
      const handoff = await presentPdf(suite.server.url, bytes, filename);
      await presenter.goto(handoff.url);
      await presenter.waitFor("the presenter", () => document.body.dataset.ready === "true" && /\/present\//.test(location.pathname), [], 60_000);
      await presenter.waitFor("the notes", () => document.body.dataset.extras === "ready", [], 30_000);
      deckId = (await presenter.href()).split("/").pop()!;
    }

    /** The audience window of the deck on stage (the same tab, moved to the new deck). */
    async function openAudience(): Promise<EnginePage> {
      audience ??= await suite.engine.newPage();
      await audience.goto(`${suite.server.url}/view/${deckId}`);
      await waitReady(audience, "the audience window", 30_000);
      return audience;
    }

    /** Wait until the audience has painted `page` split at `position`. */
    async function audienceShows(page: number, position: string): Promise<CanvasStats> {
      await audiencePainted(audience!, page);
      await audience!.waitFor(`the audience split at ${position}`, (p: string) => document.body.dataset.notesPosition === p, [position]);
      // A repaint under a new split happens after the page number is already right.
      await audience!.waitFor("a settled frame", () => document.querySelector("#frame")?.getAttribute("data-state") === "painted");
      return statsOf(audience!, "#slide");
    }

    afterAll(() => removeBeamerDecks());

    for (const position of POSITIONS) {
      it(`${position}: the audience sees only the slide half, the presenter the notes; every arrow press changes the audience's picture`, async () => {
        await claim(await doubleDeck(position), `notes ${position}.pdf`);
        await presenter.waitFor("the layout detected", (p: string) => document.body.dataset.notesPosition === p, [position]);
        await presenter.waitFor("the notes half's text in the notes pane", (t: string) => (document.querySelector("#notes")?.textContent ?? "").includes(t), [noteText(1)]);
        const current = await statsOf(presenter, "#current");
        expect(ratio(current)).toBeCloseTo(SLIDE.w / SLIDE.h, 1);
        expect(current.magenta).toBe(0);
        await openAudience();
        let seen = await audienceShows(1, position);
        expect(ratio(seen)).toBeCloseTo(SLIDE.w / SLIDE.h, 1);
        expect(seen.magenta).toBe(0);
        expect(await visibleText(audience!)).toBe("");
        expect(await audience!.evaluate(() => document.querySelector("#slide")?.getAttribute("aria-label") ?? "")).not.toContain("SPEAK");
        await shot(presenter, `${position}-presenter`);
        await shot(audience!, `${position}-audience`);
        for (let page = 2; page <= PAGES; page++) {
          await pressToPage(presenter, "ArrowRight", page);
          const next = await audienceShows(page, position);
          expect({ page, changed: next.digest !== seen.digest, magenta: next.magenta }).toEqual({ page, changed: true, magenta: 0 });
          seen = next;
          await presenter.waitFor(`notes of page ${page}`, (t: string) => (document.querySelector("#notes")?.textContent ?? "").includes(t), [noteText(page)]);
          // The next-slide preview is a slide half too.
          if (page < PAGES) expect((await statsOf(presenter, "#next")).magenta).toBe(0);
        }
      });
    }

    it("the notes half as a picture: toggled in the notes pane, remembered across a reload", async () => {
      // The last deck (top) is on stage: its notes half holds the magenta bar.
      await presenter.click("#btn-notes-picture");
      await presenter.waitFor("the notes picture", () => document.body.dataset.notesView === "picture" && !!document.querySelector("#notes canvas.notes-picture"));
      const picture = await statsOf(presenter, "#notes canvas.notes-picture");
      expect(ratio(picture)).toBeCloseTo(SLIDE.w / SLIDE.h, 1);
      expect(picture.magenta).toBeGreaterThan(0);
      await shot(presenter, "top-presenter-notes-picture");
      await presenter.goto(await presenter.href());
      await waitReady(presenter, "the presenter again", 60_000);
      await presenter.waitFor("the notes picture after the reload", () => document.body.dataset.notesView === "picture" && !!document.querySelector("#notes canvas.notes-picture"));
      await presenter.click("#btn-notes-picture");
      await presenter.waitFor("the notes text again", () => document.body.dataset.notesView === "text" && (document.querySelector("#notes")?.textContent ?? "").includes("SPEAK-"));
    });

    it("a real pdflatex Beamer deck: frames counted, XMP duration as the remaining time, notes text, slide halves only", async () => {
      await claim(beamerDeck(), "Beamer notes.pdf");
      await presenter.waitFor("the layout from the XMP packet", () => document.body.dataset.notesPosition === "right");
      // pdfpc.sty's duration=20, before the timer starts (the first slide change starts it).
      await presenter.waitFor("the countdown from pdfpc:Duration", () => !document.querySelector("#countdown-box")?.hasAttribute("hidden") && document.querySelector("#countdown")?.textContent === "20:00");
      await presenter.waitFor("frame 1's notes", (t: string) => (document.querySelector("#notes")?.textContent ?? "").includes(t), [BEAMER_NOTES[0]!]);
      // Beamer's own header line on the notes page (title, date) is not the note.
      expect(await presenter.evaluate(() => document.querySelector("#counter")?.textContent)).toBe("1 / 4");
      await presenter.waitFor("the presenter's slide painted", () => document.querySelector("#current-frame")?.getAttribute("data-state") === "painted");
      const current = await statsOf(presenter, "#current");
      expect(ratio(current)).toBeCloseTo(BEAMER_SLIDE_RATIO, 1);
      expect(current.drawn).toBeGreaterThan(0);
      await openAudience();
      let seen = await audienceShows(1, "right");
      expect(ratio(seen)).toBeCloseTo(BEAMER_SLIDE_RATIO, 1);
      expect(seen.drawn).toBeGreaterThan(0);
      expect(await audience!.evaluate(() => document.querySelector("#slide")?.getAttribute("aria-label") ?? "")).not.toContain("Welcome everyone");
      await shot(presenter, "beamer-presenter");
      await shot(audience!, "beamer-audience");
      const counters: string[] = [];
      for (let page = 2; page <= BEAMER_PAGES; page++) {
        await pressToPage(presenter, "ArrowRight", page);
        const next = await audienceShows(page, "right");
        expect({ page, changed: next.digest !== seen.digest }).toEqual({ page, changed: true });
        seen = next;
        counters.push((await presenter.evaluate(() => document.querySelector("#counter")?.textContent)) ?? "");
      }
      // Frame 2 has two overlays (pages 2 and 3): one frame, two presses, both moving the talk.
      expect(counters).toEqual(["2 / 4", "2 / 4", "3 / 4", "4 / 4"]);
      await presenter.waitFor("the last frame's notes", (t: string) => (document.querySelector("#notes")?.textContent ?? "").includes(t), [BEAMER_NOTES[3]!]);
      await shot(presenter, "beamer-presenter-last");
    });

    it("the layout override and the timer settings: applied to the audience, kept with the deck across a reload", async () => {
      await presenter.press("Home");
      await presenter.press("?");
      await presenter.waitFor("the settings", () => !document.querySelector("#help")?.hasAttribute("hidden"));
      // The speaker's own duration overrides pdfpc.sty's.
      await presenter.evaluate(() => {
        (document.querySelector("#setting-duration") as HTMLInputElement).value = "45";
        (document.querySelector("#timer-settings") as HTMLFormElement).requestSubmit();
      });
      await presenter.waitFor("the countdown at 45 minutes", () => /^(45:00|44:\d\d)$/.test(document.querySelector("#countdown")?.textContent ?? ""));
      await presenter.waitFor("the timer setting stored", () => document.body.dataset.savedTimerSettings === JSON.stringify({ durationMinutes: 45 }));
      // "None": whole pages are slides — the audience follows at once.
      await presenter.evaluate(() => {
        const select = document.querySelector("#setting-notes-position") as HTMLSelectElement;
        select.value = "none";
        select.dispatchEvent(new Event("change"));
      });
      await presenter.waitFor("the override stored", () => document.body.dataset.savedNotesPosition === "none");
      let seen = await audienceShows(1, "none");
      expect(ratio(seen)).toBeCloseTo(2 * BEAMER_SLIDE_RATIO, 1);
      // Kept with the deck: a reload of the presenter brings both back, and the audience stays split so.
      await presenter.goto(await presenter.href());
      await presenter.waitFor("the presenter again", () => document.body.dataset.ready === "true" && document.body.dataset.extras === "ready", [], 60_000);
      expect(await presenter.evaluate(() => document.body.dataset.notesPosition)).toBe("none");
      expect(await presenter.evaluate(() => document.body.dataset.notesDetected)).toBe("right");
      await presenter.waitFor("the countdown still at the speaker's 45 minutes", () => /^(45:00|44:\d\d)$/.test(document.querySelector("#countdown")?.textContent ?? ""));
      expect(ratio(await statsOf(presenter, "#current"))).toBeCloseTo(2 * BEAMER_SLIDE_RATIO, 1);
      await shot(presenter, "beamer-override-none-presenter");
      // A new audience window opens with the stored override.
      seen = await (async () => {
        await openAudience();
        return audienceShows(1, "none");
      })();
      expect(ratio(seen)).toBeCloseTo(2 * BEAMER_SLIDE_RATIO, 1);
      await shot(audience!, "beamer-override-none-audience");
      await presenter.press("?");
      await presenter.waitFor("the settings", () => !document.querySelector("#help")?.hasAttribute("hidden"));
      expect(await presenter.evaluate(() => (document.querySelector("#setting-notes-position") as HTMLSelectElement).value)).toBe("none");
      expect(await presenter.evaluate(() => (document.querySelector("#setting-duration") as HTMLInputElement).value)).toBe("45");
      // Back to what the deck says, and to its duration.
      await presenter.evaluate(() => {
        const select = document.querySelector("#setting-notes-position") as HTMLSelectElement;
        select.value = "";
        select.dispatchEvent(new Event("change"));
        (document.querySelector("#timer-settings-clear") as HTMLButtonElement).click();
      });
      seen = await audienceShows(1, "right");
      expect(ratio(seen)).toBeCloseTo(BEAMER_SLIDE_RATIO, 1);
      // The timer runs since the first slide change: the deck's 20 minutes less what has passed.
      await presenter.waitFor("the deck's 20 minutes again", () => /^(20:00|1\d:\d\d)$/.test(document.querySelector("#countdown")?.textContent ?? ""));
      await presenter.press("Escape");
    });

    it("the phone remote shows the same notes text", async () => {
      await presenter.click("#btn-live");
      await presenter.waitFor("the live session", () => document.body.dataset.live === "open" && !!document.querySelector("#live-code")?.textContent, [], 60_000);
      const controlUrl = await presenter.evaluate(() => (document.querySelector("#live-control-url") as HTMLAnchorElement).href);
      const remote = await suite.engine.newPage();
      await remote.goto(controlUrl);
      await remote.waitFor("the remote connected", () => (document.body.dataset.screen === "live" && document.body.dataset.slide === "1") || `screen ${document.body.dataset.screen}, slide ${document.body.dataset.slide}, notice: ${document.querySelector(".notice, [role=alert]")?.textContent?.trim() ?? "none"}`, [], 60_000);
      await remote.waitFor("the remote's notes", (t: string) => (document.querySelector("#notes")?.textContent ?? "").includes(t), [BEAMER_NOTES[0]!]);
      expect(await remote.evaluate(() => document.body.dataset.notesPosition)).toBe("right");
      await remote.waitFor("the remote's slide painted", () => document.querySelector("#current-frame")?.getAttribute("data-state") === "painted");
      const slide = await statsOf(remote, "#current");
      expect(ratio(slide)).toBeCloseTo(BEAMER_SLIDE_RATIO, 1);
      await pressToPage(presenter, "ArrowRight", 2);
      await remote.waitFor("the remote on page 2 with its notes", (t: string) => document.body.dataset.slide === "2" && (document.querySelector("#notes")?.textContent ?? "").includes(t), [BEAMER_NOTES[1]!]);
      await shot(remote, "beamer-remote");
      expect(await notesText(presenter)).toContain(BEAMER_NOTES[1]!);
      await remote.close();
    });
  });
}
