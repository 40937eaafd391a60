/**
 * The live panel and the remote while the presenter is away, against the compiled binary. In
 * every engine (Chromium, Firefox ESR, WebKit): the open Live and Questions panels never cover
 * the current slide — it stays whole on screen — and leave the timer, the notes and both
 * toolbars in view (boxes measured at 1280×800, 1024×700, 1920×1080; at a phone's 390×844 and
 * in small windows — 800×500, 900×505 where the slide makes room, 600×400 — the panel may take
 * the timer's and notes' place but never the slide's); a checkbox
 * clicked with the mouse in either panel keeps none of a clicker's keys (Page Down, Space, →,
 * B, . act on the talk on the projector, Shift+Q puts a viewer's question there, and the box
 * stays as clicked), while one reached with Tab keeps its Space; the talk code — alone and inside the viewer link — never breaks across lines;
 * *Show join code on the projector* puts the code, a QR code of the viewer link and the short
 * viewer link over the slide in the audience window (and nothing of the remote link) until the
 * next slide or *Hide*; *End live* asks first, *Keep live* keeps the talk (its code still
 * answers) and only the confirmed button ends it. In Chromium: a remote's press while the
 * presenter window is away waits, is sent when the window is back (only the last press), and
 * the remote says so. Screenshots go to test-output/stage-live-panel/<engine>/.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { seriousViolations } from "../helpers/axe.ts";
import { presentPdf } from "../helpers/e2e-suite.ts";
import { ENGINES, launchEngine, type Engine, type EnginePage } from "../helpers/engine.ts";
import { svgDrawsQrOf } from "../helpers/qr.ts";
import { startBinary, type BinaryServer } from "../helpers/server.ts";
import { crowdSocket } from "../helpers/crowd.ts";
import { audiencePainted, openAudience, openPresenter, pressToPage, tap, waitReady } from "../helpers/stage.ts";
import { makePresentationDeck, OUTPUT } from "./fixtures.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

const STEP_MS = 180_000;
const it = (name: string, fn: () => Promise<void>) => test(name, fn, STEP_MS);

interface Box {
  s: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** On-screen boxes (viewport CSS px) of the first element each selector finds. */
const boxesOf = (page: EnginePage, selectors: string[]) =>
  page.evaluate((sels: string[]) =>
    sels.map((s) => {
      const r = document.querySelector(s)!.getBoundingClientRect();
      return { s, x: r.x, y: r.y, w: r.width, h: r.height };
    }), selectors);

/** Two boxes share more than a hairline. */
const overlap = (a: Box, b: Box) => a.x + 1 < b.x + b.w && b.x + 1 < a.x + a.w && a.y + 1 < b.y + b.h && b.y + 1 < a.y + a.h;

/**
 * On how many lines the text `code` is drawn inside `selector` (0 if absent): a range over the
 * code's characters, wherever the markup splits them, and the distinct line tops of its boxes.
 */
const linesOfCode = (page: EnginePage, selector: string, code: string) =>
  page.evaluate((sel: string, text: string) => {
    const root = document.querySelector(sel);
    if (!root) return 0;
    const nodes: Text[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) nodes.push(walker.currentNode as Text);
    const full = nodes.map((n) => n.data).join("");
    const start = full.indexOf(text);
    if (start < 0) return 0;
    const range = document.createRange();
    let offset = 0;
    for (const n of nodes) {
      const end = offset + n.data.length;
      if (start >= offset && start < end) range.setStart(n, start - offset);
      if (start + text.length > offset && start + text.length <= end) range.setEnd(n, start + text.length - offset);
      offset = end;
    }
    const tops = Array.from(range.getClientRects()).filter((r) => r.width > 0 && r.height > 0).map((r) => r.top).sort((a, b) => a - b);
    let lines = tops.length ? 1 : 0;
    for (let i = 1; i < tops.length; i++) if (tops[i]! - tops[i - 1]! > 8) lines++;
    return lines;
  }, selector, code);

