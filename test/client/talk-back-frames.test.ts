/**
 * The presenter's Questions and polls panel under a crowd (client/src/live/talk-back.ts), on the
 * recording DOM with frames driven by hand: a message and a slide change only ask for a frame —
 * nothing is reduced, drawn or sent at once — and the frame draws what came, once. 2,000
 * questions draw 50 rows and "and 1,950 more"; a vote patches its row in place; Show more draws
 * 50 more; the record is brought up to date and written at most once a second. And the slide
 * change itself (client/src/live/presenter-live.ts): the state leaves on the socket before the
 * audience's part is asked for anything.
 */
import { describe, expect, test } from "bun:test";
import { PresenterLive } from "../../client/src/live/presenter-live.ts";
import { TalkBack } from "../../client/src/live/talk-back.ts";
import type { TalkRecord } from "../../client/src/live/talk-export.ts";
import { initialState } from "../../client/src/presenter/state.ts";
import type { DeckStore } from "../../client/src/storage/deck-store.ts";
import type { LiveQuestionT } from "../../src/shared/live-audience-protocol.ts";
import type { LiveServerMessageT } from "../../src/shared/live-protocol.ts";
import { fakeDocumentForFile, type FakeElement } from "../helpers/fake-dom.ts";
import { handClock } from "../helpers/hand-clock.ts";

const fakeDoc = fakeDocumentForFile();

const el = (node: unknown) => node as FakeElement;
const q = (i: number, votes = 0): LiveQuestionT => ({ id: `q${i}`, text: `Question ${i}?`, votes, at: 1_000 + i, status: "open" });
const hello = { v: 1, type: "hello", audience: { qa: { open: true, moderated: false }, questions: [], shown: null, poll: null, results: null, reactionsShown: false, slides: [] } } as unknown as LiveServerMessageT;
const asked = (question: LiveQuestionT) => ({ v: 1, type: "question", question }) as LiveServerMessageT;
const POLL = { slide: 2, question: "Tabs or spaces?", options: ["Tabs", "Spaces"], multiple: false };

function talkBack(page = () => 1) {
  const hand = handClock();
  const sent: { type: string }[] = [];
  /** What went to the audience window over the channel. */
  const posted: { type: string; talk?: { reactions: boolean } }[] = [];
  const puts: TalkRecord[] = [];
  const store = {
    getTalk: async () => undefined,
    putTalk: async (record: TalkRecord) => void puts.push(structuredClone(record)),
    latestTalk: async () => undefined,
  } as unknown as DeckStore;
  const panel = el(document.createElement("section"));
  const body = el(document.createElement("div"));
  panel.appendChild(body);
  fakeDoc().body.appendChild(panel);
  const talk = new TalkBack({
    store,
    deckId: () => "deck1",
    deckTitle: () => "Talk",
    send: (message) => (sent.push(message), true),
    channel: () => ({ post: (message: { type: string }) => void posted.push(message) }) as never,
    panel: panel as unknown as HTMLElement,
    body: body as unknown as HTMLElement,
    floats: document.createElement("div"),
    page,
    label: String,
    polls: () => [POLL],
    openByDefault: () => false,
    setOpenByDefault: () => {},
    frames: hand.clock,
    now: hand.now,
  });
  const rows = () => body.querySelectorAll("li").filter((li) => li.className.startsWith("talk-question-row"));
  const more = () => body.querySelector("#talk-questions-more")!;
  return { hand, sent, posted, puts, talk, body, rows, more };
}

/** A talk with the panel open and its hello drawn. */
async function openTalk(page = () => 1) {
  const t = talkBack(page);
  t.talk.setTalk("ABC234");
  // The kept record is read from storage first.
  await Bun.sleep(0);
  t.talk.toggle();
  t.talk.onMessage(hello);
  t.hand.frame();
  return t;
}

