/**
 * Movies of the PDF and notes as the deck wrote them, per engine (test/helpers/engine.ts),
 * against the compiled binary, on real decks built by pdflatex (test/fixtures/beamer.ts).
 *
 * Notes: a Beamer deck with notes on a second screen (OT1: pdflatex draws "ä" as "a" and a
 * spacing "¨") whose first frame has `\note[item]` entries, a .pptx beside it whose second
 * slide's note is a hyperlinked address with underscores, a .pdfpc attached with embedfile
 * whose note on the third page is markdown (`disableMarkdown: false`) with a heading and code,
 * and on the fourth page a `\note` with that address in `\url`. The presenter shows "1. Eye
 * contact" (no backslash), "Ansätze, café and naïve", working links to article135_3818.html,
 * the heading and the code; the phone remote shows the same notes the same way — the .pptx
 * note's link too (going live sends the notes file with the deck; the remote fetches it with
 * its secret) — and on the last slide an empty "End of deck" preview; the check page shows
 * the deck's own notes the same way. A Polylux-style deck (40 pages, no page labels) with its
 * .pdfpc beside it: the remote counts "Slide 1 / 31" as the presenter does, and shows the
 * .pdfpc's notes.
 *
 * Movies: Beamer's `\movie` on page 2 naming beside.mp4, which the deck does not carry, and on
 * page 3 naming clip.webm, attached with `\embedfile` (a real clip recorded by Chromium). The
 * presenter warns before the talk; a click on the missing movie's poster keeps the slide and
 * the projector shows the poster; the attached one shows its poster on both screens until a
 * click in the presenter plays it, in both windows, without changing the slide.
 * Screenshots go to test-output/stage-movies-notes/<engine>/.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { decode } from "fast-png";
import { engineSuite, presentPdf } from "../helpers/e2e-suite.ts";
import { ENGINES, type EnginePage } from "../helpers/engine.ts";
import { withChromiumPage } from "../helpers/browser.ts";
import { audiencePainted, openAudience, openPresenter, pressToPage, tap, waitReady } from "../helpers/stage.ts";
import { buildBeamerDeck, removeBeamerDecks } from "../fixtures/beamer.ts";
import { buildPolyluxStyleDeck, polyluxPdfpc } from "../fixtures/slide-tool-decks.ts";
import { buildPptx } from "../fixtures/pptx.ts";
import { recordStageClip } from "../fixtures/stage-deck.ts";
import { writeBytes } from "../fixtures/sidecar-builder.ts";
import { OUTPUT } from "./fixtures.ts";
import { readUntil } from "../helpers/wait.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

const STEP_MS = 150_000;
const it = (name: string, fn: () => Promise<void>) => test(name, fn, STEP_MS);

const URL_NOTE = "https://www.example.org/article135_3818.html";
const ITEMS = "1. Eye contact\n2. Ansätze, café and naïve\n3. Slow down";
const PDFPC = JSON.stringify({ pdfpcFormat: 2, disableMarkdown: false, pages: [{ idx: 2, label: "3", overlay: 0, note: "# Opening\n\nRun `deckhand present talk.pdf` first." }] });
/** The posters' colours (xcolor's red and green), as pdflatex fills them. */
const RED = [255, 0, 0];
const GREEN = [0, 255, 0];

let notesDeck: Uint8Array;
let moviesDeck: Uint8Array;
let polylux: Uint8Array;
const pptx = buildPptx([{ notes: null }, { notes: [{ runs: [{ text: "Read " }, { text: URL_NOTE, link: URL_NOTE }] }] }, { notes: null }, { notes: null }]);

beforeAll(async () => {
  notesDeck = buildBeamerDeck({
    position: "right",
    noNavigation: true,
    preamble: ["\\usepackage{embedfile}", "\\embedfile{talk.pdfpc}"],
    files: { "talk.pdfpc": new TextEncoder().encode(PDFPC) },
    frames: [{ title: "Ansätze", noteItems: ["Eye contact", "Ansätze, café and naïve", "Slow down"] }, { title: "Sources" }, { title: "Demo" }, { title: "Reading", noteLatex: `Read \\url{${URL_NOTE}}` }],
  });
  const clip = await withChromiumPage("about:blank", recordStageClip);
  moviesDeck = buildBeamerDeck({
    position: null,
    noNavigation: true,
    preamble: ["\\usepackage{embedfile}", "\\embedfile{clip.webm}"],
    files: { "clip.webm": clip },
    frames: [{ title: "Intro" }, { title: "Beside", movie: { file: "beside.mp4", poster: "red" } }, { title: "Attached", movie: { file: "clip.webm", poster: "green" } }],
  });
  polylux = buildPolyluxStyleDeck();
}, 300_000);
afterAll(() => removeBeamerDecks());