/**
 * Laptop and desktop screens, a phone held upright (the phone layout), and small windows where
 * no part of the window beside or below the slide is free enough for the panel: there the
 * slide makes room (smaller, whole), as beside a docked panel.
 */
const PRESENTER_SIZES = [[1280, 800], [1024, 700], [1920, 1080], [390, 844], [800, 500], [900, 505], [600, 400]] as const;

let server: BinaryServer;
let deckBytes: Uint8Array;

beforeAll(async () => {
  server = await startBinary();
  deckBytes = await makePresentationDeck(new Uint8Array(0), { pages: 4 });
}, STEP_MS);

afterAll(async () => {
  if (server?.proc.exitCode === null) await server.stop();
  server?.cleanup();
});

for (const name of ENGINES) {
  describe(`the live panel in ${name}`, () => {
    let engine: Engine;
    let presenter: EnginePage;
    let audience: EnginePage;
    let presenterUrl = "";
    let code = "";
    let viewerUrl = "";
    let controlUrl = "";
    const shots = join(OUTPUT, "stage-live-panel", name);
    const shot = (page: EnginePage, n: string) => page.screenshot(join(shots, `${n}.png`));
    /** Keys go to the talk: no button keeps the focus a click gave it. */
    const blur = () => presenter.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

    /**
     * Resize the presenter and wait for the open panel `sel` to settle (it follows the pane; the
     * slide is fitted again): the panel's box, what of the bars and panes it covers (on a phone
     * it may take the place of the timer and notes, never of the bars), and whether the current
     * slide is whole on screen and clear of it.
     */
    async function placedAt(sel: string, width: number, height: number) {
      // The small-screen layout's query (client/styles/presenter-small-screens.css): the toolbars fold into the Menu.
      const phone = width <= 900 || (height <= 500 && width > height);
      const upright = width <= 480 && height > width;
      await presenter.resize(width, height);
      // WebKit's window has a least width above a phone's: any upright window under 480 px is one.
      await presenter.waitFor(`a ${width}×${height} viewport`, (w: number, h: number, up: boolean) => (up ? innerWidth <= 480 && innerHeight > innerWidth : innerWidth === w && innerHeight === h), [width, height, upright]);
      const others = phone ? [".pbar", ".pfoot"] : [".pbar", "#toolbox", ".clock-pane", ".notes-pane", ".pfoot"];
      const check = (args: [string, string[]]) => {
        const [panelSel, bars] = args;
        const p = document.querySelector(panelSel)!.getBoundingClientRect();
        const hit = (b: DOMRect) => p.x + 1 < b.right && b.x + 1 < p.right && p.y + 1 < b.bottom && b.y + 1 < p.bottom;
        const f = document.querySelector("#current-frame")!.getBoundingClientRect();
        const whole = f.width > 100 && f.x >= -0.5 && f.y >= -0.5 && f.right <= innerWidth + 0.5 && f.bottom <= innerHeight + 0.5;
        return {
          panel: { x: p.x, y: p.y, w: p.width, h: p.height, inside: p.x >= -0.5 && p.y >= -0.5 && p.right <= innerWidth + 0.5 && p.bottom <= innerHeight + 0.5 },
          covered: bars.filter((s) => hit(document.querySelector(s)!.getBoundingClientRect())),
          slide: !whole ? `not whole: ${Math.round(f.x)},${Math.round(f.y)} ${Math.round(f.width)}×${Math.round(f.height)}` : hit(f) ? `covered: slide ${Math.round(f.x)}–${Math.round(f.right)}, panel ${Math.round(p.x)}–${Math.round(p.right)}` : "whole and clear",
        };
      };
      // The panel and the slide follow the pane when the browser next lays out (observers); the
      // assertions after say what is wrong if they never get there.
      await presenter.waitFor("the panel beside the slide", (args: [string, string[]]) => {
        const p = document.querySelector(args[0])!.getBoundingClientRect();
        const f = document.querySelector("#current-frame")!.getBoundingClientRect();
        return !(p.x + 1 < f.right && f.x + 1 < p.right && p.y + 1 < f.bottom && f.y + 1 < p.bottom) && f.right <= innerWidth + 0.5 && f.bottom <= innerHeight + 0.5 && p.right <= innerWidth + 0.5 && p.bottom <= innerHeight + 0.5;
      }, [[sel, others]]).catch(() => {});
      // A moment more for the slide's debounced re-fit to finish.
      await new Promise((resolve) => setTimeout(resolve, 400));
      const placed = await presenter.evaluate(check, [sel, others] as [string, string[]]);
      const viewport = await presenter.evaluate(() => `${innerWidth}×${innerHeight}`);
      expect({ width, panel: placed.panel.inside ? "inside the window" : `${JSON.stringify(placed.panel)} in ${viewport}` }).toEqual({ width, panel: "inside the window" });
      return placed;
    }

    beforeAll(async () => {
      mkdirSync(shots, { recursive: true });
      engine = await launchEngine(name, { viewport: { width: 1280, height: 800 } });
      presenter = engine.page;
      const handoff = await presentPdf(server.url, deckBytes, "Live panel.pdf");
      await openPresenter(presenter, handoff.url);
      presenterUrl = await presenter.href();
    }, STEP_MS);

    afterAll(async () => {
      await engine?.close();
    });

    it("the open panel never covers the current slide, and leaves the timer, the notes and both toolbars in view; the code never breaks across lines", async () => {
      await tap(presenter, "#btn-live");
      await presenter.waitFor("the live session", () => document.body.dataset.live === "open" && !!document.querySelector("#live-code")?.textContent, [], 30_000);
      code = await presenter.evaluate(() => document.querySelector("#live-code")!.textContent!.trim());
      viewerUrl = await presenter.evaluate(() => (document.querySelector("#live-viewer-url") as HTMLAnchorElement).href);
      controlUrl = await presenter.evaluate(() => (document.querySelector("#live-control-url") as HTMLAnchorElement).href);
      expect(code).toMatch(/^[2-9A-HJKMNP-Z]{6}$/);
      for (const [width, height] of PRESENTER_SIZES) {
        const { panel, covered, slide } = await placedAt("#live-panel", width, height);
        // The least free part the panel takes is 200 px wide (the 600×400 window's side column).
        expect(panel.w).toBeGreaterThan(width > 600 ? 250 : 199);
        expect({ width, covered }).toEqual({ width, covered: [] });
        expect({ width, slide }).toEqual({ width, slide: "whole and clear" });
        for (const sel of ["#live-code", "#live-viewer-url"]) expect({ sel, width, lines: await linesOfCode(presenter, sel, code) }).toEqual({ sel, width, lines: 1 });
        await shot(presenter, `01-live-panel-${width}x${height}`);
      }
      await presenter.resize(1280, 800);
      await presenter.waitFor("the laptop viewport again", () => window.innerWidth === 1280);
      expect(await seriousViolations(presenter)).toEqual([]);
    });

    it("the toolbar's Questions and polls opens its panel in the live panel's place, never over the current slide either, on a laptop, a large screen, a phone and small windows; closed, the slide has its room back", async () => {
      // Before the audience window opens: Firefox lays out a tab behind another one only when it comes forward.
      await tap(presenter, "#btn-questions");
      await presenter.waitFor("the Questions panel open, the live panel closed", () => !(document.querySelector("#talk-panel") as HTMLElement).hidden && (document.querySelector("#live-panel") as HTMLElement).hidden && document.querySelector("#btn-questions")?.getAttribute("aria-expanded") === "true", [], 20_000);
      for (const [width, height] of PRESENTER_SIZES) {
        const { covered, slide } = await placedAt("#talk-panel", width, height);
        expect({ width, covered }).toEqual({ width, covered: [] });
        expect({ width, slide }).toEqual({ width, slide: "whole and clear" });
        await shot(presenter, `07-questions-panel-${width}x${height}`);
      }
      await presenter.resize(1280, 800);
      await presenter.waitFor("the laptop viewport again", () => window.innerWidth === 1280);
      // Closed, the slide has its room back: wider than beside the panel.
      await presenter.waitFor("the slide re-fitted beside the docked panel", () => {
        const p = document.querySelector("#talk-panel")!.getBoundingClientRect();
        const f = document.querySelector("#current-frame")!.getBoundingClientRect();
        const pane = document.querySelector(".current-pane")!.getBoundingClientRect();
        const room = pane.width - p.width - 8;
        return (document.querySelector("#main")!.getAttribute("data-dock") === "left" && f.x >= p.right - 1 && f.width <= room + 1 && f.width > room - 40) || `slide ${Math.round(f.x)}+${Math.round(f.width)}, panel to ${Math.round(p.right)}, room ${Math.round(room)}`;
      });
      // The layout has settled (the slide's re-fit is debounced): Hide is where it will be clicked.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const docked = await presenter.evaluate(() => document.querySelector("#current-frame")!.getBoundingClientRect().width);
      await tap(presenter, "#talk-hide");
      await presenter.waitFor("the slide back to its full pane", (before: number) => {
        const f = document.querySelector("#current-frame")!.getBoundingClientRect();
        const dock = document.querySelector("#main")!.getAttribute("data-dock");
        return (!dock && f.width > before + 100) || `dock ${dock}, slide ${Math.round(f.width)} px wide (${Math.round(before)} beside the panel), panel hidden ${(document.querySelector("#talk-panel") as HTMLElement).hidden}`;
      }, [docked]);
      await tap(presenter, "#btn-live");
      await presenter.waitFor("the live panel open", () => !(document.querySelector("#live-panel") as HTMLElement).hidden && !!document.querySelector("#live-end"));
    });

    it("“Show join code on the projector”: the audience window shows the code, the viewer link's QR and short link over the slide — never the remote link — until the next slide or Hide", async () => {
      audience = await engine.newPage();
      await openAudience(audience, server.url, presenterUrl.split("/").pop()!);
      await tap(presenter, "#live-project");
      await audience.waitFor("the join card on the projector", () => {
        const card = document.querySelector<HTMLElement>("#join-card");
        return !!card && !card.hidden && card.getBoundingClientRect().width > 0;
      });
      const card = await audience.evaluate(() => ({
        text: (document.querySelector("#join-card") as HTMLElement).innerText,
        url: document.querySelector("#join-card .join-card-url")?.textContent?.trim(),
        qr: decodeURIComponent((document.querySelector("#join-card img") as HTMLImageElement).src.replace(/^data:image\/svg\+xml;charset=utf-8,/, "")),
        qrWidth: (document.querySelector("#join-card img") as HTMLImageElement).getBoundingClientRect().width,
        html: document.documentElement.outerHTML,
      }));
      expect(card.text).toContain(code);
      expect(card.url).toBe(viewerUrl.replace(/^https?:\/\//, ""));
      expect(svgDrawsQrOf(card.qr, viewerUrl)).toBe(true);
      // Big enough to scan from the room (a fifth of the window's height at least).
      expect(card.qrWidth).toBeGreaterThan((await audience.evaluate(() => window.innerHeight)) / 5);
      // The remote link (its secret after “#”) never reaches the projector.
      const secret = controlUrl.split("#")[1]!;
      expect(card.html).not.toContain(secret);
      expect(card.html).not.toContain("/control");
      expect(await linesOfCode(audience, "#join-card", code)).toBe(1);
      expect(await presenter.evaluate(() => document.querySelector("#live-project")?.getAttribute("aria-pressed"))).toBe("true");
      expect(await presenter.evaluate(() => !(document.querySelector("#join-banner") as HTMLElement).hidden)).toBe(true);
      expect(await seriousViolations(audience)).toEqual([]);
      await shot(audience, "02-audience-join-code");
      await shot(presenter, "02-presenter-join-code-shown");
      // The next slide takes it away, on both windows.
      await blur();
      await presenter.press("ArrowRight");
      await audiencePainted(audience, 2);
      await audience.waitFor("the join card gone", () => (document.querySelector("#join-card") as HTMLElement | null)?.hidden !== false);
      await presenter.waitFor("the button released", () => document.querySelector("#live-project")?.getAttribute("aria-pressed") === "false" && (document.querySelector("#join-banner") as HTMLElement).hidden === true);
      // Shown again, then Hide (the banner's button) takes it away without changing the slide.
      await tap(presenter, "#live-project");
      await audience.waitFor("the join card again", () => (document.querySelector("#join-card") as HTMLElement | null)?.hidden === false);
      await tap(presenter, "#join-banner-hide");
      await audience.waitFor("the join card hidden", () => (document.querySelector("#join-card") as HTMLElement | null)?.hidden !== false);
      expect(await audience.evaluate(() => document.body.dataset.slide)).toBe("2");
      // An audience window opened later still gets a card shown meanwhile (and not one hidden).
      await tap(presenter, "#live-project");
      await audience.waitFor("shown", () => (document.querySelector("#join-card") as HTMLElement | null)?.hidden === false);
      await audience.goto(`${server.url}/view/${presenterUrl.split("/").pop()}`);
      await waitReady(audience, "the reopened audience window", 60_000);
      await audience.waitFor("the join card in the reopened window", () => (document.querySelector("#join-card") as HTMLElement | null)?.hidden === false);
      await tap(presenter, "#live-project");
      await audience.waitFor("hidden from the panel's button", () => (document.querySelector("#join-card") as HTMLElement | null)?.hidden !== false);
    });

    if (name === "chromium") {
      it("a remote's press while the presenter window is away waits and is applied on its return (only the last press); the remote says so", async () => {
        const remote = await engine.newPage();
        await remote.goto(controlUrl);
        await remote.waitFor("the remote connected", () => document.body.dataset.screen === "live" && document.body.dataset.socket === "open" && document.body.dataset.slide === "2", [], 45_000);
        await presenter.goto("about:blank");
        await remote.waitFor("the remote told the presenter is away", () => /away/i.test(document.querySelector("#remote-status")?.textContent ?? ""), [], 20_000);
        await tap(remote, "#remote-next");
        await tap(remote, "#remote-next");
        const waiting = await remote.evaluate(() => document.querySelector("#remote-status")?.textContent ?? "");
        expect(waiting).toContain("“Next”");
        expect(waiting).toMatch(/when (they|the presenter) return/);
        await shot(remote, "03-remote-command-waiting");
        await presenter.goto(presenterUrl);
        await presenter.waitFor("the presenter back and live", () => document.body.dataset.ready === "true" && document.body.dataset.live === "open", [], 30_000);
        await presenter.waitFor("the waiting Next applied", () => document.body.dataset.slide === "3", [], 15_000);
        await remote.waitFor("the remote on slide 3", () => document.body.dataset.slide === "3");
        await remote.waitFor("the remote says it was sent", () => /sent/i.test(document.querySelector("#remote-status")?.textContent ?? ""));
        await audiencePainted(audience, 3);
        // One press was held, not two.
        expect(await presenter.evaluate(() => document.body.dataset.slide)).toBe("3");
        await shot(remote, "03-remote-command-sent");
        await remote.close();
        await tap(presenter, "#btn-live");
        await presenter.waitFor("the panel open", () => !(document.querySelector("#live-panel") as HTMLElement).hidden);
      });
    }

    it("a checkbox clicked with the mouse in the Live or Questions panel keeps none of a clicker's keys: Page Down, Space, →, B and . act on the talk on the projector, Shift+Q puts a viewer's question on it, and the box stays as clicked; one reached with Tab keeps Space", async () => {
      if (await presenter.evaluate(() => (document.querySelector("#live-panel") as HTMLElement).hidden)) await tap(presenter, "#btn-live");
      await presenter.waitFor("the live panel open", () => !(document.querySelector("#live-panel") as HTMLElement).hidden && !!document.querySelector("#live-allow-download"));
      await pressToPage(presenter, "Home", 1);
      await audiencePainted(audience, 1);
      // Whether the page took each key (its preventDefault), as the window sees it after the page
      // (modifier keys left out; a letter as its key, whatever Shift made of it).
      await presenter.evaluate(() => {
        const w = window as unknown as { __taken: string[] };
        w.__taken = [];
        window.addEventListener("keydown", (e) => {
          if (!["Shift", "Control", "Alt", "Meta"].includes(e.key)) w.__taken.push(`${e.key.length === 1 ? e.key.toLowerCase() : e.key}:${e.defaultPrevented}`);
        });
        return true;
      });
      const taken = () => presenter.evaluate(() => (window as unknown as { __taken: string[] }).__taken.splice(0));
      const isChecked = (sel: string) => presenter.evaluate((s: string) => (document.querySelector(s) as HTMLInputElement).checked, sel);

      // The Live panel: Allow viewers to save the PDF, clicked.
      const allow = !(await isChecked("#live-allow-download"));
      await tap(presenter, "#live-allow-download");
      await presenter.waitFor("the box ticked by the click", (want: boolean) => (document.querySelector("#live-allow-download") as HTMLInputElement).checked === want, [allow]);
      await pressToPage(presenter, "PageDown", 2);
      await audiencePainted(audience, 2);
      await pressToPage(presenter, "Space", 3);
      await audiencePainted(audience, 3);
      await pressToPage(presenter, "ArrowLeft", 2);
      await audiencePainted(audience, 2);
      await presenter.press("b");
      await audience.waitFor("black on the projector", () => document.body.dataset.blank === "black");
      await presenter.press(".");
      await audience.waitFor("black again off", () => document.body.dataset.blank === "none");
      // The box as clicked, and every key taken by the page. (In Firefox the box would stay as it is
      // even if Space were let through — its WebDriver BiDi keys never activate a control — so
      // there it is the page's taking of Space, in `taken`, that can fail.)
      expect(await isChecked("#live-allow-download")).toBe(allow);
      expect(await taken()).toEqual(["PageDown:true", " :true", "ArrowLeft:true", "b:true", ".:true"]);
      await shot(presenter, "05-live-panel-keys-after-checkbox");

      // The Questions panel, opened from the Live panel's own button: Q&A open, clicked.
      await tap(presenter, "#live-questions");
      await presenter.waitFor("the Questions panel in the live panel's place", () => !(document.querySelector("#talk-panel") as HTMLElement).hidden && (document.querySelector("#live-panel") as HTMLElement).hidden && !!document.querySelector("#talk-qa-open"), [], 20_000);
      expect(await presenter.evaluate(() => document.querySelector("#btn-questions")?.getAttribute("aria-expanded"))).toBe("true");
      const qa = !(await isChecked("#talk-qa-open"));
      // Q&A is closed until the presenter opens it: this click opens it, so a viewer may ask.
      expect(qa).toBe(true);
      // The box the click ticks is the page's own; the switch is drawn anew (a new element, the
      // focus put back on it) only when the server's state says Q&A is open. The old one is
      // marked, so that the wait below is for the server's answer, not for the click's tick: a
      // viewer asking before the server has it is refused QA_CLOSED.
      await presenter.evaluate(() => ((document.querySelector("#talk-qa-open") as HTMLInputElement & { __beforeClick?: boolean }).__beforeClick = true));
      await tap(presenter, "#talk-qa-open");
      await presenter.waitFor("Q&A switched by the click, as the server says", (want: boolean) => {
        const box = document.querySelector("#talk-qa-open") as HTMLInputElement & { __beforeClick?: boolean };
        return !box.__beforeClick && box.checked === want && document.body.dataset.talkPanel === "open";
      }, [qa], 20_000);
      // A viewer asks (a socket from another address): the question reaches the panel.
      const port = Number(new URL(server.url).port);
      const viewer = await crowdSocket(port, code, "127.0.0.2", `panel-keys-${name}`.padEnd(16, "x"));
      const asked = `Does the clicker still work, ${name}?`;
      viewer.send({ type: "ask", text: asked, name: "Grace" });
      await presenter
        .waitFor("the viewer's question in the panel", (text: string) => [...document.querySelectorAll("#talk-questions .talk-q-text")].some((p) => p.textContent === text), [asked], 20_000)
        .catch((error: Error) => {
          throw new Error(`${error.message}; the server refused the viewer: ${viewer.refused.join(", ") || "nothing"}`);
        });
      await pressToPage(presenter, "PageDown", 3);
      await audiencePainted(audience, 3);
      await pressToPage(presenter, "Space", 4);
      await audiencePainted(audience, 4);
      // Shift+Q puts the top question on the projector: the talk's, not the box's.
      await presenter.press("Shift+q");
      await audience.waitFor("the question on the projector", (text: string) => document.querySelector("#talk-question .talk-question-text")?.textContent === text, [asked], 20_000);
      expect(await audience.evaluate(() => document.querySelector("#talk-question .talk-question-name")?.textContent)).toBe("Grace");
      expect(await isChecked("#talk-qa-open")).toBe(qa);
      expect(await taken()).toEqual(["PageDown:true", " :true", "q:true"]);
      await shot(audience, "06-audience-question-after-shift-q");
      // Taken away again (Shift+Q with a question shown), so the projector is the slide alone.
      await presenter.press("Shift+q");
      await audience.waitFor("the question off the projector", () => !document.querySelector("#talk-question"));
      expect(await taken()).toEqual(["q:true"]);
      viewer.close();
      await shot(presenter, "06-questions-panel-keys-after-checkbox");

      // Reached with Tab (from the panel's Hide button), the switch keeps Space: the page leaves it alone.
      await presenter.evaluate(() => (document.querySelector("#talk-hide") as HTMLElement).focus());
      await presenter.press("Tab");
      expect(await presenter.evaluate(() => document.activeElement?.id)).toBe("talk-qa-open");
      await presenter.press("Space");
      expect(await taken()).toEqual(["Tab:false", " :false"]);
      expect(await presenter.evaluate(() => document.body.dataset.slide)).toBe("4");
      // Firefox's WebDriver BiDi keys never activate a control (stage-keys says so for buttons);
      // the others tick the box as a keyboard user expects.
      if (name !== "firefox") await presenter.waitFor("the box switched by the keyboard's Space", (want: boolean) => (document.querySelector("#talk-qa-open") as HTMLInputElement).checked === want, [!qa], 20_000);
      await blur();
      // Back to the live panel from the Questions panel's head.
      await tap(presenter, "#talk-live");
      await presenter.waitFor("the live panel in its place again", () => !(document.querySelector("#live-panel") as HTMLElement).hidden && (document.querySelector("#talk-panel") as HTMLElement).hidden && !!document.querySelector("#live-end"));
    });

    it("“End live” asks first: Keep live keeps the talk and its code; the confirmed button ends it for good", async () => {
      await tap(presenter, "#live-end");
      await presenter.waitFor("the confirmation", () => !!document.querySelector("#live-end-confirm"));
      const ask = await presenter.evaluate(() => ({ text: document.querySelector("#live-end-ask")?.textContent ?? "", focused: document.activeElement?.id, live: document.body.dataset.live }));
      expect(ask.live).toBe("open");
      expect(ask.text).toContain(code);
      expect(ask.focused).toBe("live-end-keep");
      expect((await fetch(`${server.url}/api/live/${code}`)).status).toBe(200);
      expect(await seriousViolations(presenter)).toEqual([]);
      await shot(presenter, "04-end-live-confirm");
      await tap(presenter, "#live-end-keep");
      await presenter.waitFor("the question gone", () => !document.querySelector("#live-end-confirm") && !!document.querySelector("#live-end"));
      expect(await presenter.evaluate(() => document.body.dataset.live)).toBe("open");
      expect((await fetch(`${server.url}/api/live/${code}`)).status).toBe(200);
      await tap(presenter, "#live-end");
      await tap(presenter, "#live-end-confirm");
      await presenter.waitFor("not live", () => document.body.dataset.live === "off", [], 20_000);
      expect((await fetch(`${server.url}/api/live/${code}`)).status).toBe(410);
    });
  });
}
