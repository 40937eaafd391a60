/**
 * The keys never betray the speaker, against the compiled binary in every engine (Chromium,
 * Firefox ESR, WebKit), on a 46-slide deck of 51 pages:
 * - safe digits: what the audience window receives over its BroadcastChannel is
 *   recorded, and no tool reaches it while a number is typed (`4` `5` `Enter` jumps to slide
 *   45, `3` `5` `Esc`, `2` `3` …); `1`, the wait, `Enter` is Next, not slide 1; the "Go to"
 *   prompt goes by itself. A digit that is not part of a go-to number changes nothing: `2` and
 *   a mouse move leave Normal, `5` then → is the next page with no spotlight, `3`, a pause and
 *   a click on the slide is a click (the next page, no dot on the projector). pdfpc's digit
 *   tools, turned on in the Keys panel: `2`, a mouse move, `Enter` is the pointer and Next; a
 *   lone `5` left alone becomes the spotlight (then, and only then, on the audience); `3` and
 *   a click draw a dot; turned off, digits are numbers only again.
 * - a clicker's F5 and Shift+F5 never reload the presenter: not with the overview open, not
 *   with the focus in a text field (a mark left on the window survives, the key is taken); nor
 *   the audience window, even with F5 taken off "Full screen" in Keys.
 * - clicked buttons keep no keys: after *Black* is clicked with the mouse, `Space` and `Enter`
 *   step the talk and the audience stays black; a button reached with Tab still takes Enter.
 * - a newcomer finds everything: Tab from the page walks the controls and never opens the
 *   overview; axe passes; *As it came* is the download offered first until there is ink, then
 *   *With the ink*; the library says "51 pages · 46 slides" and the presenter "/ 46" with
 *   "page N / 51" (the start page too, held on screen in Chromium by holding its claim's last
 *   request).
 * Screenshots go to test-output/stage-keys/<engine>/.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Page, Route } from "playwright-core";
import { seriousViolations } from "../helpers/axe.ts";
import { engineSuite, presentPdf } from "../helpers/e2e-suite.ts";
import { ENGINES, type Engine, type EnginePage } from "../helpers/engine.ts";
import { audiencePainted, openAudience, pressToPage, tap, waitReady } from "../helpers/stage.ts";
import { keysPageOf, makeKeysDeck } from "../fixtures/keys-deck.ts";
import { OUTPUT } from "../fixtures/stage-deck.ts";
import { KEYMAP_STORAGE_KEY } from "../../client/src/presenter/keymap-store.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

const STEP_MS = 180_000;
const it = (name: string, fn: () => Promise<void>) => test(name, fn, STEP_MS);

interface Seen {
  type: string;
  page?: number;
  mode?: string;
  blank?: string;
}

for (const name of ENGINES) {
  describe(`stage keys in ${name}`, () => {
    const shots = join(OUTPUT, "stage-keys", name);
    const suite = engineSuite(name, { shots, launch: { viewport: { width: 1440, height: 900 } }, timeoutMs: STEP_MS });
    const presenter = suite.page;
    let audience: EnginePage;
    let deckId = "";
    const shot = (page: EnginePage, n: string) => page.screenshot(join(shots, `${n}.png`));

    const state = () => presenter.evaluate(() => (window as unknown as { __deckhand: { state(): { page: number; mode: string; entry: string; blank: string; panel: string } } }).__deckhand.state());
    const go = (chord: string, page: number) => pressToPage(presenter, chord, page);
    const modeIs = (mode: string) => presenter.waitFor(`mode ${mode}`, (m: string) => document.body.dataset.mode === m, [mode]);
    /** Start recording what the audience window is sent (a second listener on its channel). */
    const record = () =>
      audience.evaluate((id: string) => {
        const w = window as unknown as { __seen: Seen[]; __tap?: BroadcastChannel };
        w.__seen = [];
        w.__tap ??= new BroadcastChannel(`deckhand:deck:${id}`);
        w.__tap.onmessage = (e: MessageEvent<{ type: string; state?: { page: number; mode: string; blank: string } }>) => {
          w.__seen.push({ type: e.data.type, page: e.data.state?.page, mode: e.data.state?.mode, blank: e.data.state?.blank });
        };
        return true;
      }, deckId);
    const seen = () => audience.evaluate(() => (window as unknown as { __seen: Seen[] }).__seen);
    /** The modes the audience was told since recording started. */
    const modesSeen = async () => [...new Set((await seen()).filter((m) => m.type === "state").map((m) => m.mode))];
    const prompt = () => presenter.evaluate(() => (document.querySelector("#goto") as HTMLElement).hidden ? "" : document.querySelector("#goto")!.textContent);
    /** A real mouse click at an element's centre (the engine's own input, as a hand would). */
    async function clickWithMouse(selector: string) {
      const c = await presenter.evaluate((sel: string) => {
        const r = document.querySelector(sel)!.getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
      }, selector);
      await presenter.mouse([{ type: "move", ...c }, { type: "down" }, { type: "up" }]);
    }
    /** Strokes on PDF page `page`, as the presenter keeps them (what the audience window is sent). */
    const inkCount = (page: number) => presenter.evaluate((p: number) => (window as unknown as { __deckhand: { state(): { ink: Record<number, unknown[]> } } }).__deckhand.state().ink[p]?.length ?? 0, page);
    /** A real mouse click on the presenter's slide, at `fx` of its width. */
    async function clickOnSlide(fx: number) {
      const b = await presenter.evaluate(() => {
        const r = document.querySelector("#current-frame")!.getBoundingClientRect();
        return { x: r.x, y: r.y, w: r.width, h: r.height };
      });
      await presenter.mouse([{ type: "move", x: b.x + fx * b.w, y: b.y + b.h / 2 }, { type: "down" }, { type: "up" }]);
    }
    /** Move the real mouse over the presenter's slide. */
    async function moveOverSlide(fx: number) {
      const b = await presenter.evaluate(() => {
        const r = document.querySelector("#current-frame")!.getBoundingClientRect();
        return { x: r.x, y: r.y, w: r.width, h: r.height };
      });
      await presenter.mouse([{ type: "move", x: b.x + fx * b.w, y: b.y + b.h / 2 }, { type: "move", x: b.x + fx * b.w + 12, y: b.y + b.h / 2 + 6 }]);
    }


    it("the start page, the library and the presenter count the deck the same way: 51 pages · 46 slides, / 46", async () => {
      const handoff = await presentPdf(suite.server.url, await makeKeysDeck(), "Keys.pdf");
      const raw = (suite.engine as Engine & { raw?: Page }).raw;
      let release: (() => void) | null = null;
      if (raw) {
        // Chromium: hold the claim's last request, so the start page stays with its count on screen.
        const held = new Promise<void>((resolve) => (release = resolve));
        await raw.route(/\/api\/sessions\/[^/]+\/handoff\/complete/, async (route: Route) => {
          await held;
          await route.continue();
        });
      }
      const opening = presenter.goto(handoff.url);
      if (raw) {
        await raw.waitForFunction(() => document.querySelector("#meta")?.textContent?.includes("slides"), undefined, { timeout: 45_000 });
        expect(await raw.textContent("#meta")).toContain("51 pages · 46 slides");
        await raw.screenshot({ path: join(shots, "00-start-page-count.png") });
        release!();
      }
      await opening;
      await waitReady(presenter, "the presenter", 90_000);
      if (raw) await raw.unroute(/\/api\/sessions\/[^/]+\/handoff\/complete/);
      deckId = (await presenter.href()).split("/").pop()!;
      const counter = await presenter.evaluate(() => ({ text: document.querySelector("#counter")!.textContent, pages: document.querySelector("#counter-pages")!.textContent, label: document.querySelector("#counter")!.getAttribute("aria-label") }));
      expect(counter.text).toBe("1 / 46");
      expect(counter.pages).toBe("page 1 / 51");
      expect(counter.label).toBe("Slide 1 of 46 (page 1 of 51)");
      audience = await suite.engine.newPage();
      await audience.goto(`${suite.server.url}/`);
      await audience.waitFor("the library", () => !!document.querySelector(".deck-card .deck-meta"), [], 30_000);
      expect(await audience.evaluate(() => document.querySelector(".deck-card .deck-meta")!.textContent)).toContain("51 pages · 46 slides");
      await openAudience(audience, suite.server.url, deckId);
      await presenter.waitFor("the notes and timer", () => document.body.dataset.extras === "ready");
    });

    it("an idle presenter runs no animation: the cards over the step and next previews stand still", async () => {
      // Slide 1 has no builds of its own: the step preview's place holds its card. A skeleton
      // left shimmering under a card cost a style recalculation every frame, for as long as the
      // card was up (an idle presenter kept both of WebKit's cores busy).
      await presenter.waitFor("slide 1 painted", () => document.querySelector("#current-frame")?.getAttribute("data-state") === "painted");
      await presenter.waitFor("the step preview's card", () => document.body.dataset.nextStep === "" && document.querySelector("#step-frame")?.getAttribute("data-state") === "card");
      const stillness = () => {
        const running = document.getAnimations().filter((a) => a.playState === "running");
        return running.length === 0 || `running: ${running.map((a) => `${(a as CSSAnimation).animationName} on #${((a.effect as KeyframeEffect | null)?.target as Element | null)?.id}`).join(", ")}`;
      };
      await presenter.waitFor("no animation left running", stillness);
      // The last slide: the next preview's place holds the end card, standing still too.
      await go("End", 51);
      await presenter.waitFor("the next preview's card", () => document.body.dataset.nextSlide === "" && document.querySelector("#next-frame")?.getAttribute("data-state") === "card");
      await presenter.waitFor("no animation left running on the last slide", stillness);
      await go("Home", 1);
    });

    it("a typed number shows only in the presenter's footer; `4` `5` `Enter` jumps to slide 45 and the audience is told nothing but the jump", async () => {
      // The prompt, looked at (this may outlast the wait; Esc puts everything back either way).
      await presenter.press("4");
      await presenter.press("5");
      expect(await prompt()).toBe("Go to 45 ⏎");
      await shot(presenter, "01-typing-45-presenter");
      await presenter.press("Escape");
      await presenter.press("3");
      expect(await prompt()).toBe("Go to 3 ⏎");
      await shot(presenter, "01-typing-3-presenter");
      await presenter.press("Escape");
      await presenter.press("Escape");
      await modeIs("normal");
      expect(await state()).toMatchObject({ entry: "", page: 1 });
      // Typed as a speaker types it: every state the audience is sent is recorded.
      await record();
      await presenter.press("4");
      await presenter.press("5");
      await go("Enter", keysPageOf("45"));
      await audiencePainted(audience, keysPageOf("45"));
      await shot(audience, "01-audience-after-45");
      const states = (await seen()).filter((m) => m.type === "state");
      expect([...new Set(states.map((m) => m.mode))]).toEqual(["normal"]);
      expect([...new Set(states.map((m) => m.page))]).toEqual([keysPageOf("45")]);
      expect(await presenter.evaluate(() => document.querySelector("#counter")!.textContent + " · " + document.querySelector("#counter-pages")!.textContent)).toBe(`45 / 46 · page ${keysPageOf("45")} / 51`);
    });

    it("no number with a 2–5 flashes a tool on the projector", async () => {
      await record();
      for (const digits of [["3", "5"], ["2", "3"], ["5", "2"], ["2", "4", "5"], ["4"]]) {
        for (const d of digits) await presenter.press(d);
        await presenter.press("Escape");
      }
      expect(await state()).toMatchObject({ entry: "", mode: "normal" });
      // One change the audience must see, so anything sent before it has arrived too.
      await presenter.press("b");
      await audience.waitFor("black", () => document.body.dataset.blank === "black");
      await presenter.press("b");
      await audience.waitFor("no black", () => document.body.dataset.blank === "none");
      expect(await modesSeen()).toEqual(["normal"]);
    });

    it("`1`, the wait, then `Enter` is Next — not slide 1 — and the prompt goes by itself", async () => {
      await go("Home", 1);
      await go("End", 51);
      await go("PageUp", 50);
      await presenter.press("1");
      expect(await prompt()).toBe("Go to 1 ⏎");
      // The number expires (about 2 s) with no key or pointer: the prompt is gone.
      await presenter.waitFor("the prompt gone", () => (document.querySelector("#goto") as HTMLElement).hidden === true, [], 10_000);
      expect((await state()).entry).toBe("");
      await go("Enter", 51);
    });

    it("a lone digit arms no tool: `2` and a mouse move leave Normal; `5` then → is the next page, no spotlight; `3`, a pause and a click on the slide is a click — no dot on the projector", async () => {
      await go("Home", 1);
      await record();
      await presenter.press("2");
      await moveOverSlide(0.4);
      await presenter.waitFor("the number dropped by the move", () => (document.querySelector("#goto") as HTMLElement).hidden === true);
      await go("Enter", 2);
      expect(await state()).toMatchObject({ mode: "normal", entry: "" });
      await presenter.press("5");
      await go("ArrowRight", 3);
      await audiencePainted(audience, 3);
      expect((await state()).mode).toBe("normal");
      await presenter.press("3");
      await presenter.waitFor("the number expired", () => (document.querySelector("#goto") as HTMLElement).hidden === true, [], 10_000);
      await clickOnSlide(0.5);
      await presenter.waitFor("the click stepped the talk", () => document.body.dataset.slide === "4");
      await audiencePainted(audience, 4);
      expect(await inkCount(3)).toBe(0);
      expect(await inkCount(4)).toBe(0);
      expect(await audience.evaluate(() => document.body.dataset.ink ?? "0")).toBe("0");
      expect(await modesSeen()).toEqual(["normal"]);
      await shot(audience, "02-audience-after-stray-digits");
    });

    it("pdfpc's digit tools, turned on in Keys: `2` and a mouse move pick the pointer; a lone `5` left alone becomes the spotlight, only then on the audience; `3`, a pause and a click draws a dot; off again, digits are numbers only", async () => {
      const digitTools = async (on: boolean) => {
        await presenter.press("?");
        await presenter.waitFor("the keys panel", () => document.body.dataset.panel === "help");
        if ((await presenter.evaluate(() => (document.querySelector("#setting-digit-tools") as HTMLInputElement).checked)) !== on) await tap(presenter, "#setting-digit-tools");
        await presenter.waitFor(`digit tools ${on ? "on" : "off"}, listed as rows`, (want: boolean) => (document.querySelector("#setting-digit-tools") as HTMLInputElement).checked === want && !!document.querySelector('#keys tr[data-binding="modePen:digit"]') === want, [on]);
        if (on) await shot(presenter, "02-keys-digit-tools-on");
        await presenter.press("Escape");
        await presenter.waitFor("the keys panel closed", () => document.body.dataset.panel === "none");
      };
      await digitTools(true);
      await go("Home", 1);
      await record();
      await presenter.press("2");
      expect((await state()).mode).toBe("normal");
      await moveOverSlide(0.4);
      await modeIs("pointer");
      expect((await state()).entry).toBe("");
      await go("Enter", 2);
      expect((await state()).mode).toBe("pointer");
      await audience.waitFor("the pointer told to the audience", () => (window as unknown as { __seen: Seen[] }).__seen.some((m) => m.mode === "pointer"));
      await record();
      await presenter.press("Escape");
      await modeIs("normal");
      await audience.waitFor("Normal told to the audience", () => (window as unknown as { __seen: Seen[] }).__seen.some((m) => m.mode === "normal"));
      await record();
      await presenter.press("5");
      await modeIs("spotlight");
      await audience.waitFor("the spotlight mode told", () => (window as unknown as { __seen: Seen[] }).__seen.some((m) => m.mode === "spotlight"));
      // The spotlight and nothing else: no other tool flashed on the way.
      expect(await modesSeen()).toEqual(["spotlight"]);
      await presenter.press("Escape");
      await modeIs("normal");
      // `3`, the wait: the pen; a click on the slide is a dot, on the projector too.
      await presenter.press("3");
      await modeIs("pen");
      await clickOnSlide(0.5);
      await presenter.waitFor("a dot drawn", () => document.body.dataset.slide === "2" && (window as unknown as { __deckhand: { state(): { ink: Record<number, unknown[]> } } }).__deckhand.state().ink[2]?.length === 1);
      await audience.waitFor("the dot on the projector", () => document.body.dataset.slide === "2" && document.body.dataset.ink === "1");
      expect(await inkCount(2)).toBe(1);
      await presenter.press("c");
      await presenter.press("Escape");
      await modeIs("normal");
      await digitTools(false);
      await presenter.press("5");
      await go("ArrowRight", 3);
      expect((await state()).mode).toBe("normal");
    });

    it("every navigation key has a button: Go to… in the footer opens the go-to panel, whose moves act and close it", async () => {
      await go("Home", 1);
      await tap(presenter, "#btn-goto");
      await presenter.waitFor("the go-to panel", () => document.body.dataset.panel === "goto");
      const buttons = await presenter.evaluate(() => Array.from(document.querySelectorAll<HTMLElement>(".goto-nav [data-action]")).map((b) => b.dataset.action));
      expect(buttons).toEqual(["first", "prev10", "prevSlide", "nextSlide", "next10", "last", "prevForced", "nextForced", "histBack", "histFwd", "bookmarkSet", "bookmarkGo"]);
      await shot(presenter, "02-goto-panel");
      await tap(presenter, '.goto-nav [data-action="next10"]');
      await presenter.waitFor("ten slides on, the panel closed", () => (document.querySelector("#counter")?.textContent === "11 / 46" && document.body.dataset.panel === "none") || `${document.querySelector("#counter")?.textContent} ${document.body.dataset.panel}`);
      await tap(presenter, "#btn-goto");
      await tap(presenter, '.goto-nav [data-action="histBack"]');
      await presenter.waitFor("back in the history", () => document.body.dataset.slide === "1" && document.body.dataset.panel === "none");
    });

    it("a clicker's F5 and Shift+F5 never reload the presenter (not with the overview open, not with the focus in a text field) nor the audience window (not with F5 off Full screen)", async () => {
      await go("Home", 1);
      // A mark on this window (a reload would take it), and whether each F5 was taken from the browser.
      await presenter.evaluate(() => {
        const w = window as unknown as { __stayed: boolean; __f5: boolean[] };
        w.__stayed = true;
        w.__f5 = [];
        window.addEventListener("keydown", (e) => void (e.key === "F5" && w.__f5.push(e.defaultPrevented)));
        return true;
      });
      const stayed = () => presenter.evaluate(() => (window as unknown as { __stayed?: boolean }).__stayed === true);
      await presenter.press("o");
      await presenter.waitFor("the overview", () => document.body.dataset.panel === "overview");
      await presenter.press("F5");
      await presenter.press("Shift+F5");
      await presenter.waitFor("both F5s seen", () => (window as unknown as { __f5?: boolean[] }).__f5?.length === 2, [], 5_000);
      expect(await stayed()).toBe(true);
      expect((await state()).panel).toBe("overview");
      await presenter.press("Escape");
      await presenter.waitFor("the overview closed", () => document.body.dataset.panel === "none");
      // The go-to panel's label field has the focus: F5 types nothing, reloads nothing.
      await tap(presenter, "#btn-goto");
      await presenter.waitFor("the go-to field focused", () => document.body.dataset.panel === "goto" && document.activeElement?.id === "goto-input");
      await presenter.press("F5");
      await presenter.press("Shift+F5");
      await presenter.waitFor("all four F5s seen", () => (window as unknown as { __f5?: boolean[] }).__f5?.length === 4, [], 5_000);
      expect(await stayed()).toBe(true);
      expect(await presenter.evaluate(() => (window as unknown as { __f5: boolean[] }).__f5)).toEqual([true, true, true, true]);
      expect(await presenter.evaluate(() => ({ panel: document.body.dataset.panel, value: (document.querySelector("#goto-input") as HTMLInputElement).value }))).toEqual({ panel: "goto", value: "" });
      await shot(presenter, "03-f5-in-the-goto-field");
      await presenter.press("Escape");
      await presenter.waitFor("the go-to panel closed", () => document.body.dataset.panel === "none");
      expect((await state()).page).toBe(1);

      // The projector's window too, with F5 taken off "Full screen" in Keys: the map is stored
      // from the presenter's window, and the audience window reads it when another window does.
      await audience.evaluate((key: string) => {
        const w = window as unknown as { __stayed: boolean; __f5: boolean[]; __mapRead: boolean };
        w.__stayed = true;
        w.__f5 = [];
        w.__mapRead = false;
        window.addEventListener("keydown", (e) => void (e.key === "F5" && w.__f5.push(e.defaultPrevented)));
        // After the page's own listener, added at its start: once this runs, the page has read the map.
        window.addEventListener("storage", (e) => void (e.key === key && (w.__mapRead = true)));
        return true;
      }, KEYMAP_STORAGE_KEY);
      const mapRead = (what: string) => audience.waitFor(what, () => (window as unknown as { __mapRead?: boolean }).__mapRead === true);
      await presenter.evaluate((key: string) => (localStorage.setItem(key, JSON.stringify({ v: 1, bindings: { fullscreen: ["Shift+f"] } })), true), KEYMAP_STORAGE_KEY);
      await mapRead("the audience window reading the map without F5");
      await audience.press("F5");
      await audience.press("Shift+F5");
      await audience.waitFor("both F5s seen in the audience window", () => (window as unknown as { __f5?: boolean[] }).__f5?.length === 2, [], 5_000);
      expect(await audience.evaluate(() => ({ stayed: (window as unknown as { __stayed?: boolean }).__stayed === true, f5: (window as unknown as { __f5: boolean[] }).__f5, fullscreen: document.fullscreenElement !== null }))).toEqual({ stayed: true, f5: [true, true], fullscreen: false });
      await audience.evaluate(() => ((window as unknown as { __mapRead: boolean }).__mapRead = false, true));
      await presenter.evaluate((key: string) => (localStorage.removeItem(key), true), KEYMAP_STORAGE_KEY);
      await mapRead("the audience window back on the default map");
    });

    it("after Black is clicked with the mouse, Space and Enter step the talk; the audience stays black", async () => {
      await go("Home", 1);
      await clickWithMouse("#btn-blank");
      await audience.waitFor("black", () => document.body.dataset.blank === "black");
      expect(await presenter.evaluate(() => document.activeElement?.id ?? "")).not.toBe("btn-blank");
      await go("Space", 2);
      await go("Enter", 3);
      expect((await state()).blank).toBe("black");
      await shot(presenter, "03-space-after-black-click");
      await clickWithMouse("#btn-blank");
      await audience.waitFor("not black", () => document.body.dataset.blank === "none");
      // The toolbox's buttons too: Pen clicked, then Space is Next, not Pen again.
      await clickWithMouse("#toolbox [data-action='modePen']");
      await modeIs("pen");
      await go("Space", 4);
      expect((await state()).mode).toBe("pen");
      await presenter.press("Escape");
      await modeIs("normal");
    });

    it("Tab walks the controls from the page and never opens the overview; a button reached by Tab takes Enter; axe passes", async () => {
      // A keyboard user arriving: a fresh presenter page, nothing focused.
      await presenter.goto(await presenter.href());
      await waitReady(presenter, "the presenter", 90_000);
      await waitReady(audience, "the audience", 30_000);
      const reached: string[] = [];
      for (let i = 0; i < 16; i++) {
        await presenter.press("Tab");
        const now = await presenter.evaluate(() => ({ id: document.activeElement?.id ?? "", tag: document.activeElement?.tagName ?? "", panel: document.body.dataset.panel ?? "" }));
        expect(now.panel).toBe("none");
        reached.push(now.id || now.tag);
        if (now.id === "btn-blank") break;
      }
      expect(reached[0]).not.toBe("BODY");
      expect(reached).toContain("btn-audience");
      expect(reached).toContain("btn-overview");
      expect(reached[reached.length - 1]).toBe("btn-blank");
      await shot(presenter, "04-tab-reached-black");
      // The keyboard user's Enter and Space are the button's, not the talk's: not taken (no
      // preventDefault), the talk stays put. Firefox's WebDriver BiDi keys never activate a
      // button, even on a bare page (tried), so only Chromium and WebKit see the click itself.
      const page = (await state()).page;
      await presenter.evaluate(() => {
        const w = window as unknown as { __taken: boolean[] };
        w.__taken = [];
        window.addEventListener("keydown", (e) => w.__taken.push(e.defaultPrevented));
        return true;
      });
      for (const chord of ["Enter", "Space"]) {
        await presenter.press(chord);
        if (name !== "firefox") await audience.waitFor(`black toggled by ${chord}`, (b: string) => document.body.dataset.blank === b, [chord === "Enter" ? "black" : "none"]);
      }
      expect(await presenter.evaluate(() => (window as unknown as { __taken: boolean[] }).__taken)).toEqual([false, false]);
      expect((await state()).page).toBe(page);
      // A number typed with the focus still there: its Enter is the number's (slide 12), not the button's.
      await presenter.press("1");
      await presenter.press("2");
      await go("Enter", keysPageOf("12"));
      expect((await state()).blank).toBe("none");
      expect(await seriousViolations(presenter)).toEqual([]);
    });

    it("the download offered first is the deck as it came until there is ink, then the one with the ink", async () => {
      await presenter.evaluate(() => {
        (document.activeElement as HTMLElement | null)?.blur();
        return true;
      });
      await presenter.press("Shift+e");
      await presenter.waitFor("the export panel", () => document.body.dataset.panel === "export");
      const before = await presenter.evaluate(() => ({ focus: document.activeElement?.id, primary: document.querySelector("#export-panel .btn-primary")?.id, ink: document.querySelector("#export-ink")!.textContent }));
      expect(before).toEqual({ focus: "export-original", primary: "export-original", ink: "With the ink (none yet)" });
      await shot(presenter, "05-export-without-ink");
      await presenter.press("Escape");
      await presenter.waitFor("the panel closed", () => document.body.dataset.panel === "none");
      await presenter.press("i");
      await modeIs("pen");
      const b = await presenter.evaluate(() => {
        const r = document.querySelector("#current-frame")!.getBoundingClientRect();
        return { x: r.x, y: r.y, w: r.width, h: r.height };
      });
      const steps: Parameters<EnginePage["mouse"]>[0][number][] = [{ type: "move", x: b.x + 0.2 * b.w, y: b.y + 0.7 * b.h }, { type: "down" }];
      for (let k = 1; k <= 8; k++) steps.push({ type: "move", x: b.x + (0.2 + 0.05 * k) * b.w, y: b.y + 0.7 * b.h + (k % 2) * 10 });
      steps.push({ type: "up" });
      await presenter.mouse(steps);
      await presenter.waitFor("a stroke", () => document.querySelector("#current-frame")?.getAttribute("data-ink") === "1");
      await presenter.press("Escape");
      await presenter.press("Shift+e");
      await presenter.waitFor("the export panel", () => document.body.dataset.panel === "export");
      const after = await presenter.evaluate(() => ({ focus: document.activeElement?.id, primary: document.querySelector("#export-panel .btn-primary")?.id, ink: document.querySelector("#export-ink")!.textContent }));
      expect(after).toEqual({ focus: "export-ink", primary: "export-ink", ink: "With the ink" });
      await presenter.press("Escape");
    });
  });
}
