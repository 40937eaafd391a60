/**
 * The audience talks back (issue 23), end to end against the compiled binary, in every engine: a presenter goes live; two viewers on phones (390×844, each its own browser profile, so
 * each its own viewer id) join; the presenter opens Q&A; viewer 1 asks, viewer 2 up-votes and
 * both see the vote; a reload keeps viewer 2's up-vote (the viewer id in `join`); a question
 * written as HTML stays text; a held question (moderated Q&A) is announced to its asker only; a sixth question in a minute is refused with a sentence by the Ask
 * box; the phone remote shows a question on the projector and dismisses it, starts the deck's
 * own poll (a `poll-slide-2.json` sidecar), sees the votes live and closes it; viewers vote
 * once ("Voted") and see the bars when the presenter shows the results; reactions tapped on one
 * phone float up on the other once the presenter lets viewers see them. Screenshots of the
 * phone viewer asking and voting go to test-output/audience/<engine>/.
 * The presenter's part goes through its Questions and polls panel (q): Q&A open, held for
 * approval, results and reactions shown.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { decode } from "fast-png";
import { PDFDocument } from "pdf-lib";
import { LIVE_REACTIONS } from "../../src/shared/live-audience-protocol.ts";
import { seriousViolations } from "../helpers/axe.ts";
import { presentPdf } from "../helpers/e2e-suite.ts";
import { ENGINES, launchEngine, type Engine, type EngineName, type EnginePage } from "../helpers/engine.ts";
import { startBinary, type BinaryServer } from "../helpers/server.ts";
import { openPresenter, tap } from "../helpers/stage.ts";
import { makePresentationDeck, OUTPUT } from "./fixtures.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite.
setDefaultTimeout(120_000);
const STEP_MS = 120_000;
const it = (name: string, fn: () => Promise<void>) => test(name, fn, STEP_MS);

/** The engine of the describe block running now (every engine in turn, as DECKHAND_ENGINES allows). */
let ENGINE: EngineName = "chromium";
const PHONE = { width: 390, height: 844 };
let shots = "";
/** The deck's own poll, on slide 2. */
const SIDECAR_POLL = { question: "Which browser do you present from?", options: ["Chromium", "Firefox", "WebKit"], multiple: false };

let server: BinaryServer;
let engines: Engine[] = [];
let presenter: EnginePage;
let viewer1: EnginePage;
let viewer2: EnginePage;
let remote: EnginePage;
let viewerUrl = "";
let controlUrl = "";

const shot = (page: EnginePage, file: string) => page.screenshot(join(shots, `${file}.png`));
const viewers = () => [viewer1, viewer2];

async function expectNoSeriousA11y(page: EnginePage, where: string) {
  const violations = await seriousViolations(page);
  expect({ where, violations }).toEqual({ where, violations: [] });
}

/** The presenter's Questions and polls panel, opened with its key (q) when it is not open. */
async function presenterPanel() {
  if (!(await presenter.evaluate(() => document.body.dataset.talkPanel === "open"))) await presenter.press("q");
  await presenter.waitFor("the Questions and polls panel", () => document.body.dataset.talkPanel === "open" && !!document.querySelector("#talk-qa-open"));
}

/** One of the panel's switches (Q&A open, held for approval, reactions on the projector) clicked to `on`, as the server then says. */
async function presenterSets(id: string, on: boolean) {
  await presenterPanel();
  if ((await presenter.evaluate((s: string) => (document.querySelector(s) as HTMLInputElement).checked, `#${id}`)) !== on) await tap(presenter, `#${id}`);
  await presenter.waitFor(`#${id} ${on ? "on" : "off"}`, (s: string, want: boolean) => (document.querySelector(s) as HTMLInputElement | null)?.checked === want, [`#${id}`, on]);
}

async function phoneViewer(): Promise<EnginePage> {
  const engine = await launchEngine(ENGINE, { viewport: PHONE });
  engines.push(engine);
  await engine.page.goto(viewerUrl);
  await joined(engine.page);
  return engine.page;
}