describe("the presenter's panel under a crowd", () => {
  test("a message only queues: nothing is drawn until the frame, which draws everything that came once", async () => {
    const t = await openTalk();
    expect(t.body.querySelector("#talk-questions")).not.toBeNull();
    const before = fakeDoc().created.length;
    for (let i = 0; i < 2_000; i++) t.talk.onMessage(asked(q(i)));
    expect(fakeDoc().created.length).toBe(before);
    expect(t.rows()).toHaveLength(0);
    expect(t.hand.waiting().frames).toBe(1);
    t.hand.frame();
    expect(t.rows()).toHaveLength(50);
    expect(t.body.querySelector("#talk-questions-title")!.textContent).toBe("Questions (2000)");
    // Most voted, ties newest first: the newest 50.
    expect(t.rows()[0]!.getAttribute("data-id")).toBe("q1999");
    expect(t.more().hidden).toBe(false);
    expect(t.more().textContent).toBe("and 1,950 more Show 50 more");
  });

  test("a vote patches its row in place; one out of the window draws nothing; the order moves only at the re-sort", async () => {
    const t = await openTalk();
    for (let i = 0; i < 200; i++) t.talk.onMessage(asked(q(i)));
    t.hand.frame();
    const row = t.rows().find((li) => li.getAttribute("data-id") === "q1990")!;
    const before = fakeDoc().created.length;
    t.talk.onMessage(asked(q(190, 5)));
    t.talk.onMessage(asked(q(3, 2)));
    t.hand.frame();
    expect(fakeDoc().created.length).toBe(before);
    const patched = t.rows().find((li) => li.getAttribute("data-id") === "q190")!;
    expect(patched.querySelector(".talk-q-meta")!.textContent).toBe("Anonymous · 5 votes");
    expect(t.rows()[0]!.getAttribute("data-id")).toBe("q199");
    expect(row).toBe(t.rows().find((li) => li.getAttribute("data-id") === "q1990")!);
    // After REORDER_MS the voted ones lead (q3 comes from beyond the window).
    t.hand.advance(3_000);
    t.hand.frame();
    expect(t.rows().slice(0, 3).map((li) => li.getAttribute("data-id"))).toEqual(["q190", "q3", "q199"]);
    expect(patched).toBe(t.rows()[0]!);
  });

  test("while the pointer is over the list nothing moves and new rows come last; it moves away, the list re-sorts", async () => {
    const t = await openTalk();
    for (let i = 0; i < 10; i++) t.talk.onMessage(asked(q(i)));
    t.hand.frame();
    const ids = () => t.rows().map((li) => li.getAttribute("data-id"));
    expect(ids().slice(0, 2)).toEqual(["q9", "q8"]);
    fakeDoc().dispatch("pointermove", t.rows()[3]!.querySelector("button")!);
    t.talk.onMessage(asked(q(2, 9)));
    t.talk.onMessage(asked(q(10)));
    t.hand.advance(10_000);
    t.hand.frame();
    expect(ids()).toEqual(["q9", "q8", "q7", "q6", "q5", "q4", "q3", "q2", "q1", "q0", "q10"]);
    // The pointer on the panel's switches: let go, drawn at the next frame in the order of now.
    fakeDoc().dispatch("pointermove", t.body.querySelector("#talk-qa-open")!);
    expect(t.hand.waiting().frames).toBe(1);
    t.hand.frame();
    expect(ids().slice(0, 3)).toEqual(["q2", "q10", "q9"]);
  });

  test("Show 50 more draws 50 more at once; the count follows", async () => {
    const t = await openTalk();
    for (let i = 0; i < 120; i++) t.talk.onMessage(asked(q(i)));
    t.hand.frame();
    const button = t.body.querySelector("#talk-questions-more-button")!;
    button.listeners.get("click")![0]!(new Event("click"));
    expect(t.rows()).toHaveLength(100);
    expect(t.more().textContent).toBe("and 20 more Show 20 more");
    button.listeners.get("click")![0]!(new Event("click"));
    expect(t.rows()).toHaveLength(120);
    expect(t.more().hidden).toBe(true);
  });

  test("a slide change only asks for a frame; the deck's poll for it opens then", async () => {
    let page = 1;
    const t = await openTalk(() => page);
    page = 2;
    t.talk.pageChanged(2);
    expect(t.sent).toEqual([]);
    t.hand.frame();
    expect(t.sent as unknown[]).toEqual([{ type: "pollStart", question: POLL.question, options: POLL.options, multiple: false, source: { slide: 2 } }]);
  });

  test("reactions turned on and the first ones in the same frame: the projector hears they are on before it gets them", async () => {
    const t = await openTalk();
    t.posted.length = 0;
    t.talk.onMessage({ v: 1, type: "reactionsShow", show: true } as unknown as LiveServerMessageT);
    t.talk.onMessage({ v: 1, type: "reactions", page: 1, counts: { "❤️": 4 } } as unknown as LiveServerMessageT);
    t.hand.frame();
    expect(t.posted.map((m) => (m.type === "talk" ? `talk reactions=${m.talk!.reactions}` : m.type))).toEqual(["talk reactions=true", "talk-reactions"]);
  });

  test("the record takes the flood within a second, in one write, not one merge per message", async () => {
    const t = await openTalk();
    for (let i = 0; i < 2_000; i++) {
      t.talk.onMessage(asked(q(i)));
      if (i % 100 === 99) t.hand.frame();
    }
    expect(t.puts).toHaveLength(0);
    t.hand.advance(1_000);
    await Bun.sleep(0);
    expect(t.puts).toHaveLength(1);
    expect(t.puts[0]!.questions).toHaveLength(2_000);
    expect(t.puts[0]!.questions[0]).toMatchObject({ id: "q0", votes: 0, answered: false });
    // Nothing new: nothing written again.
    t.hand.advance(5_000);
    await Bun.sleep(0);
    expect(t.puts).toHaveLength(1);
  });
});

