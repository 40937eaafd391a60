/**
 * The audience talks back — the presenter's side and the projector, against the
 * compiled binary. Viewers are plain WebSockets from the test (the viewer page is built apart).
 * Q&A opened from the panel (`q`); a viewer's question — HTML as text — listed, up-voted by
 * another, shown on the projector with its button and with Shift+Q, and nothing else of the talk
 * on the projector; a `poll-slide-2.json` sidecar's poll opens when slide 2 is reached, three
 * viewers vote 2–1, the presenter's chart says 2 and 1, its results go to the projector when
 * asked, and a closed poll is not reopened on a revisit; reactions float on the presenter and
 * not on the projector until *Reactions on the projector* is on; the talk is kept with the deck
 * in IndexedDB. Chromium for now (DECKHAND_ENGINES). Screenshots go to
 * test-output/audience-presenter/<engine>/.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { seriousViolations } from "../helpers/axe.ts";
import { presentPdf } from "../helpers/e2e-suite.ts";
import { ENGINES, launchEngine, type Engine, type EnginePage } from "../helpers/engine.ts";
import { startBinary, type BinaryServer } from "../helpers/server.ts";
import { audiencePainted, openAudience, openPresenter, tap } from "../helpers/stage.ts";
import { buildFixturePdf, pollSidecar } from "../fixtures/sidecar-builder.ts";
import { LiveClient } from "../live/helpers.ts";
import { OUTPUT } from "./fixtures.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite.
setDefaultTimeout(120_000);

const STEP_MS = 180_000;
const it = (name: string, fn: () => Promise<void>) => test(name, fn, STEP_MS);

const HOSTILE = `<img src=x onerror="document.body.dataset.pwned='1'">Why tabs?`;
const POLL = { question: "Tabs or spaces?", options: ["Tabs", "Spaces"] };

/** A viewer's message, or a failure that says which one never came (LiveClient.next waits forever). */
function within<T>(promise: Promise<T>, what: string, ms = 15_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A viewer socket with its own per-browser id; resolves after its hello. */
async function viewer(base: string, code: string, n: number): Promise<LiveClient> {
  const client = await LiveClient.connect(base, code);
  client.send({ v: 1, type: "join", role: "viewer", viewerId: `viewer-e2e-${n}`.padEnd(16, "x") });
  await client.next("hello");
  return client;
}

let server: BinaryServer;
let deckBytes: Uint8Array;

beforeAll(async () => {
  server = await startBinary();
  deckBytes = await buildFixturePdf({ pages: 3, title: "Talk back", attachments: [pollSidecar(2, POLL)] });
}, STEP_MS);

afterAll(async () => {
  if (server?.proc.exitCode === null) await server.stop();
  server?.cleanup();
});

for (const name of ENGINES) {
  describe(`the audience talks back, presenter and projector, in ${name}`, () => {
    let engine: Engine;
    let presenter: EnginePage;
    let audience: EnginePage;
    let code = "";
    let controlUrl = "";
    const viewers: LiveClient[] = [];
    const shots = join(OUTPUT, "audience-presenter", name);
    const shot = (page: EnginePage, n: string) => page.screenshot(join(shots, `${n}.png`));
    /** Keys go to the talk: no button keeps the focus a click gave it. */
    const blur = () => presenter.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

    beforeAll(async () => {
      mkdirSync(shots, { recursive: true });
      engine = await launchEngine(name, { viewport: { width: 1280, height: 800 } });
      presenter = engine.page;
      const handoff = await presentPdf(server.url, deckBytes, "Talk back.pdf");
      await openPresenter(presenter, handoff.url);
      audience = await engine.newPage();
      await openAudience(audience, server.url, (await presenter.href()).split("/").pop()!.split("#")[0]!);
      await tap(presenter, "#btn-live");
      await presenter.waitFor("the live session", () => document.body.dataset.live === "open" && !!document.querySelector("#live-code")?.textContent, [], 30_000);
      code = await presenter.evaluate(() => document.querySelector("#live-code")!.textContent!.trim());
      controlUrl = await presenter.evaluate(() => (document.querySelector("#live-control-url") as HTMLAnchorElement).href);
      await tap(presenter, "#live-hide");
      for (let n = 1; n <= 3; n++) viewers.push(await viewer(server.url, code, n));
    }, STEP_MS);

    afterAll(async () => {
      for (const v of viewers) v.close();
      await engine?.close();
    });

    it("q opens the Questions panel; Q&A opened there reaches the viewers; a question of HTML is listed as text, up-voted first", async () => {
      await blur();
      await presenter.press("q");
      await presenter.waitFor("the Questions panel", () => document.body.dataset.talkPanel === "open" && !!document.querySelector("#talk-qa-open"));
      await tap(presenter, "#talk-qa-open");
      await within(viewers[0]!.next("qa", (m) => m.open === true), "a viewer's qa message");
      await presenter.waitFor("Q&A shown open", () => (document.querySelector("#talk-qa-open") as HTMLInputElement | null)?.checked === true);
      viewers[0]!.send({ v: 1, type: "ask", text: HOSTILE, name: "Ada" });
      viewers[1]!.send({ v: 1, type: "ask", text: "How long did it take?" });
      const asked = await within(viewers[2]!.next("question", (m) => m.question.text === HOSTILE), "a viewer's question message");
      viewers[1]!.send({ v: 1, type: "upvote", questionId: asked.question.id });
      // Asked within the same millisecond, the two tie until the up-vote arrives: wait for it.
      await presenter.waitFor("both questions, the up-voted one first", () => {
        const rows = [...document.querySelectorAll("#talk-questions .talk-q-text")].map((p) => p.textContent);
        const meta = document.querySelector("#talk-questions .talk-q-meta")?.textContent;
        return rows.length === 2 && rows[1] === "How long did it take?" && meta === "Ada · 1 vote" ? true : JSON.stringify([rows, meta]);
      });
      const panel = await presenter.evaluate(() => ({
        first: document.querySelector("#talk-questions .talk-q-text")!.textContent,
        meta: document.querySelector("#talk-questions .talk-q-meta")!.textContent,
        images: document.querySelectorAll("#talk-panel img").length,
        pwned: document.body.dataset.pwned ?? null,
      }));
      expect(panel).toEqual({ first: HOSTILE, meta: "Ada · 1 vote", images: 0, pwned: null });
      expect(await seriousViolations(presenter)).toEqual([]);
      await shot(presenter, "01-presenter-questions");
    });

    it("Show on projector puts that one question over the slide — as text, nothing else of the talk; Shift+Q takes it away and shows the top one again", async () => {
      await tap(presenter, '#talk-questions li:first-child [data-button="show"]');
      await audience.waitFor("the question on the projector", () => document.querySelector("#talk-question .talk-question-text")?.textContent !== undefined);
      const seen = await audience.evaluate(() => ({
        text: document.querySelector("#talk-question .talk-question-text")!.textContent,
        name: document.querySelector("#talk-question .talk-question-name")?.textContent ?? null,
        images: document.querySelectorAll("#main img").length,
        pwned: document.body.dataset.pwned ?? null,
        html: document.documentElement.outerHTML,
      }));
      expect({ text: seen.text, name: seen.name, images: seen.images, pwned: seen.pwned }).toEqual({ text: HOSTILE, name: "Ada", images: 0, pwned: null });
      // Nothing else of the talk: not the other question, not the code, not the remote link.
      expect(seen.html).not.toContain("How long did it take?");
      expect(seen.html).not.toContain(controlUrl.split("#")[1]!);
      expect(seen.html).not.toContain("/control");
      expect(seen.html).not.toContain("Questions and polls");
      await within(viewers[2]!.next("shown", (m) => m.question?.text === HOSTILE), "a viewer's shown message");
      expect(await seriousViolations(audience)).toEqual([]);
      await shot(audience, "02-projector-question");
      await shot(presenter, "02-presenter-question-shown");
      await blur();
      await presenter.press("Shift+Q");
      await audience.waitFor("the question dismissed", () => !document.querySelector("#talk-question"));
      await presenter.press("Shift+Q");
      await audience.waitFor("the top question again", () => document.querySelector("#talk-question .talk-question-text")?.textContent?.endsWith("Why tabs?") === true);
      await presenter.press("Shift+Q");
      await audience.waitFor("the question dismissed again", () => !document.querySelector("#talk-question"));
    });

    it("slide 2's poll sidecar opens its poll; three viewers vote 2–1; the chart says 2 and 1; results go to the projector when asked; a closed poll is not reopened on a revisit", async () => {
      await blur();
      await presenter.press("ArrowRight");
      await audiencePainted(audience, 2);
      const opened = await within(viewers[0]!.next("poll", (m) => m.poll.status === "open"), "a viewer's poll message");
      expect({ question: opened.poll.question, options: opened.poll.options, source: opened.poll.source }).toEqual({ ...POLL, source: { slide: 2 } });
      viewers[0]!.send({ v: 1, type: "vote", pollId: opened.poll.id, choices: [0] });
      viewers[1]!.send({ v: 1, type: "vote", pollId: opened.poll.id, choices: [0] });
      viewers[2]!.send({ v: 1, type: "vote", pollId: opened.poll.id, choices: [1] });
      await presenter.waitFor("the chart at 2 and 1", () => {
        const counts = [...document.querySelectorAll("#talk-poll-panel .poll-bar-count")].map((c) => c.textContent).join(",");
        return counts === "2,1" ? true : counts;
      });
      const chart = await presenter.evaluate(() => ({
        label: document.querySelector("#talk-poll-panel .poll-chart")!.getAttribute("aria-label"),
        widths: [...document.querySelectorAll<HTMLElement>("#talk-poll-panel .poll-bar-fill")].map((f) => f.style.width),
      }));
      expect(chart).toEqual({ label: "Tabs or spaces? — 3 voters. Tabs: 2 (67%); Spaces: 1 (33%).", widths: ["100%", "50%"] });
      // Not on the projector until asked.
      expect(await audience.evaluate(() => !!document.querySelector("#talk-poll"))).toBe(false);
      expect(await seriousViolations(presenter)).toEqual([]);
      await shot(presenter, "03-presenter-poll-chart");
      await tap(presenter, "#talk-poll-close");
      await within(viewers[0]!.next("poll", (m) => m.poll.status === "closed"), "a viewer's poll message");
      await presenter.waitFor("the show-results button", () => !!document.querySelector("#talk-poll-show") && !document.querySelector("#talk-poll-close"));
      await tap(presenter, "#talk-poll-show");
      await audience.waitFor("the results on the projector", () => [...document.querySelectorAll("#talk-poll .poll-bar-count")].map((c) => c.textContent).join(",") === "2,1");
      expect(await audience.evaluate(() => document.querySelector("#talk-poll .talk-poll-question")?.textContent)).toBe(POLL.question);
      expect(await seriousViolations(audience)).toEqual([]);
      await shot(audience, "03-projector-poll-results");
      await tap(presenter, "#talk-poll-show");
      await audience.waitFor("the results off the projector", () => !document.querySelector("#talk-poll"));
      // Back and forth: slide 2's poll was opened in this talk; it stays closed.
      await blur();
      await presenter.press("ArrowLeft");
      await audiencePainted(audience, 1);
      await presenter.press("ArrowRight");
      await audiencePainted(audience, 2);
      await Bun.sleep(800);
      expect(viewers[1]!.messages.filter((m) => m.type === "poll" && m.poll.status === "open")).toHaveLength(1);
      expect(await presenter.evaluate(() => document.querySelector("#talk-poll-title")?.textContent)).toBe("Poll (closed)");
    });

    it("reactions float on the presenter and are counted for the slide, and reach the projector only once turned on", async () => {
      viewers[0]!.send({ v: 1, type: "react", counts: { "👍": 3, "🎉": 1 } });
      await presenter.waitFor("reactions floating on the presenter", () => document.querySelectorAll("#reaction-floats .reaction-float").length > 0);
      await presenter.waitFor("the slide's count", () => document.querySelector("#talk-reactions-count")?.textContent?.includes("👍 3") === true);
      await shot(presenter, "04-presenter-reactions");
      await Bun.sleep(500);
      expect(await audience.evaluate(() => document.querySelectorAll(".reaction-float").length)).toBe(0);
      await tap(presenter, "#talk-reactions-shown");
      await within(viewers[0]!.next("reactionsShow", (m) => m.show === true), "a viewer's reactionsShow message");
      viewers[1]!.send({ v: 1, type: "react", counts: { "❤️": 4 } });
      await audience.waitFor("reactions floating on the projector", () => document.querySelectorAll("#talk-reactions .reaction-float").length > 0);
      await shot(audience, "04-projector-reactions");
      await presenter.waitFor("the slide's count grown", () => document.querySelector("#talk-reactions-count")?.textContent?.includes("❤️ 4") === true);
    });

    it("the talk is kept with the deck in IndexedDB: questions, the poll's 2–1, reactions per slide", async () => {
      const deckId = (await presenter.href()).split("/").pop()!.split("#")[0]!;
      const kept = await presenter.evaluate(
        (id: string, talkCode: string) =>
          new Promise<unknown>((resolve) => {
            const tick = () => {
              const open = indexedDB.open("deckhand");
              open.onsuccess = () => {
                const get = open.result.transaction("talks").objectStore("talks").get(`${id} ${talkCode}`);
                get.onsuccess = () => {
                  open.result.close();
                  const r = get.result as { questions: { text: string; votes: number }[]; polls: { counts: number[] }[]; reactions: { page: number; counts: Record<string, number> }[] } | undefined;
                  if (r && r.polls[0]?.counts.join(",") === "2,1" && r.reactions.some((x) => x.counts["❤️"] === 4)) resolve({ questions: r.questions.map((q) => [q.text, q.votes]), counts: r.polls[0]!.counts, reactions: r.reactions });
                  else setTimeout(tick, 200);
                };
              };
            };
            tick();
          }),
        deckId,
        code,
      );
      expect(kept).toEqual({ questions: [[HOSTILE, 1], ["How long did it take?", 0]], counts: [2, 1], reactions: [{ page: 2, counts: { "👍": 3, "🎉": 1, "❤️": 4 } }] });
    });

    it("moderation: a held question waits for Approve; Answered and Hide reach the viewers; a poll typed in the panel starts; the CSV export carries the talk", async () => {
      const rowId = (text: string) => presenter.evaluate((t: string) => [...document.querySelectorAll<HTMLElement>("#talk-questions li")].find((li) => li.querySelector(".talk-q-text")?.textContent === t)?.dataset.id ?? "", text);
      await tap(presenter, "#talk-qa-moderated");
      await within(viewers[0]!.next("qa", (m) => m.moderated === true), "a viewer's qa message");
      viewers[2]!.send({ v: 1, type: "ask", text: "Held one?" });
      await presenter.waitFor("the held question, first, with Approve", () => {
        const first = document.querySelector("#talk-questions li");
        return first?.querySelector(".talk-q-text")?.textContent === "Held one?" && first.classList.contains("is-pending") && !!first.querySelector('[data-button="approve"]');
      });
      expect(viewers[0]!.messages.some((m) => m.type === "question" && m.question.text === "Held one?")).toBe(false);
      const held = await rowId("Held one?");
      await tap(presenter, `#talk-questions li[data-id="${held}"] [data-button="approve"]`);
      await within(viewers[0]!.next("question", (m) => m.question.text === "Held one?" && m.question.status === "open"), "a viewer's approved question");
      await presenter.waitFor("the approved question no longer held", (id: string) => !!document.querySelector(`#talk-questions li[data-id="${id}"]:not(.is-pending)`), [held]);
      const hostile = await rowId(HOSTILE);
      await tap(presenter, `#talk-questions li[data-id="${hostile}"] [data-button="answer"]`);
      await within(viewers[0]!.next("question", (m) => m.question.id === hostile && m.question.status === "answered"), "a viewer's answered question");
      await presenter.waitFor("Not answered offered", (id: string) => !!document.querySelector(`#talk-questions li[data-id="${id}"] [data-button="unanswer"]`), [hostile]);
      const other = await rowId("How long did it take?");
      await tap(presenter, `#talk-questions li[data-id="${other}"] [data-button="hide"]`);
      await within(viewers[0]!.next("questionGone", (m) => m.id === other), "a viewer's questionGone message");
      await presenter.waitFor("the hidden question gone from the panel", (id: string) => !document.querySelector(`#talk-questions li[data-id="${id}"]`), [other]);
      await shot(presenter, "05-presenter-moderation");

      // A poll typed in the panel: blank fields are refused with a reason, a good one starts.
      await tap(presenter, "#talk-poll-start");
      await presenter.waitFor("the form's reason", () => document.querySelector("#talk-poll-status")?.textContent === "Type the poll's question.");
      await tap(presenter, "#talk-poll-add");
      await presenter.evaluate(() => {
        (document.querySelector("#talk-poll-q") as HTMLInputElement).value = "Lunch?";
        const options = document.querySelectorAll<HTMLInputElement>(".talk-poll-option");
        ["Pizza", "Soup", "Salad"].forEach((v, i) => (options[i]!.value = v));
        (document.querySelector("#talk-poll-multiple") as HTMLInputElement).checked = true;
      });
      await tap(presenter, "#talk-poll-start");
      const lunch = await within(viewers[0]!.next("poll", (m) => m.poll.question === "Lunch?"), "a viewer's poll message");
      expect({ options: lunch.poll.options, multiple: lunch.poll.multiple, status: lunch.poll.status, source: lunch.poll.source }).toEqual({ options: ["Pizza", "Soup", "Salad"], multiple: true, status: "open", source: undefined });
      viewers[1]!.send({ v: 1, type: "vote", pollId: lunch.poll.id, choices: [0, 2] });
      await presenter.waitFor("the new poll's chart", () => [...document.querySelectorAll("#talk-poll-panel .poll-bar-count")].map((c) => c.textContent).join(",") === "1,0,1");

      // The CSV download: what the export button hands the browser.
      await presenter.evaluate(() => {
        const w = window as unknown as { __exported: Blob[] };
        w.__exported = [];
        const original = URL.createObjectURL.bind(URL);
        URL.createObjectURL = (blob: Blob | MediaSource) => {
          if (blob instanceof Blob) w.__exported.push(blob);
          return original(blob);
        };
      });
      await tap(presenter, "#talk-export-csv");
      await presenter.waitFor("the CSV handed over", () => (window as unknown as { __exported: Blob[] }).__exported.length === 1);
      const csv = await presenter.evaluate(() => (window as unknown as { __exported: Blob[] }).__exported[0]!.text());
      const lines = csv.split("\r\n");
      expect(lines[0]).toBe("question,name,votes,answered,hidden,asked_at");
      expect(lines.find((l) => l.includes("Why tabs?"))).toStartWith(`"<img src=x onerror=""document.body.dataset.pwned='1'"">Why tabs?",Ada,1,true,false,`);
      expect(lines.find((l) => l.startsWith("How long did it take?"))).toContain(",0,false,true,");
      expect(lines).toContain("Tabs or spaces?,Tabs,2,3,false,2");
      expect(lines).toContain("Lunch?,Salad,1,1,true,");
      expect(lines.find((l) => l.startsWith("2,2,"))).toBe("2,2,3,0,4,0,1,0,8");
    });

    it("“Open Q&A whenever this deck goes live” is kept with the deck: ending the talk clears the projector, and the next talk starts with Q&A open", async () => {
      const deckId = (await presenter.href()).split("/").pop()!.split("#")[0]!;
      await tap(presenter, "#talk-qa-default");
      const kept = () =>
        presenter.evaluate(
          (id: string) =>
            new Promise<boolean | null>((resolve) => {
              const open = indexedDB.open("deckhand");
              open.onsuccess = () => {
                const get = open.result.transaction("decks").objectStore("decks").get(id);
                get.onsuccess = () => {
                  open.result.close();
                  resolve((get.result as { qaOpenByDefault?: boolean } | undefined)?.qaOpenByDefault ?? null);
                };
              };
            }),
          deckId,
        );
      await presenter.waitFor("the setting checked", () => (document.querySelector("#talk-qa-default") as HTMLInputElement).checked);
      for (let i = 0; i < 50 && (await kept()) !== true; i++) await Bun.sleep(100);
      expect(await kept()).toBe(true);
      // Something on the projector, then the talk ends: the projector keeps only the slide.
      await blur();
      await presenter.press("Shift+Q");
      await audience.waitFor("the top question shown", () => !!document.querySelector("#talk-question"));
      await presenter.press("Shift+L");
      await tap(presenter, "#live-end");
      await tap(presenter, "#live-end-confirm");
      await presenter.waitFor("live ended", () => document.body.dataset.live === "idle" || document.body.dataset.live === "off");
      await audience.waitFor("the projector cleared", () => !document.querySelector("#talk-question") && !document.querySelector("#talk-poll") && document.querySelectorAll(".reaction-float").length === 0);
      for (const v of viewers.splice(0)) v.close();
      // After the talk, the panel still exports it (kept with the deck).
      await presenter.press("q");
      await presenter.waitFor("the panel's export after the talk", () => !!document.querySelector("#talk-export-json") && (document.querySelector("#live-panel") as HTMLElement).hidden);
      await tap(presenter, "#talk-export-json");
      await presenter.waitFor("the JSON handed over", () => (window as unknown as { __exported: Blob[] }).__exported.length === 2);
      const json = JSON.parse(await presenter.evaluate(() => (window as unknown as { __exported: Blob[] }).__exported[1]!.text())) as { code: string; polls: { question: string }[]; questions: unknown[] };
      expect({ code: json.code, polls: json.polls.map((p) => p.question), questions: json.questions.length }).toEqual({ code, polls: [POLL.question, "Lunch?"], questions: 3 });
      // Shift+L goes live again at once (no talk now), in the Questions panel's place.
      await presenter.press("Shift+L");
      await presenter.waitFor("live again", () => document.body.dataset.live === "open" && !!document.querySelector("#live-code")?.textContent, [], 30_000);
      const again = await presenter.evaluate(() => document.querySelector("#live-code")!.textContent!.trim());
      expect(again).not.toBe(code);
      const late = await LiveClient.connect(server.url, again);
      viewers.push(late);
      late.send({ v: 1, type: "join", role: "viewer", viewerId: "viewer-e2e-late-xx" });
      const hello = await late.next("hello");
      if (!hello.audience?.qa.open) await late.next("qa", (m) => m.open === true);
      // The Questions panel takes the live panel's place.
      await presenter.press("q");
      await presenter.waitFor("the live panel hidden", () => (document.querySelector("#live-panel") as HTMLElement).hidden);
      await presenter.waitFor("Q&A open in the panel", () => (document.querySelector("#talk-qa-open") as HTMLInputElement | null)?.checked === true);
      await shot(presenter, "05-presenter-next-talk");
    });
  });
}