async function joined(page: EnginePage) {
  await page.waitFor("the viewer live on slide 1 with the audience dock", () => document.body.dataset.screen === "live" && document.body.dataset.socket === "open" && document.body.dataset.audience === "on" && document.querySelector("#frame")?.getAttribute("data-state") === "painted", [], 45_000);
}

/** Type into a field with real key presses. */
async function type(page: EnginePage, selector: string, text: string) {
  await page.click(selector);
  for (const ch of text) await page.press(ch === " " ? "Space" : ch);
}

/** The questions a page lists: text and vote count, in order. */
function listed(page: EnginePage) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll("#qa-list .question")).map((li) => ({
      text: li.querySelector(".question-text")?.textContent,
      votes: li.querySelector(".upvote-count")?.textContent,
      mine: li.querySelector(".upvote")?.getAttribute("aria-pressed"),
      disabled: (li.querySelector(".upvote") as HTMLButtonElement | null)?.disabled,
    })),
  );
}

async function openSection(page: EnginePage, id: string) {
  if (!(await page.evaluate((sel: string) => (document.querySelector(sel) as HTMLDetailsElement).open, id))) await page.click(`${id} > summary`);
}

for (const name of ENGINES) {
  describe(`the audience talks back in ${name}`, () => {
  beforeAll(async () => {
    ENGINE = name;
    shots = join(OUTPUT, "audience", name);
    engines = [];
    mkdirSync(shots, { recursive: true });
    // Two slides, no clip: the talk needs no media. The poll sidecar is attached like any sidecar.
    const pdf = await PDFDocument.load(await makePresentationDeck(new Uint8Array(), { pages: 2 }));
    await pdf.attach(new TextEncoder().encode(JSON.stringify(SIDECAR_POLL)), "poll-slide-2.json", { mimeType: "application/json" });
    server = await startBinary({});
    const handoff = await presentPdf(server.url, await pdf.save(), "Audience talk.pdf");
    const presenterEngine = await launchEngine(ENGINE, { viewport: { width: 1280, height: 800 } });
    engines.push(presenterEngine);
    presenter = presenterEngine.page;
    await openPresenter(presenter, handoff.url);
    await presenter.click("#btn-live");
    await presenter.waitFor("the live session", () => document.body.dataset.live === "open" && !!document.querySelector("#live-code")?.textContent, [], 30_000);
    viewerUrl = await presenter.evaluate(() => (document.querySelector("#live-viewer-url") as HTMLAnchorElement).href);
    controlUrl = await presenter.evaluate(() => (document.querySelector("#live-control-url") as HTMLAnchorElement).href);
  }, STEP_MS);

  afterAll(async () => {
    for (const engine of engines) await engine.close().catch(() => {});
    if (server?.proc.exitCode === null) await server.stop();
    server?.cleanup();
  });

  it("two phone viewers join, each with its own viewer id kept in the browser; Q&A is closed until the presenter opens it", async () => {
    viewer1 = await phoneViewer();
    viewer2 = await phoneViewer();
    const ids = await Promise.all(viewers().map((v) => v.evaluate(() => localStorage.getItem("deckhand.viewerId"))));
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(ids[0]).not.toBe(ids[1]);
    await presenter.waitFor("two viewers counted", () => document.body.dataset.liveViewers === "2", [], 15_000);
    for (const v of viewers()) {
      expect(await v.evaluate(() => ({ qa: document.body.dataset.qa, ask: (document.querySelector("#ask-form") as HTMLElement).hidden, reactions: document.querySelectorAll("#reaction-bar button").length }))).toEqual({ qa: "closed", ask: true, reactions: 6 });
    }
    // The slide keeps the top of the phone: the dock is below it, not over it.
    const layout = await viewer1.evaluate(() => {
      const slide = document.querySelector("#slide")!.getBoundingClientRect();
      const dock = document.querySelector("#audience")!.getBoundingClientRect();
      return { slideBottom: slide.bottom, slideHeight: slide.height, dockTop: dock.top };
    });
    expect(layout.slideHeight).toBeGreaterThan(180);
    expect(layout.dockTop).toBeGreaterThanOrEqual(layout.slideBottom - 1);
    await shot(viewer1, "01-viewer-joined");
  });

  it("the presenter opens Q&A: viewer 1 asks, viewer 2 up-votes, both see the vote; a reload keeps viewer 2's up-vote", async () => {
    await presenterSets("talk-qa-open", true);
    for (const v of viewers()) await v.waitFor("Q&A open", () => document.body.dataset.qa === "open" && !(document.querySelector("#ask-form") as HTMLElement).hidden);
    await openSection(viewer1, "#qa-section");
    const question = "Does it work with the Wi-Fi off?";
    await type(viewer1, "#ask-text", question);
    await type(viewer1, "#ask-name", "Ada");
    expect(await viewer1.evaluate(() => document.querySelector("#ask-count")?.textContent)).toBe(`${"Does it work with the Wi-Fi off?".length}/280`);
    await expectNoSeriousA11y(viewer1, "phone viewer asking");
    await shot(viewer1, "02-viewer-asking");
    // Whatever is open in the dock scrolls inside it: the page itself never scrolls.
    expect(await viewer1.evaluate(() => document.documentElement.scrollHeight - innerHeight)).toBeLessThanOrEqual(1);
    await viewer1.click("#ask-send");
    for (const v of viewers()) await v.waitFor("the question listed", () => document.body.dataset.questions === "1");
    expect(await viewer1.evaluate(() => (document.querySelector("#ask-text") as HTMLTextAreaElement).value)).toBe("");
    expect(await viewer1.evaluate(() => document.querySelector("#ask-status")?.textContent)).toBe("Sent.");
    await openSection(viewer2, "#qa-section");
    expect(await listed(viewer2)).toEqual([{ text: question, votes: "0", mine: "false", disabled: false }]);
    expect(await viewer2.evaluate(() => document.querySelector("#qa-list .question-name")?.textContent)).toBe("Ada");
    await tap(viewer2, "#qa-list .upvote");
    expect(await listed(viewer2)).toEqual([{ text: question, votes: "0", mine: "true", disabled: true }]);
    for (const v of viewers()) await v.waitFor("one vote on the question", () => document.querySelector("#qa-list .upvote-count")?.textContent === "1");
    expect(await listed(viewer1)).toEqual([{ text: question, votes: "1", mine: "false", disabled: false }]);
    expect(await listed(viewer2)).toEqual([{ text: question, votes: "1", mine: "true", disabled: true }]);
    // The name is kept for the next question in this browser.
    expect(await viewer1.evaluate(() => localStorage.getItem("deckhand.askName"))).toBe("Ada");

    await viewer2.goto(viewerUrl);
    await joined(viewer2);
    await openSection(viewer2, "#qa-section");
    expect(await listed(viewer2)).toEqual([{ text: question, votes: "1", mine: "true", disabled: true }]);
  });

  it("a question written as HTML is shown as its characters: no element is made from it", async () => {
    const hostile = `<img src=x onerror="document.body.dataset.xss='1'"><b>bold</b>`;
    await viewer1.evaluate((text: string) => {
      const area = document.querySelector("#ask-text") as HTMLTextAreaElement;
      area.value = text;
      area.dispatchEvent(new Event("input"));
    }, hostile);
    await viewer1.click("#ask-send");
    for (const v of viewers()) {
      await v.waitFor("two questions listed", () => document.body.dataset.questions === "2");
      const seen = await v.evaluate(() => ({
        texts: Array.from(document.querySelectorAll("#qa-list .question-text")).map((p) => p.textContent),
        // The reaction bar's pictures are the page's own (reaction-img), not the question's.
        elements: document.querySelectorAll("#audience img:not(.reaction-img), #audience b, #qa-list script").length,
        xss: document.body.dataset.xss ?? null,
      }));
      expect(seen.texts).toContain(hostile);
      expect(seen.elements).toBe(0);
      expect(seen.xss).toBeNull();
    }
  });

  it("a sixth question within a minute is refused: the Ask box says why and gives the text back", async () => {
    for (let i = 3; i <= 5; i++) {
      await viewer1.evaluate((n: number) => {
        const area = document.querySelector("#ask-text") as HTMLTextAreaElement;
        area.value = `Question number ${n}`;
        area.dispatchEvent(new Event("input"));
      }, i);
      await viewer1.click("#ask-send");
      await viewer1.waitFor(`question ${i} listed`, (n: number) => document.body.dataset.questions === String(n), [i]);
    }
    await viewer1.evaluate(() => {
      const area = document.querySelector("#ask-text") as HTMLTextAreaElement;
      area.value = "One too many";
      area.dispatchEvent(new Event("input"));
    });
    await viewer1.click("#ask-send");
    await viewer1.waitFor("the refusal by the Ask box", () => (document.querySelector("#ask-status")?.textContent ?? "").startsWith("You sent several questions"));
    expect(await viewer1.evaluate(() => ({ text: (document.querySelector("#ask-text") as HTMLTextAreaElement).value, error: document.querySelector("#ask-status")!.classList.contains("audience-error"), listed: document.body.dataset.questions }))).toEqual({ text: "One too many", error: true, listed: "5" });
    // "Most voted" puts the up-voted question first.
    await viewer1.click("#order-votes");
    expect((await listed(viewer1))[0]).toEqual({ text: "Does it work with the Wi-Fi off?", votes: "1", mine: "false", disabled: false });
    await shot(viewer1, "03-viewer-question-refused");
  });

  it("with questions held for approval, the asker is told it waits and the other viewer does not see it", async () => {
    await presenterSets("talk-qa-moderated", true);
    await viewer2.waitFor("the ask form still open", () => document.body.dataset.qa === "open");
    await openSection(viewer2, "#qa-section");
    await type(viewer2, "#ask-text", "Held for now?");
    await viewer2.click("#ask-send");
    await viewer2.waitFor("the note by the Ask box", () => document.querySelector("#ask-status")?.textContent === "Your question waits for the presenter's approval.");
    expect(await viewer2.evaluate(() => document.querySelector("#ask-status")!.classList.contains("audience-error"))).toBe(false);
    await Bun.sleep(500);
    for (const v of viewers()) expect(await v.evaluate(() => document.body.dataset.questions)).toBe("5");
    await presenterSets("talk-qa-moderated", false);
  });

  it("the phone remote lists the questions, most voted first, and shows one on every viewer's screen (under the slide), then dismisses it", async () => {
    const engine = await launchEngine(ENGINE, { viewport: PHONE });
    engines.push(engine);
    remote = engine.page;
    await remote.goto(controlUrl);
    await remote.waitFor("the remote with the audience", () => document.body.dataset.screen === "live" && document.body.dataset.audience === "on" && document.body.dataset.questions === "5", [], 45_000);
    // The remote sees the held question counted, not offered for the projector.
    expect(await remote.evaluate(() => document.querySelector("#remote-held")?.textContent)).toBe("1 waiting for the presenter's approval.");
    await remote.click("#remote-audience > summary");
    const first = await remote.evaluate(() => ({ text: document.querySelector("#remote-questions .question-text")?.textContent, id: (document.querySelector("#remote-questions .remote-show") as HTMLElement).dataset.id! }));
    expect(first.text).toBe("Does it work with the Wi-Fi off?");
    await tap(remote, `#remote-questions .remote-show[data-id="${first.id}"]`);
    for (const v of viewers()) {
      await v.waitFor("the question over the slide", (id: string) => document.body.dataset.shown === id && !(document.querySelector("#shown-question") as HTMLElement).hidden, [first.id]);
      expect(await v.evaluate(() => document.querySelector("#shown-question .shown-text")?.textContent)).toBe("Does it work with the Wi-Fi off?");
    }
    await remote.waitFor("the remote says what is shown", () => !(document.querySelector("#remote-shown") as HTMLElement).hidden);
    await shot(viewer2, "04-viewer-shown-question");
    await expectNoSeriousA11y(remote, "phone remote with questions");
    await shot(remote, "05-remote-questions");
    await tap(remote, "#remote-dismiss");
    for (const v of viewers()) await v.waitFor("the question dismissed", () => document.body.dataset.shown === "" && (document.querySelector("#shown-question") as HTMLElement).hidden);
    // The remote drops its "On the projector" line too: the controls under it move up, and a
    // tap aimed before that would land beside them.
    await remote.waitFor("the remote says nothing is shown", () => (document.querySelector("#remote-shown") as HTMLElement).hidden);
  });

  it("the remote starts the deck's poll; viewers vote once; the remote sees 2 votes live and closes it; the presenter shows the bars to viewers", async () => {
    await remote.waitFor("the deck's poll offered", () => !!document.querySelector('.remote-poll-start[data-slide="2"]'));
    await tap(remote, '.remote-poll-start[data-slide="2"]');
    for (const v of viewers()) await v.waitFor("the poll card with its ballot", () => (!(document.querySelector("#poll-section") as HTMLElement).hidden && (document.querySelector("#poll-section") as HTMLDetailsElement).open && document.querySelectorAll("#poll-card input[type=radio]").length === 3) || JSON.stringify({ hidden: (document.querySelector("#poll-section") as HTMLElement).hidden, open: (document.querySelector("#poll-section") as HTMLDetailsElement).open, radios: document.querySelectorAll("#poll-card input[type=radio]").length, poll: document.body.dataset.poll, vis: document.visibilityState, card: document.querySelector("#poll-card")?.textContent?.slice(0, 80) }));
    expect(await viewer1.evaluate(() => document.querySelector("#poll-card legend")?.textContent)).toBe("Which browser do you present from?");
    // Nothing chosen: the card says so by the Vote button and nothing is sent.
    await viewer1.click("#poll-card .poll-vote");
    expect(await viewer1.evaluate(() => document.querySelector("#poll-error")?.textContent)).toBe("Choose one option.");
    // The presenter shows the results while the poll is open: a viewer who has not voted still
    // can — the ballot stays, the live bars come under it.
    await presenterPanel();
    await tap(presenter, "#talk-poll-show");
    for (const v of viewers()) await v.waitFor("the ballot with the live bars under it", () => document.body.dataset.poll === "open-shown" && document.querySelectorAll("#poll-card input[type=radio]").length === 3 && document.querySelectorAll("#poll-card .poll-live-results .poll-bar").length === 3);
    await viewer1.click('#poll-card input[value="0"]');
    await shot(viewer1, "06-viewer-voting");
    await viewer1.click("#poll-card .poll-vote");
    // Viewer 2's ballot kept its place while viewer 1's vote moved the bars.
    await viewer2.waitFor("viewer 1's vote in the bars", () => document.querySelector("#poll-card .poll-live-results .poll-voters")?.textContent === "1 voter");
    await viewer2.click('#poll-card input[value="1"]');
    await viewer2.click("#poll-card .poll-vote");
    for (const v of viewers()) await v.waitFor("Voted", () => document.querySelector("#poll-card .poll-voted")?.textContent === "Voted" && !document.querySelector("#poll-card .poll-vote"));
    // The presenter hides the results again.
    await presenter.waitFor("the presenter's Show pressed", () => document.querySelector("#talk-poll-show")?.getAttribute("aria-pressed") === "true");
    await tap(presenter, "#talk-poll-show");
    for (const v of viewers()) await v.waitFor("the results hidden", () => document.body.dataset.poll === "open");
    expect(await viewer1.evaluate(() => (document.querySelector("#poll-error") as HTMLElement).hidden)).toBe(true);
    // The choice stays in sight, checked and disabled.
    expect(await viewer1.evaluate(() => Array.from(document.querySelectorAll<HTMLInputElement>("#poll-card input")).map((i) => [i.checked, i.disabled]))).toEqual([[true, true], [false, true], [false, true]]);
    await shot(viewer1, "07-viewer-voted");
    await remote.waitFor("two votes on the remote", () => document.querySelector("#remote-poll .poll-voters")?.textContent === "2 voters");
    expect(await remote.evaluate(() => Array.from(document.querySelectorAll("#remote-poll .poll-bar")).map((li) => li.getAttribute("aria-label")))).toEqual(["Chromium: 1 vote, 50%", "Firefox: 1 vote, 50%", "WebKit: 0 votes, 0%"]);
    // A reload keeps the vote: the ballot says Voted again.
    await viewer2.goto(viewerUrl);
    await joined(viewer2);
    await viewer2.waitFor("still voted after a reload", () => document.querySelector("#poll-card .poll-voted")?.textContent === "Voted");
    await tap(remote, "#remote-poll-close");
    for (const v of viewers()) await v.waitFor("the closed, unshown poll gone from viewers", () => (document.querySelector("#poll-section") as HTMLElement).hidden && document.body.dataset.poll === "closed");
    await remote.waitFor("the remote's poll closed, the deck's poll offered again", () => document.body.dataset.poll === "closed" && !!document.querySelector(".remote-poll-start"));
    // The presenter shows the results from its panel, once the remote's close reached it: the
    // closed poll's panel drops its Close button, which moves the Show button to its place.
    await presenterPanel();
    await presenter.waitFor("the presenter's poll closed", () => document.querySelector("#talk-poll-title")?.textContent === "Poll (closed)" && !document.querySelector("#talk-poll-close"));
    // Tapped again only when a tap was lost (Firefox, loaded machine: the panel re-rendered
    // under it, 3 of 4 runs in one fresh clone); never while one is on its way (Show toggles).
    for (let attempt = 1; ; attempt++) {
      await tap(presenter, "#talk-poll-show");
      try {
        await presenter.waitFor("the presenter's Show pressed", () => document.querySelector("#talk-poll-show")?.getAttribute("aria-pressed") === "true", [], 5_000);
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    for (const v of viewers()) {
      await v.waitFor("the results as bars", () => document.body.dataset.poll === "closed-shown" && document.querySelectorAll("#poll-card .poll-bar").length === 3 && document.querySelector("#poll-card .poll-voters")?.textContent === "2 voters · closed");
      expect(await v.evaluate(() => Array.from(document.querySelectorAll("#poll-card .poll-bar")).map((li) => li.getAttribute("aria-label")))).toEqual(["Chromium: 1 vote, 50%", "Firefox: 1 vote, 50%", "WebKit: 0 votes, 0%"]);
    }
    await expectNoSeriousA11y(viewer1, "phone viewer with poll results");
    await shot(viewer1, "08-viewer-results");
    // On a laptop the dock is a column beside the slide, which keeps the rest of the window.
    await viewer1.resize(1280, 760);
    await viewer1.waitFor("the dock beside the slide", () => {
      const dock = document.querySelector("#audience")!.getBoundingClientRect();
      const slide = document.querySelector("#slide")!.getBoundingClientRect();
      return dock.left >= slide.right - 1 && dock.height > 600 && slide.width > 800;
    });
    await shot(viewer1, "08b-viewer-results-wide");
    // A phone on its side: the same column, narrower; the slide keeps most of the width.
    await viewer1.resize(PHONE.height, PHONE.width);
    await viewer1.waitFor("the dock beside the slide on a phone on its side", () => {
      const dock = document.querySelector("#audience")!.getBoundingClientRect();
      const slide = document.querySelector("#slide")!.getBoundingClientRect();
      return dock.left >= slide.right - 1 && slide.width >= innerWidth * 0.55 && document.documentElement.scrollHeight <= innerHeight + 1;
    });
    await shot(viewer1, "08c-viewer-results-phone-landscape");
    await viewer1.resize(PHONE.width, PHONE.height);
  });

  it("reactions tapped on one phone float up on the other once the presenter lets viewers see them", async () => {
    await presenterSets("talk-reactions-shown", true);
    await viewer2.evaluate(() => {
      // Count what floats by, however briefly.
      const seen = ((window as unknown as { __floated: string[] }).__floated = [] as string[]);
      new MutationObserver((records) => {
        // A float is the reaction's picture; its text alternative names the emoji.
        for (const r of records) for (const n of r.addedNodes) seen.push((n as Element).querySelector?.("img")?.getAttribute("alt") ?? "");
      }).observe(document.querySelector("#reaction-floats")!, { childList: true });
    });
    for (let i = 0; i < 6; i++) await viewer1.click('#reaction-bar [data-reaction="👏"]');
    await viewer1.click('#reaction-bar [data-reaction="🎉"]');
    await viewer2.waitFor("👏 and 🎉 floating on the other phone", () => {
      const seen = (window as unknown as { __floated: string[] }).__floated;
      return seen.includes("👏") && seen.includes("🎉");
    });
    await shot(viewer2, "09-viewer-reactions");
    expect(await viewer1.evaluate(() => (document.querySelector("#react-error") as HTMLElement).hidden)).toBe(true);
  });

  it("the reactions are the pictures the binary carries: drawn in their colours with every font on the page swapped for one without emoji (a venue laptop without a colour-emoji font)", async () => {
    const bar = await viewer1.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>("#reaction-bar [data-reaction]")).map((b) => {
        const img = b.querySelector("img");
        return { emoji: b.dataset.reaction, name: b.getAttribute("aria-label"), alt: img?.alt, svg: !!img?.src.startsWith("data:image/svg+xml"), drawn: !!img && img.complete && img.naturalWidth > 0 };
      }),
    );
    expect(bar).toEqual(LIVE_REACTIONS.map((emoji) => ({ emoji, name: `React ${emoji}`, alt: emoji, svg: true, drawn: true })));
    // No emoji font to fall back on: every element set to a monospace font without emoji
    // (through the CSSOM: the page's policy refuses inline style sheets).
    await viewer1.evaluate(() => {
      for (const el of document.querySelectorAll<HTMLElement>("*")) el.style.setProperty("font-family", "'DejaVu Sans Mono', monospace", "important");
      return true;
    });
    const file = join(shots, "10-viewer-reaction-bar-no-emoji-font.png");
    await viewer1.screenshot(file);
    const png = decode(readFileSync(file));
    const boxes = await viewer1.evaluate(() => ({ width: innerWidth, boxes: Array.from(document.querySelectorAll("#reaction-bar [data-reaction] img")).map((i) => { const r = i.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; }) }));
    const scale = png.width / boxes.width;
    /** How many pixels inside the n-th picture are near `rgb` (Twemoji's own colours). */
    const near = (n: number, rgb: readonly number[]) => {
      const b = boxes.boxes[n]!;
      let count = 0;
      for (let y = Math.ceil(b.y * scale); y < (b.y + b.h) * scale; y++) {
        for (let x = Math.ceil(b.x * scale); x < (b.x + b.w) * scale; x++) {
          const i = (y * png.width + x) * png.channels;
          if (rgb.every((v, k) => Math.abs(png.data[i + k]! - v) <= 24)) count++;
        }
      }
      return count;
    };
    // 👍 and 😂 in Twemoji's yellow, ❤️ and ❓ in its reds: shapes in colour, never an empty box.
    expect(near(0, [0xff, 0xdb, 0x5e])).toBeGreaterThan(20);
    expect(near(3, [0xff, 0xcc, 0x4d])).toBeGreaterThan(20);
    expect(near(2, [0xdd, 0x2e, 0x44])).toBeGreaterThan(20);
    expect(near(5, [0xbe, 0x19, 0x31])).toBeGreaterThan(10);
  });
  });
}