describe("the presenter's slide change", () => {
  test("the state leaves on the socket before the audience's part is asked; that part draws and sends nothing until the frame", async () => {
    const g = globalThis as Record<string, unknown>;
    const frames: string[] = [];
    class FakeSocket {
      readyState = 1;
      onmessage: unknown = null;
      send(data: string) {
        frames.push(JSON.parse(data).type);
      }
      close() {}
    }
    const saved = { WebSocket: g.WebSocket, location: g.location, cancelAnimationFrame: g.cancelAnimationFrame };
    g.WebSocket = FakeSocket;
    g.cancelAnimationFrame = () => {};
    g.location = { protocol: "http:", host: "127.0.0.1:1" };
    try {
      let page = 1;
      const t = talkBack(() => page);
      const order: string[] = [];
      const pageChanged = t.talk.pageChanged.bind(t.talk);
      t.talk.pageChanged = (p: number) => {
        order.push(`talk asked after ${frames.filter((f) => f === "state").length} state message(s)`);
        pageChanged(p);
      };
      const store = { getLiveSession: async () => ({ deckId: "deck1", code: "ABC234", presenterSecret: "s".repeat(32), viewerUrl: "http://x/live/ABC234", controlUrl: "http://x/c", allowDownload: true }), getTalk: async () => undefined } as unknown as DeckStore;
      const div = () => document.createElement("div") as unknown as HTMLElement;
      const live = new PresenterLive({
        store,
        deck: () => ({ id: "deck1" }) as never,
        state: () => initialState({ page }),
        dispatch: () => {},
        label: String,
        panel: div(),
        body: div(),
        button: div(),
        tokenForm: document.createElement("form") as unknown as HTMLFormElement,
        tokenInput: document.createElement("input") as unknown as HTMLInputElement,
        talk: t.talk,
      });
      await live.resume();
      t.talk.onMessage(hello);
      t.hand.frame();
      const previous = initialState({ page: 1 });
      page = 2;
      live.changed(initialState({ page: 2 }), previous);
      expect(order).toEqual(["talk asked after 1 state message(s)"]);
      expect(t.sent).toEqual([]);
      expect(t.hand.waiting().frames).toBe(1);
      t.hand.frame();
      expect(t.sent.map((m) => m.type)).toEqual(["pollStart"]);
    } finally {
      g.WebSocket = saved.WebSocket;
      g.cancelAnimationFrame = saved.cancelAnimationFrame;
      if (saved.location === undefined) delete g.location;
      else g.location = saved.location;
    }
  });
});
