/**
 * The stage on a phone, per engine (test/helpers/engine.ts), against the
 * compiled binary: the presenter held on its side (844×390) and upright (390×844; WebKit's
 * window is never narrower than 447 px) puts the slide first, folds its toolbar into one
 * menu, keeps every control inside the screen with no two overlapping and none covered, and
 * shows the notes over several readable lines; the menu opens and closes with the mouse and
 * the keyboard and all it holds fits on screen; the phone remote shows Previous and Next
 * without scrolling in both orientations. Geometry is read with getBoundingClientRect and
 * hit-tested with elementFromPoint. Screenshots go to test-output/stage-phone/<engine>/.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { PDFDocument, PDFName, PDFString, rgb, StandardFonts } from "pdf-lib";
import { seriousViolations } from "../helpers/axe.ts";
import { engineSuite, presentPdf } from "../helpers/e2e-suite.ts";
import { ENGINES, type EnginePage } from "../helpers/engine.ts";
import { OUTPUT } from "../fixtures/stage-deck.ts";
import { waitReady } from "../helpers/stage.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

const STEP_MS = 180_000;
const it = (name: string, fn: () => Promise<void>) => test(name, fn, STEP_MS);

const LANDSCAPE = { width: 844, height: 390 };
const PORTRAIT = { width: 390, height: 844 };
/** Notes lines a speaker must see at once without scrolling (a short paragraph and its sequel). */
const MIN_NOTES_LINES = { landscape: 5, portrait: 8 };
/** Smallest notes text we call readable at arm's length on a phone. */
const MIN_NOTES_PX = 14;

const LONG_NOTES = Array.from({ length: 30 }, (_, i) => `Paragraph ${i + 1}: say why this matters to the people in the room, slowly.`).join("\n\n");

/** Four 16:9 pages with page labels; long notes on slide 1, short ones on slide 2; a 20-minute talk. */
async function makePhoneDeck(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle("A talk given from a phone, with a title long enough to be cut");
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  ["Held in one hand", "Previous and Next at the thumb", "Notes that can be read", "Thank you"].forEach((title, i) => {
    const page = doc.addPage([720, 405]);
    page.drawRectangle({ x: 0, y: 0, width: 720, height: 405, color: rgb(0.97, 0.97, 0.95) });
    page.drawRectangle({ x: 0, y: 395, width: 720, height: 10, color: rgb(0.12, 0.23, 0.54) });
    // A bar on the last rows of the page: a covered lower edge shows at once in a screenshot.
    page.drawRectangle({ x: 0, y: 0, width: 720, height: 24, color: rgb(0.8, 0.1, 0.3) });
    page.drawText(title, { x: 40, y: 320, size: 34, font: bold, color: rgb(0.07, 0.09, 0.13) });
  });
  doc.catalog.set(PDFName.of("PageLabels"), doc.context.obj({ Nums: [0, doc.context.obj({ P: PDFString.of("1") }), 1, doc.context.obj({ P: PDFString.of("2") }), 2, doc.context.obj({ P: PDFString.of("3") }), 3, doc.context.obj({ P: PDFString.of("4") })] }));
  const notes = { 1: LONG_NOTES, 2: "Short notes for the second slide." };
  for (const [slide, text] of Object.entries(notes)) await doc.attach(new TextEncoder().encode(JSON.stringify({ slide, notes: text })), `notes-slide-${slide}.json`, { mimeType: "application/json" });
  // A talk with a length: the timer box shows Remaining as well as Elapsed and the clock.
  await doc.attach(new TextEncoder().encode(JSON.stringify({ pdfpcFormat: 2, duration: 20, pages: [] })), "talk.pdfpc", { mimeType: "application/json" });
  return doc.save();
}

interface Geometry {
  viewport: { w: number; h: number };
  scroll: { x: number; y: number };
  /** Controls (visible buttons, links, inputs) outside the viewport, with their boxes. */
  outside: string[];
  /** Pairs of controls or blocks whose boxes overlap. */
  overlaps: string[];
  /** Controls whose centre is covered by another element. */
  covered: string[];
  /** Every visible control, for the record. */
  controls: string[];
  boxes: Record<string, { top: number; bottom: number; left: number; right: number } | null>;
}

