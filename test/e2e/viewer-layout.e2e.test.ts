/**
 * The viewer page's layout with what the audience may send, end to end against the compiled
 * binary, in every engine: a question whose name is 40 characters without a break (the most a
 * name may be) is listed and shown by the presenter; on a 390 px phone nothing of the page
 * runs past the screen's edge, and on a 1280×720 screen and a phone held sideways the shown
 * question's card sits under the slide, never over its picture (docs/presenting/live.md). The presenter, the remote and
 * the asking viewer are sockets of this test process; the viewers are browsers. Screenshots go
 * to test-output/viewer-layout/<engine>/.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ENGINES, launchEngine, type Engine, type EnginePage } from "../helpers/engine.ts";
import { startBinary, type BinaryServer } from "../helpers/server.ts";
import { created, LiveClient, sampleState } from "../live/helpers.ts";
import { makePresentationDeck, OUTPUT } from "./fixtures.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite.
setDefaultTimeout(120_000);

/** The longest name a question may carry (MAX_QUESTION_NAME_CHARS), in the widest letter, with no place to break. */
const LONG_NAME = "W".repeat(40);
const QUESTION = "Will the slides be shared after the talk, with the recording?";

let server: BinaryServer;
let viewerUrl = "";
let presenter: LiveClient;
let asker: LiveClient;

beforeAll(async () => {
  server = await startBinary({});
  const talk = await created(server.url, await makePresentationDeck(new Uint8Array(), { pages: 2 }));
  viewerUrl = talk.viewerUrl;
  presenter = (await LiveClient.join(server.url, talk.code, "presenter", talk.presenterSecret)).client;
  presenter.send({ v: 1, type: "state", state: sampleState(1) });
  presenter.send({ v: 1, type: "qa", open: true, moderated: false });
  await presenter.next("qa", (m) => m.open);
  asker = (await LiveClient.join(server.url, talk.code, "viewer")).client;
  asker.send({ v: 1, type: "ask", text: QUESTION, name: LONG_NAME });
  const { question } = await presenter.next("question");
  expect(question.name).toBe(LONG_NAME);
  presenter.send({ v: 1, type: "show", questionId: question.id });
  await presenter.next("shown", (m) => m.question?.id === question.id);
});

afterAll(async () => {
  asker?.close();
  presenter?.close();
  await server?.stop();
});

/** Elements of the audience dock, the shown card and the bar that run past the viewport's edges or whose text runs out of them, and a dock that scrolls sideways. */
function overflowing(): string[] {
  const width = document.documentElement.clientWidth;
  const over: string[] = [];
  for (const el of document.querySelectorAll("#audience *, #shown-question *, .live-bar *")) {
    const r = el.getBoundingClientRect();
    // Labels kept for screen readers only are 1 px boxes by design.
    if ((r.width === 0 && r.height === 0) || el.closest(".visually-hidden")) continue;
    const what = `${el.tagName.toLowerCase()}.${el.className}`;
    if (r.right > width + 0.5 || r.left < -0.5) over.push(`${what}: ${Math.round(r.left)}–${Math.round(r.right)} of ${width}`);
    // Text running out of its own box (a block that does not wrap it).
    else if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) over.push(`${what}: its text is ${el.scrollWidth} px wide in ${el.clientWidth}`);
  }
  const dock = document.querySelector(".audience-scroll")!;
  if (dock.scrollWidth > dock.clientWidth + 1) over.push(`the dock scrolls sideways: ${dock.scrollWidth} > ${dock.clientWidth}`);
  return over;
}

for (const name of ENGINES) {
  describe(`the viewer page in ${name}`, () => {
    const shots = join(OUTPUT, "viewer-layout", name);
    const engines: Engine[] = [];
    beforeAll(() => {
      mkdirSync(shots, { recursive: true });
    });
    afterAll(async () => {
      for (const e of engines) await e.close();
    });

    async function viewer(width: number, height: number): Promise<EnginePage> {
      const engine = await launchEngine(name, { viewport: { width, height } });
      engines.push(engine);
      await engine.page.goto(viewerUrl);
      await engine.page.waitFor(
        "the viewer live on slide 1 with the shown question",
        (long: string) => document.body.dataset.screen === "live" && document.querySelector("#frame")?.getAttribute("data-state") === "painted" && !(document.querySelector("#shown-question") as HTMLElement).hidden && (document.querySelector("#shown-question")?.textContent ?? "").includes(long),
        [LONG_NAME],
        45_000,
      );
      return engine.page;
    }

    test("on a 390 px phone a 40-character name without a break stays on the screen, in the list and on the shown card", async () => {
      const page = await viewer(390, 844);
      if (!(await page.evaluate(() => (document.querySelector("#qa-section") as HTMLDetailsElement).open))) await page.click("#qa-section > summary");
      await page.waitFor("the question listed with its name", (long: string) => (document.querySelector("#qa-list .question")?.textContent ?? "").includes(long), [LONG_NAME]);
      await page.screenshot(join(shots, "phone-390-long-name.png"));
      expect(await page.evaluate(overflowing)).toEqual([]);
      // The whole name is there to read (wrapped, not cut).
      expect(await page.evaluate(() => document.querySelector("#qa-list .question-name")?.textContent)).toBe(LONG_NAME);
    });

    for (const [label, width, height] of [["a 1280×720 screen", 1280, 720], ["a phone held sideways (844×390)", 844, 390]] as const) {
      test(`on ${label} the shown question sits under the slide's picture, never over it, and the listed name stays in the dock`, async () => {
        const page = await viewer(width, height);
        if (!(await page.evaluate(() => (document.querySelector("#qa-section") as HTMLDetailsElement).open))) await page.click("#qa-section > summary");
        await page.waitFor("the question listed with its name", (long: string) => (document.querySelector("#qa-list .question")?.textContent ?? "").includes(long), [LONG_NAME]);
        await page.screenshot(join(shots, `shown-question-${width}x${height}.png`));
        const boxes = await page.evaluate(() => {
          const box = (el: Element) => {
            const r = el.getBoundingClientRect();
            return { top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left), right: Math.round(r.right) };
          };
          return { slide: box(document.querySelector("#slide")!), card: box(document.querySelector("#shown-question .shown-card")!) };
        });
        const { slide, card } = boxes;
        // Under the picture, in the slide's column (not beside it, not over it).
        expect({ under: card.top >= slide.bottom && card.left < slide.right && card.right > slide.left, ...boxes }).toMatchObject({ under: true });
        expect(await page.evaluate(overflowing)).toEqual([]);
      });
    }
  });
}