/** The notes pane's text as shown, and whether any backslash is in it. */
function notesText(page: EnginePage) {
  return page.evaluate(() => (document.querySelector("#notes") as HTMLElement).innerText.trim());
}

/**
 * The colour the audience window shows at a medium's rectangle (`fx`, `fy`: where in it, 0–1),
 * read from a screenshot; the box's place is its style's percentages of the frame.
 */
async function pixelInMedium(page: EnginePage, file: string, id: string, fx: number, fy: number): Promise<number[]> {
  await page.screenshot(file);
  const png = decode(readFileSync(file));
  const at = await page.evaluate(
    (m: string, x: number, y: number) => {
      const frame = document.querySelector("#frame")!.getBoundingClientRect();
      const box = document.querySelector<HTMLElement>(`[data-media='${m}']`)!;
      const pct = (v: string) => Number.parseFloat(v) / 100;
      return { x: frame.x + frame.width * (pct(box.style.left) + pct(box.style.width) * x), y: frame.y + frame.height * (pct(box.style.top) + pct(box.style.height) * y), innerWidth };
    },
    id,
    fx,
    fy,
  );
  const scale = png.width / at.innerWidth;
  const i = (Math.round(at.y * scale) * png.width + Math.round(at.x * scale)) * png.channels;
  return [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
}

/**
 * pixelInMedium once `ok` holds for it, or the last one after 6 s (the assertion that follows
 * then fails on it). WebKit's screenshot of a window that is not in front can show a frame from
 * before its latest paint; what the page itself says (the movie playing) is awaited before.
 */
function pixelInMediumWhen(page: EnginePage, file: string, id: string, fx: number, fy: number, ok: (rgb: number[]) => boolean): Promise<number[]> {
  return readUntil(() => pixelInMedium(page, file, id, fx, fy), ok, 6000);
}

/** Go live from the presenter, and open the phone remote's link in a phone-sized window. */
async function goLiveAndOpenRemote(presenter: EnginePage, engine: { newPage(): Promise<EnginePage> }): Promise<EnginePage> {
  await presenter.click("#btn-live");
  await presenter.waitFor("live", () => document.body.dataset.live === "open" && !!document.querySelector<HTMLAnchorElement>("#live-control-url")?.href, [], 30_000);
  const controlUrl = await presenter.evaluate(() => document.querySelector<HTMLAnchorElement>("#live-control-url")!.href);
  await presenter.click("#live-hide");
  const remote = await engine.newPage();
  await remote.resize(420, 860);
  await remote.goto(controlUrl);
  return remote;
}

const near = (rgb: number[], target: number[], tolerance = 30) => rgb.every((v, i) => Math.abs(v - target[i]!) <= tolerance);

for (const name of ENGINES) {
  describe(`movies and notes as written in ${name}`, () => {
    const shots = join(OUTPUT, "stage-movies-notes", name);
    const suite = engineSuite(name, { shots, launch: { viewport: { width: 1280, height: 800 } }, timeoutMs: STEP_MS });
    const presenter = suite.page;
    const shot = (page: EnginePage, file: string) => page.screenshot(join(shots, `${file}.png`));

    it("the presenter shows Beamer's \\note[item] list as drawn: 1. Eye contact (no backslash), Ansätze, café and naïve", async () => {
      const handoff = await presentPdf(suite.server.url, notesDeck, "Notes as written.pdf", { notes: new File([pptx as Uint8Array<ArrayBuffer>], "Notes as written.pptx") });
      await openPresenter(presenter, handoff.url);
      await presenter.waitFor("the notes half's text", () => (document.querySelector("#notes") as HTMLElement).innerText.includes("Eye contact"), [], 30_000);
      const text = await notesText(presenter);
      expect(text).toBe(ITEMS);
      expect(text).not.toContain("\\");
      await shot(presenter, "01-presenter-notes-item-list-accents");
    });

    it("the PowerPoint note's address keeps its underscore and is a working link; the .pdfpc's markdown shows its heading and code", async () => {
      await pressToPage(presenter, "ArrowRight", 2);
      await presenter.waitFor("the pptx note", (u: string) => !!document.querySelector(`#notes a[href='${u}']`), [URL_NOTE], 20_000);
      expect(await notesText(presenter)).toBe(`Read ${URL_NOTE}`);
      expect(await presenter.evaluate(() => [...document.querySelectorAll("#notes a")].map((a) => ({ text: a.textContent, href: a.getAttribute("href"), target: a.getAttribute("target"), rel: a.getAttribute("rel") })))).toEqual([{ text: URL_NOTE, href: URL_NOTE, target: "_blank", rel: "noopener noreferrer" }]);
      await shot(presenter, "02-presenter-pptx-link");
      await pressToPage(presenter, "ArrowRight", 3);
      await presenter.waitFor("the pdfpc markdown", () => !!document.querySelector("#notes h1"), [], 20_000);
      expect(await presenter.evaluate(() => ({ h1: document.querySelector("#notes h1")?.textContent, code: document.querySelector("#notes code")?.textContent }))).toEqual({ h1: "Opening", code: "deckhand present talk.pdf" });
      await shot(presenter, "03-presenter-pdfpc-markdown");
      // The deck's own note with the address (\url keeps the underscore, even in OT1): a link too.
      await pressToPage(presenter, "ArrowRight", 4);
      await presenter.waitFor("the notes half's link", (u: string) => !!document.querySelector(`#notes a[href='${u}']`), [URL_NOTE], 20_000);
      expect(await notesText(presenter)).toBe(`Read ${URL_NOTE}`);
    });

    it("the phone remote shows the notes the same way: the list as drawn, the .pptx beside the PDF with its working link, and an empty preview on the last slide", async () => {
      await pressToPage(presenter, "Home", 1);
      const remote = await goLiveAndOpenRemote(presenter, suite.engine);
      await remote.waitFor("the remote's notes", () => document.body.dataset.screen === "live" && (document.querySelector("#notes") as HTMLElement | null)?.innerText.includes("Eye contact") === true, [], 45_000);
      expect(await remote.evaluate(() => document.body.dataset.notesFile)).toBe("notes");
      const text = await notesText(remote);
      expect(text).toBe(ITEMS);
      await shot(remote, "04-remote-notes-item-list");
      // The remote drives the talk; slide 2's notes come from the PowerPoint file beside the PDF.
      await remote.click("#remote-next");
      await presenter.waitFor("the presenter moved by the remote", () => document.body.dataset.slide === "2", [], 15_000);
      await remote.waitFor("the pptx note's link on the remote", (u: string) => !!document.querySelector(`#notes a[href='${u}']`), [URL_NOTE], 30_000);
      expect(await notesText(remote)).toBe(`Read ${URL_NOTE}`);
      expect(await remote.evaluate(() => [...document.querySelectorAll("#notes a")].map((a) => ({ text: a.textContent, href: a.getAttribute("href"), target: a.getAttribute("target"), rel: a.getAttribute("rel") })))).toEqual([{ text: URL_NOTE, href: URL_NOTE, target: "_blank", rel: "noopener noreferrer" }]);
      await shot(remote, "05-remote-pptx-link");
      // The presenter's End brings it to the last page: the deck's own \url note, and no next slide.
      await pressToPage(presenter, "End", 4);
      await remote.waitFor("the remote's link", (u: string) => document.body.dataset.slide === "4" && (document.querySelector("#notes") as HTMLElement).innerText.trim() === `Read ${u}`, [URL_NOTE], 30_000);
      expect(await remote.evaluate(() => document.querySelector("#notes a")?.getAttribute("target"))).toBe("_blank");
      expect(await remote.evaluate(() => ({
        caption: document.querySelector("#next-caption")?.textContent,
        card: !document.querySelector<HTMLElement>("#next-end")!.hidden,
        thumbnail: !document.querySelector<HTMLCanvasElement>("#next")!.hidden,
        next: document.body.dataset.nextSlide,
      }))).toEqual({ caption: "End of deck", card: true, thumbnail: false, next: "" });
      await shot(remote, "05b-remote-last-slide-end-of-deck");
      // One slide back, the preview shows the last slide again.
      await remote.click("#remote-prev");
      await remote.waitFor("the preview back", () => document.body.dataset.nextSlide === "4" && !document.querySelector<HTMLCanvasElement>("#next")!.hidden && document.querySelector<HTMLElement>("#next-end")!.hidden, [], 20_000);
      await remote.close();
    });

    it("the check page renders the notes the presenter shows, the same way", async () => {
      const check = await suite.engine.newPage();
      await check.goto(`${suite.server.url}/check`);
      await check.upload("#file-input", writeBytes(notesDeck, "notes-as-written.pdf").path);
      await waitReady(check, "the report", 60_000);
      const rendered = await check.evaluate(() => [...document.querySelectorAll(".rendered-notes")].map((el) => ({ format: (el as HTMLElement).dataset.format, text: (el as HTMLElement).innerText.trim(), h1: el.querySelector("h1")?.textContent ?? null })));
      expect(rendered).toEqual([
        { format: "text", text: ITEMS, h1: null },
        { format: "markdown", text: expect.stringContaining("Opening") as unknown as string, h1: "Opening" },
        { format: "text", text: `Read ${URL_NOTE}`, h1: null },
      ]);
      expect(await check.evaluate(() => document.querySelectorAll(".rendered-notes a").length)).toBe(1);
      await shot(check, "06-check-page-notes");
      await check.close();
    });

    it("a Polylux deck with its .pdfpc beside it: the remote counts its slides as the presenter does (1 / 31) and shows the .pdfpc's notes", async () => {
      const pdfpc = polyluxPdfpc({ notes: { 1: "Welcome from the **pdfpc** file", 2: "The build on slide two" } });
      const handoff = await presentPdf(suite.server.url, polylux, "Polylux remote.pdf", { notes: new File([pdfpc], "Polylux remote.pdfpc", { type: "application/json" }) });
      expect(handoff.next).toContain("(40 pages, 31 slides, with speaker notes");
      await openPresenter(presenter, handoff.url);
      expect(await presenter.evaluate(() => document.querySelector("#counter")?.textContent)).toBe("1 / 31");
      const remote = await goLiveAndOpenRemote(presenter, suite.engine);
      await remote.waitFor("the remote's grouped counter", () => document.body.dataset.screen === "live" && document.querySelector("#counter")?.textContent === "Slide 1 / 31", [], 45_000);
      await remote.waitFor("the .pdfpc's note", () => !!document.querySelector("#notes strong"), [], 20_000);
      expect(await notesText(remote)).toBe("Welcome from the pdfpc file");
      // The next slide is the next slide, not the next page (slide 2 is pages 2–4).
      expect(await remote.evaluate(() => document.querySelector("#next-caption")?.textContent)).toBe("Next: 2");
      await remote.waitFor("both slides painted", () => ["#current-frame", "#next-frame"].every((sel) => document.querySelector<HTMLElement>(sel)?.dataset.state === "painted"), [], 20_000);
      await shot(remote, "06b-remote-polylux-grouped");
      // A build's steps are one slide: page 3 is slide 2 of 31 on both.
      await remote.click("#remote-next");
      await presenter.waitFor("the presenter on page 2", () => document.body.dataset.slide === "2", [], 15_000);
      await remote.waitFor("the remote on page 2", () => document.body.dataset.slide === "2", [], 15_000);
      await remote.waitFor("slide two's note", () => (document.querySelector("#notes") as HTMLElement).innerText.includes("The build on slide two"), [], 15_000);
      expect(await remote.evaluate(() => document.querySelector("#counter")?.textContent)).toBe("Slide 2 / 31");
      await remote.click("#remote-next");
      await presenter.waitFor("the presenter on page 3", () => document.body.dataset.slide === "3", [], 15_000);
      await remote.waitFor("the remote on page 3", () => document.body.dataset.slide === "3", [], 15_000);
      expect(await remote.evaluate(() => document.querySelector("#counter")?.textContent)).toBe("Slide 2 / 31");
      expect(await presenter.evaluate(() => document.querySelector("#counter")?.textContent)).toBe("2 / 31");
      await pressToPage(presenter, "End", 40);
      await remote.waitFor("the remote on the last slide", () => document.querySelector("#counter")?.textContent === "Slide 31 / 31" && document.querySelector("#next-caption")?.textContent === "End of deck", [], 20_000);
      await remote.waitFor("the last slide painted", () => document.querySelector<HTMLElement>("#current-frame")?.dataset.state === "painted" && document.querySelector<HTMLElement>("#current-frame")?.dataset.page === "40", [], 20_000);
      await shot(remote, "06c-remote-polylux-last-slide");
      await remote.close();
    });

    it("a movie beside the PDF: the presenter is warned before the talk, a click on its poster keeps the slide, the projector keeps the poster", async () => {
      const handoff = await presentPdf(suite.server.url, moviesDeck, "Movies.pdf");
      await openPresenter(presenter, handoff.url);
      await presenter.waitFor("the movie warning", () => /beside\.mp4/.test(document.querySelector("#movies-missing")?.textContent ?? ""), [], 20_000);
      const warning = await presenter.evaluate(() => document.querySelector("#movies-missing")!.textContent ?? "");
      expect(warning).toContain("A movie of this deck cannot play: “beside.mp4” (slide 2)");
      expect(warning).not.toContain("clip.webm");
      await shot(presenter, "07-presenter-movie-warning");
      const deckId = (await presenter.href()).split("/").pop()!;
      const audience = await suite.engine.newPage();
      await openAudience(audience, suite.server.url, deckId);
      await pressToPage(presenter, "ArrowRight", 2);
      await audiencePainted(audience, 2);
      await presenter.waitFor("the movie's tag", () => /beside\.mp4/.test(document.querySelector("[data-media='beside'] .media-note")?.textContent ?? ""), [], 20_000);
      await tap(presenter, "[data-media='beside']");
      await new Promise((r) => setTimeout(r, 1500));
      expect(await presenter.evaluate(() => document.body.dataset.slide)).toBe("2");
      await shot(presenter, "08-presenter-missing-movie-tag");
      // The projector: no box drawn, the poster (the PDF page) at the movie's place.
      await audience.waitFor("the audience's copy silenced", () => document.querySelector<HTMLElement>("[data-media='beside']")?.hidden === true, [], 20_000);
      expect(near(await pixelInMedium(audience, join(shots, "09-audience-missing-movie-poster.png"), "beside", 0.5, 0.5), RED)).toBe(true);
      expect(await audience.evaluate(() => document.body.innerText.trim())).toBe("");

      // The attached movie: its poster on both screens until the presenter's click plays it.
      await pressToPage(presenter, "ArrowRight", 3);
      await audiencePainted(audience, 3);
      await audience.waitFor("the attached movie mounted", () => !!document.querySelector("[data-media='clip'] video"), [], 20_000);
      expect(near(await pixelInMedium(audience, join(shots, "10-audience-movie-poster-before-play.png"), "clip", 0.25, 0.3), GREEN)).toBe(true);
      await presenter.waitFor("the presenter's movie ready", () => (document.querySelector<HTMLVideoElement>("[data-media='clip'] video")?.readyState ?? 0) >= 2, [], 20_000);
      await shot(presenter, "11-presenter-movie-click-to-play");
      await tap(presenter, "[data-media='clip']");
      await presenter.waitFor("the presenter's movie playing", () => (document.querySelector<HTMLVideoElement>("[data-media='clip'] video")?.currentTime ?? 0) > 0.5, [], 20_000);
      await audience.waitFor("the audience's movie playing", () => {
        const v = document.querySelector<HTMLVideoElement>("[data-media='clip'] video");
        return !!v && !v.paused && v.currentTime > 0.3 && v.style.opacity === "";
      }, [], 20_000);
      expect(await presenter.evaluate(() => document.body.dataset.slide)).toBe("3");
      expect(near(await pixelInMediumWhen(audience, join(shots, "12-audience-movie-playing.png"), "clip", 0.25, 0.3, (rgb) => !near(rgb, GREEN)), GREEN)).toBe(false);
      await shot(presenter, "13-presenter-movie-playing");
      // A second click pauses it, still without changing the slide.
      await tap(presenter, "[data-media='clip']");
      await presenter.waitFor("the presenter's movie paused", () => document.querySelector<HTMLVideoElement>("[data-media='clip'] video")?.paused === true, [], 10_000);
      expect(await presenter.evaluate(() => document.body.dataset.slide)).toBe("3");
      await audience.close();
    });
  });
}