/**
 * Runs in the page: every visible control under `scope` (and the named blocks) is inside
 * the viewport, no two overlap, and each is the element found at its own centre. `blocks`
 * are page regions that must not overlap each other either (slide, next, timer, notes...).
 */
function geometry(scope: string, blocks: string[]): Geometry {
  const name = (el: Element) => (el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}${el.getAttribute("data-action") ? `[${el.getAttribute("data-action")}]` : el.getAttribute("data-color") ? `[${el.getAttribute("data-color")}]` : el.getAttribute("data-width") ? `[w${el.getAttribute("data-width")}]` : `“${(el.textContent ?? "").trim().slice(0, 16)}”`}`);
  const shown = (el: Element) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    for (let e: Element | null = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.visibility === "hidden" || s.display === "none" || s.opacity === "0") return false;
    }
    return true;
  };
  const fmt = (r: DOMRect) => `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)}`;
  const root = document.querySelector(scope)!;
  const controls = Array.from(root.querySelectorAll<HTMLElement>("button, a[href], input, select, [role='separator']")).filter((el) => shown(el) && !el.closest(".visually-hidden"));
  const outside: string[] = [];
  const covered: string[] = [];
  for (const el of controls) {
    const r = el.getBoundingClientRect();
    if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) outside.push(`${name(el)} ${fmt(r)}`);
    else {
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || !(hit === el || el.contains(hit))) covered.push(`${name(el)} under ${hit ? name(hit) : "nothing"}`);
    }
  }
  const overlaps: string[] = [];
  const meets = (a: DOMRect, b: DOMRect) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const blockEls = blocks.map((s) => document.querySelector(s)).filter((el): el is HTMLElement => !!el && shown(el));
  const items = [...controls, ...blockEls];
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i]!;
      const b = items[j]!;
      // A control inside a block (the timer's Start button in the timer box) is not an overlap.
      if (a.contains(b) || b.contains(a)) continue;
      if (meets(a.getBoundingClientRect(), b.getBoundingClientRect())) overlaps.push(`${name(a)} ${fmt(a.getBoundingClientRect())} × ${name(b)} ${fmt(b.getBoundingClientRect())}`);
    }
  }
  const boxes: Geometry["boxes"] = {};
  for (const s of blocks) {
    const el = document.querySelector(s);
    const r = el && shown(el) ? el.getBoundingClientRect() : null;
    boxes[s] = r ? { top: r.top, bottom: r.bottom, left: r.left, right: r.right } : null;
  }
  return {
    viewport: { w: innerWidth, h: innerHeight },
    scroll: { x: document.documentElement.scrollWidth - innerWidth, y: document.documentElement.scrollHeight - innerHeight },
    outside,
    overlaps,
    covered,
    controls: controls.map(name),
    boxes,
  };
}

/** How many lines of notes are in sight at once, and their font size. */
function notesLines(selector: string): { lines: number; px: number } {
  const el = document.querySelector<HTMLElement>(selector)!;
  const s = getComputedStyle(el);
  const px = parseFloat(s.fontSize);
  const line = s.lineHeight === "normal" ? px * 1.2 : parseFloat(s.lineHeight);
  const r = el.getBoundingClientRect();
  const visible = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)) - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom);
  return { lines: Math.floor(visible / line), px };
}

const PRESENTER_BLOCKS = [".pbar", "#current-frame", "#next-frame", ".clock-pane", ".notes-pane", ".pfoot"];
const REMOTE_BLOCKS = [".remote-head", "#current-frame", "#next-frame", "#notes", ".remote-nav"];

let deck: Uint8Array;

beforeAll(async () => {
  deck = await makePhoneDeck();
});

for (const name of ENGINES) {
  describe(`phone stage in ${name}`, () => {
    const shots = join(OUTPUT, "stage-phone", name);
    const suite = engineSuite(name, { shots, launch: { viewport: LANDSCAPE }, timeoutMs: STEP_MS });
    const presenter = suite.page;
    let remote: EnginePage;
    let controlUrl = "";
    const shot = (page: EnginePage, file: string) => page.screenshot(join(shots, `${file}.png`));

    beforeAll(async () => {
      const handoff = await presentPdf(suite.server.url, deck, "Phone talk.pdf");
      await presenter.resize(LANDSCAPE.width, LANDSCAPE.height);
      await presenter.goto(handoff.url);
      await waitReady(presenter, "the presenter", 45_000);
      await presenter.waitFor("the notes", () => document.body.dataset.extras === "ready" && (document.querySelector("#notes")?.textContent ?? "").includes("Paragraph 30"), [], 45_000);
    }, STEP_MS);

    /** Wait for the viewport and for the slide to be laid out again for it (its frame fits its box). */
    async function resizeTo(page: EnginePage, size: { width: number; height: number }, slide = true) {
      await page.resize(size.width, size.height);
      const portrait = size.height > size.width;
      await page.waitFor(`the ${portrait ? "upright" : "landscape"} viewport`, (p: boolean) => (p ? innerHeight > innerWidth && innerWidth <= 480 : innerWidth > innerHeight && innerHeight <= 420), [portrait]);
      if (!slide) return;
      await page.waitFor(
        "the slide laid out again",
        (f: string, b: string) => {
          const bx = document.querySelector(b)!.getBoundingClientRect();
          const fr = document.querySelector(f)!.getBoundingClientRect();
          return fr.width > 100 && Math.abs(fr.width - Math.min(bx.width, (bx.height * 16) / 9)) <= 2;
        },
        ["#current-frame", "#current-box"],
      );
    }

    /** Checks every phone presenter layout must pass with the menu closed. */
    async function expectPresenterLayout(orientation: "landscape" | "portrait") {
      const g = await presenter.evaluate(geometry, "body", PRESENTER_BLOCKS);
      expect({ orientation, outside: g.outside, overlaps: g.overlaps, covered: g.covered }).toEqual({ orientation, outside: [], overlaps: [], covered: [] });
      // No page scroll: the whole stage is the screen.
      expect(g.scroll.y).toBeLessThanOrEqual(1);
      expect(g.scroll.x).toBeLessThanOrEqual(1);
      // Slide first: only the title bar above it; the toolbar is folded into the menu.
      const bar = g.boxes[".pbar"]!;
      const slide = g.boxes["#current-frame"]!;
      expect(slide.top).toBeGreaterThanOrEqual(bar.bottom);
      expect(slide.top - bar.bottom).toBeLessThan(24);
      expect(slide.bottom).toBeLessThanOrEqual(g.boxes[".pfoot"]!.top);
      expect(g.controls).toContain("#btn-menu");
      // The title keeps its room in the bar (cut with an ellipsis when long).
      expect(await presenter.evaluate(() => document.querySelector("#deck-title")!.getBoundingClientRect().width)).toBeGreaterThan(250);
      for (const folded of ["#btn-audience", "#btn-overview", "#btn-blank", "#tool-zoom", "#btn-export"]) expect(g.controls).not.toContain(folded);
      // Previous, Next, the timer's buttons and the notes' size buttons stay at hand.
      for (const atHand of ["#btn-prev", "#btn-next", "#btn-timer", "#btn-notes-bigger"]) expect(g.controls).toContain(atHand);
      // The slide is the largest thing on the screen.
      const area = (b: { top: number; bottom: number; left: number; right: number }) => (b.bottom - b.top) * (b.right - b.left);
      for (const other of ["#next-frame", ".clock-pane"]) expect(area(slide)).toBeGreaterThan(area(g.boxes[other]!));
      expect(await presenter.evaluate(() => !document.querySelector("#countdown-box")!.hasAttribute("hidden"))).toBe(true);
      const notes = await presenter.evaluate(notesLines, "#notes");
      expect(notes.px).toBeGreaterThanOrEqual(MIN_NOTES_PX);
      expect(notes.lines).toBeGreaterThanOrEqual(MIN_NOTES_LINES[orientation]);
      return g;
    }

    /** Open the menu with a click; everything it holds is on screen, none overlapping or covered; close it. */
    async function expectMenu(orientation: "landscape" | "portrait") {
      await presenter.click("#btn-menu");
      await presenter.waitFor("the menu open", () => document.querySelector("#btn-menu")?.getAttribute("aria-expanded") === "true" && !!document.querySelector("#stage-menu") && getComputedStyle(document.querySelector("#stage-menu")!).display !== "none");
      // Let it paint before the screenshot (WebKit's can otherwise show the frame before).
      await presenter.evaluate(() => new Promise<boolean>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))));
      const g = await presenter.evaluate(geometry, "#stage-menu", []);
      expect({ orientation, outside: g.outside, overlaps: g.overlaps, covered: g.covered }).toEqual({ orientation, outside: [], overlaps: [], covered: [] });
      for (const id of ["#btn-audience", "#btn-live", "#btn-overview", "#btn-blank", "#btn-white", "#btn-fullscreen", "#btn-help", "#tool-zoom", "#tool-freeze", "#btn-layout", "#btn-times", "#btn-export"]) expect(g.controls).toContain(id);
      await shot(presenter, `${orientation === "landscape" ? "02" : "04"}-presenter-${orientation}-menu`);
      return g;
    }

    it("presenter on its side (844×390): slide first, one menu for the toolbar, nothing clipped or overlapping, notes readable", async () => {
      await resizeTo(presenter, LANDSCAPE);
      await shot(presenter, "01-presenter-landscape");
      await expectPresenterLayout("landscape");
      await expectMenu("landscape");
      // A tool chosen in the menu acts and the menu folds away, the slide in sight again.
      await presenter.click("#btn-blank");
      await presenter.waitFor("black on, the menu closed", () => document.querySelector("#btn-blank")?.getAttribute("aria-pressed") === "true" && document.querySelector("#btn-menu")?.getAttribute("aria-expanded") === "false");
      await presenter.click("#btn-menu");
      await presenter.click("#btn-blank");
      await presenter.waitFor("black off", () => document.querySelector("#btn-blank")?.getAttribute("aria-pressed") === "false");
      // A tap on the slide beside the open menu only closes the menu: the talk does not move.
      await presenter.click("#btn-menu");
      await presenter.waitFor("the menu open again", () => document.querySelector("#btn-menu")?.getAttribute("aria-expanded") === "true");
      const frame = await presenter.evaluate(() => {
        const r = document.querySelector("#current-frame")!.getBoundingClientRect();
        return { x: r.left + 30, y: r.top + r.height / 2 };
      });
      await presenter.mouse([{ type: "move", ...frame }, { type: "down" }, { type: "up" }]);
      await presenter.waitFor("the menu closed by the tap", () => document.querySelector("#btn-menu")?.getAttribute("aria-expanded") === "false");
      // A slide change would show within a frame or two; give it several before reading.
      await presenter.evaluate(() => new Promise<boolean>((resolve) => setTimeout(() => requestAnimationFrame(() => resolve(true)), 300)));
      expect(await presenter.evaluate(() => document.body.dataset.slide)).toBe("1");
      // The next tap on the slide is the slide's again (a click on it is Next).
      await presenter.mouse([{ type: "move", ...frame }, { type: "down" }, { type: "up" }]);
      await presenter.waitFor("slide 2 from a tap", () => document.body.dataset.slide === "2");
      await presenter.press("Home");
      await presenter.waitFor("back on slide 1", () => document.body.dataset.slide === "1");
      await expectPresenterLayout("landscape");
    });

    it("presenter upright (390×844): the same, and the menu works from the keyboard", async () => {
      await resizeTo(presenter, PORTRAIT);
      await shot(presenter, "03-presenter-portrait");
      await expectPresenterLayout("portrait");
      await expectMenu("portrait");
      expect({ where: "phone presenter with the menu open", violations: await seriousViolations(presenter) }).toEqual({ where: "phone presenter with the menu open", violations: [] });
      // Esc closes the menu (and only the menu: the slide does not move), focus back on its button.
      await presenter.press("Escape");
      await presenter.waitFor("the menu closed by Esc", () => document.querySelector("#btn-menu")?.getAttribute("aria-expanded") === "false" && getComputedStyle(document.querySelector("#stage-menu")!).display === "none");
      expect(await presenter.evaluate(() => ({ focus: document.activeElement?.id, slide: document.body.dataset.slide }))).toEqual({ focus: "btn-menu", slide: "1" });
      // Enter on the focused menu button opens it; the first control in it is next in Tab order.
      await presenter.press("Enter");
      await presenter.waitFor("the menu open by Enter", () => document.querySelector("#btn-menu")?.getAttribute("aria-expanded") === "true");
      await presenter.press("Tab");
      expect(await presenter.evaluate(() => !!document.activeElement?.closest("#stage-menu"))).toBe(true);
      await presenter.press("Escape");
      await presenter.waitFor("closed again", () => document.querySelector("#btn-menu")?.getAttribute("aria-expanded") === "false");
      // Next from the footer still goes forward (the footer is not covering anything, nor covered).
      await presenter.click("#btn-next");
      await presenter.waitFor("slide 2", () => document.body.dataset.slide === "2");
      await presenter.click("#btn-prev");
      await presenter.waitFor("slide 1", () => document.body.dataset.slide === "1");
    });

    it("back to a laptop window: the toolbar is a toolbar again, the menu button gone", async () => {
      await presenter.resize(1440, 900);
      await presenter.waitFor("the wide layout", () => innerWidth > 1000);
      const g = await presenter.evaluate(geometry, "body", [".pbar", "#toolbox", "#current-frame", ".pfoot"]);
      expect(g.controls).not.toContain("#btn-menu");
      for (const id of ["#btn-audience", "#btn-overview", "#btn-blank", "#tool-zoom", "#btn-export", "#btn-prev", "#btn-next"]) expect(g.controls).toContain(id);
      expect({ outside: g.outside, overlaps: g.overlaps, covered: g.covered }).toEqual({ outside: [], overlaps: [], covered: [] });
      await shot(presenter, "05-presenter-laptop");
    });

    it("phone remote on its side and upright: Previous and Next on screen without scrolling, nothing overlapping", async () => {
      await presenter.click("#btn-live");
      await presenter.waitFor("live", () => document.body.dataset.live === "open" && !!document.querySelector<HTMLAnchorElement>("#live-control-url")?.href, [], 30_000);
      controlUrl = await presenter.evaluate(() => document.querySelector<HTMLAnchorElement>("#live-control-url")!.href);
      await presenter.click("#live-hide");
      remote = await suite.engine.newPage();
      await resizeTo(remote, LANDSCAPE, false); // no slide in the new window yet: only the viewport is awaited
      await remote.goto(controlUrl);
      await remote.waitFor("the remote connected", () => document.body.dataset.screen === "live" && document.body.dataset.slide === "1" && document.querySelector("#current-frame")?.getAttribute("data-state") === "painted", [], 45_000);
      for (const [orientation, size] of [["landscape", LANDSCAPE], ["portrait", PORTRAIT]] as const) {
        await resizeTo(remote, size);
        await shot(remote, `0${orientation === "landscape" ? 6 : 7}-remote-${orientation}`);
        const g = await remote.evaluate(geometry, "body", REMOTE_BLOCKS);
        expect({ orientation, outside: g.outside, overlaps: g.overlaps, covered: g.covered }).toEqual({ orientation, outside: [], overlaps: [], covered: [] });
        expect(g.scroll.y).toBeLessThanOrEqual(1);
        for (const id of ["#remote-prev", "#remote-next", "#remote-blank"]) expect(g.controls).toContain(id);
        // Big enough for a thumb.
        const nav = await remote.evaluate(() => ["#remote-prev", "#remote-next"].map((s) => document.querySelector(s)!.getBoundingClientRect().height));
        for (const h of nav) expect(h).toBeGreaterThanOrEqual(48);
        const notes = await remote.evaluate(notesLines, "#notes");
        expect(notes.lines).toBeGreaterThanOrEqual(orientation === "landscape" ? 3 : 8);
      }
      await remote.click("#remote-next");
      await presenter.waitFor("the presenter moved by the remote", () => document.body.dataset.slide === "2", [], 15_000);
    });
  });
}
