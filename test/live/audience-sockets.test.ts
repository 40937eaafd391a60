/**
 * The audience on real sockets: each role's allowed and refused audience messages,
 * a question asked, up-voted and shown on every viewer, a poll a remote starts and three
 * viewers answer 2–1 (a reload cannot vote again), reactions for the presenter only until
 * shown, and `hello.audience` for a late joiner. The 100 ms tick runs on the manual
 * scheduler: a test advances it once the server has taken the messages (a ping answered
 * after them proves that), never waits for it.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { makeDeck } from "../fixtures/pdfs.ts";
import { created, LiveClient, type LiveServer, sampleState, startLiveServer } from "./helpers.ts";
import { ManualScheduler } from "./scheduler.ts";
import { AUDIENCE_TICK_MS, AUDIENCE_VIEWER_TICK_MS } from "../../src/live/audience/relay.ts";

// The timeout of each test and hook here: generous for a loaded 2-vCPU machine.
setDefaultTimeout(60_000);

let server: LiveServer;
let deck: Uint8Array;
const scheduler = new ManualScheduler();

beforeAll(async () => {
  deck = await makeDeck({ pages: 5 });
  server = await startLiveServer({ maxViewers: 20, maxViewersPerAddress: 20 }, { scheduler });
});
afterAll(async () => {
  await server.stop();
});

const id = (n: number) => `browser-${String(n).padStart(12, "0")}`;

async function viewer(code: string, viewerId?: string) {
  const client = await LiveClient.connect(server.url, code);
  client.send({ v: 1, type: "join", role: "viewer", ...(viewerId ? { viewerId } : {}) });
  const hello = await client.next("hello");
  return { client, hello };
}

/** Every message sent before this was handled: the server answers a socket's messages in order. */
async function handled(...clients: LiveClient[]) {
  for (const c of clients) {
    c.send({ v: 1, type: "ping" });
    await c.next("pong");
  }
}

async function talk() {
  const t = await created(server.url, deck);
  const presenter = (await LiveClient.join(server.url, t.code, "presenter", t.presenterSecret)).client;
  presenter.send({ v: 1, type: "state", state: sampleState(2) });
  const control = (await LiveClient.join(server.url, t.code, "control", t.controlSecret)).client;
  return { code: t.code, presenter, control };
}

describe("roles", () => {
  test("viewers only ask, vote and react; only the presenter moderates; a closed Q&A refuses questions", async () => {
    const { code, presenter, control } = await talk();
    const { client: v } = await viewer(code, id(1));
    const refusedTo = async (c: LiveClient, message: Record<string, unknown>) => {
      c.send({ v: 1, ...message });
      return (await c.next("error")).code;
    };
    expect(await refusedTo(v, { type: "ask", text: "Before it opens?" })).toBe("QA_CLOSED");
    expect(await refusedTo(v, { type: "qa", open: true, moderated: false })).toBe("NOT_ALLOWED");
    expect(await refusedTo(v, { type: "pollStart", question: "Q?", options: ["a", "b"], multiple: false })).toBe("NOT_ALLOWED");
    expect(await refusedTo(control, { type: "moderate", questionId: "x", action: "hide" })).toBe("NOT_ALLOWED");
    expect(await refusedTo(control, { type: "qa", open: true, moderated: false })).toBe("NOT_ALLOWED");
    expect(await refusedTo(presenter, { type: "ask", text: "Me?" })).toBe("NOT_ALLOWED");
    expect(await refusedTo(presenter, { type: "vote", pollId: "p", choices: [0] })).toBe("NOT_ALLOWED");
    expect(await refusedTo(presenter, { type: "pollClose", pollId: "none" })).toBe("NO_POLL");
    for (const c of [v, presenter, control]) c.close();
  });
});

describe("questions", () => {
  test("asked, up-voted once, shown by the remote on every viewer; a late joiner and a reload get them in hello", async () => {
    const { code, presenter, control } = await talk();
    presenter.send({ v: 1, type: "qa", open: true, moderated: false });
    const a = await viewer(code, id(1));
    const b = await viewer(code, id(2));
    expect(a.hello.audience?.qa).toEqual({ open: true, moderated: false });
    a.client.send({ v: 1, type: "ask", text: "What is <b>bold</b>?", name: "Ada" });
    const asked = (await b.client.next("question")).question;
    expect(asked).toMatchObject({ text: "What is <b>bold</b>?", name: "Ada", votes: 0, status: "open" });
    expect((await presenter.next("question")).question.id).toBe(asked.id);

    b.client.send({ v: 1, type: "upvote", questionId: asked.id });
    b.client.send({ v: 1, type: "upvote", questionId: asked.id });
    expect((await b.client.next("error")).code).toBe("ALREADY_VOTED");
    await handled(b.client);
    scheduler.advance(AUDIENCE_TICK_MS);
    const votedOnce = (m: { question: { votes: number } }) => m.question.votes > 0;
    expect((await presenter.next("question", votedOnce)).question.votes).toBe(1);
    // Viewers hear of up-votes on their slower tick.
    scheduler.advance(AUDIENCE_VIEWER_TICK_MS);
    expect((await a.client.next("question", votedOnce)).question.votes).toBe(1);

    control.send({ v: 1, type: "show", questionId: asked.id });
    for (const c of [a.client, b.client, presenter]) expect((await c.next("shown")).question?.id).toBe(asked.id);

    b.client.close();
    const reloaded = await viewer(code, id(2));
    expect(reloaded.hello.audience).toMatchObject({ qa: { open: true, moderated: false }, questions: [{ id: asked.id, votes: 1 }], shown: { id: asked.id }, mine: { upvoted: [asked.id], voted: [] } });
    reloaded.client.send({ v: 1, type: "upvote", questionId: asked.id });
    expect((await reloaded.client.next("error")).code).toBe("ALREADY_VOTED");

    presenter.send({ v: 1, type: "moderate", questionId: asked.id, action: "hide" });
    expect(await a.client.next("questionGone")).toEqual({ v: 1, type: "questionGone", id: asked.id });
    expect((await a.client.next("shown")).question).toBeNull();
    const late = await viewer(code);
    expect(late.hello.audience).toMatchObject({ questions: [], shown: null });
    for (const c of [a.client, reloaded.client, late.client, presenter, control]) c.close();
  });
});

describe("the viewers' slower tick", () => {
  test("an up-vote waiting for it does not bring back a question hidden in between", async () => {
    const { code, presenter, control } = await talk();
    presenter.send({ v: 1, type: "qa", open: true, moderated: false });
    const a = await viewer(code, id(31));
    const b = await viewer(code, id(32));
    a.client.send({ v: 1, type: "ask", text: "Soon hidden" });
    const asked = (await b.client.next("question")).question;
    b.client.send({ v: 1, type: "upvote", questionId: asked.id });
    await handled(b.client);
    scheduler.advance(AUDIENCE_TICK_MS);
    expect((await presenter.next("question", (m) => m.question.votes === 1)).question.id).toBe(asked.id);
    presenter.send({ v: 1, type: "moderate", questionId: asked.id, action: "hide" });
    expect(await a.client.next("questionGone")).toEqual({ v: 1, type: "questionGone", id: asked.id });
    scheduler.advance(AUDIENCE_VIEWER_TICK_MS);
    await handled(a.client);
    const about = a.client.messages.filter((m) => (m.type === "question" && m.question.id === asked.id) || (m.type === "questionGone" && m.id === asked.id));
    expect(about.map((m) => m.type)).toEqual(["question", "questionGone"]);
    for (const c of [a.client, b.client, presenter, control]) c.close();
  });
});

describe("polls", () => {
  test("a remote starts a poll, three viewers vote 2–1, the presenter's results tick, viewers see them once shown", async () => {
    const { code, presenter, control } = await talk();
    const viewers = await Promise.all([1, 2, 3].map((n) => viewer(code, id(10 + n))));
    control.send({ v: 1, type: "pollStart", question: "Tabs or spaces?", options: ["Tabs", "Spaces"], multiple: false, source: { slide: 2 } });
    const { poll } = await presenter.next("poll");
    expect(poll).toMatchObject({ question: "Tabs or spaces?", status: "open", shown: false, source: { slide: 2 } });
    for (const v of viewers) await v.client.next("poll");
    viewers.forEach((v, i) => v.client.send({ v: 1, type: "vote", pollId: poll.id, choices: [i === 2 ? 1 : 0] }));
    await handled(...viewers.map((v) => v.client));
    scheduler.advance(100);
    expect(await presenter.next("pollResults", (m) => m.voters === 3)).toEqual({ v: 1, type: "pollResults", pollId: poll.id, counts: [2, 1], voters: 3 });
    expect(await control.next("pollResults", (m) => m.voters === 3)).toMatchObject({ counts: [2, 1] });

    // The tick went out before this ping's answer: a viewer holding results would have them now.
    await handled(viewers[2]!.client);
    expect(viewers[2]!.client.messages.filter((m) => m.type === "pollResults")).toEqual([]);

    viewers[0]!.client.close();
    const again = await viewer(code, id(11));
    expect(again.hello.audience).toMatchObject({ poll: { id: poll.id }, results: null, mine: { voted: [poll.id] } });
    again.client.send({ v: 1, type: "vote", pollId: poll.id, choices: [1] });
    expect((await again.client.next("error")).code).toBe("ALREADY_VOTED");

    presenter.send({ v: 1, type: "pollShow", pollId: poll.id });
    expect(await viewers[1]!.client.next("pollResults")).toMatchObject({ counts: [2, 1], voters: 3 });
    control.send({ v: 1, type: "pollClose", pollId: poll.id });
    expect((await viewers[1]!.client.next("poll", (m) => m.poll.status === "closed")).poll.shown).toBe(true);
    for (const c of [...viewers.slice(1).map((v) => v.client), again.client, presenter, control]) c.close();
  });
});

describe("reactions", () => {
  test("summed per tick to the presenter; viewers get them only once the presenter shows them", async () => {
    const { code, presenter, control } = await talk();
    const a = await viewer(code, id(21));
    const b = await viewer(code, id(22));
    a.client.send({ v: 1, type: "react", counts: { "👍": 3 } });
    b.client.send({ v: 1, type: "react", counts: { "👍": 2, "🎉": 1 } });
    await handled(a.client, b.client);
    scheduler.advance(100);
    expect(await presenter.next("reactions")).toEqual({ v: 1, type: "reactions", page: 2, counts: { "👍": 5, "🎉": 1 } });

    presenter.send({ v: 1, type: "reactionsShow", show: true });
    await a.client.next("reactionsShow");
    // Two ticks' taps: the presenter gets each tick; viewers one sum on their slower tick.
    b.client.send({ v: 1, type: "react", counts: { "❓": 1 } });
    await handled(b.client);
    scheduler.advance(AUDIENCE_TICK_MS);
    expect(await presenter.next("reactions", (m) => m.counts["❓"] === 1)).toEqual({ v: 1, type: "reactions", page: 2, counts: { "❓": 1 } });
    b.client.send({ v: 1, type: "react", counts: { "❓": 2, "👏": 1 } });
    await handled(b.client);
    scheduler.advance(AUDIENCE_TICK_MS);
    expect(await presenter.next("reactions", (m) => m.counts["❓"] === 2)).toEqual({ v: 1, type: "reactions", page: 2, counts: { "❓": 2, "👏": 1 } });
    scheduler.advance(AUDIENCE_VIEWER_TICK_MS - AUDIENCE_TICK_MS);
    expect(await a.client.next("reactions")).toEqual({ v: 1, type: "reactions", page: 2, counts: { "❓": 3, "👏": 1 } });
    expect(a.client.messages.filter((m) => m.type === "reactions")).toHaveLength(1);

    // Turned off with taps still waiting for the viewers' tick: none reach them.
    b.client.send({ v: 1, type: "react", counts: { "🎉": 4 } });
    await handled(b.client);
    scheduler.advance(AUDIENCE_TICK_MS);
    await presenter.next("reactions", (m) => m.counts["🎉"] === 4);
    presenter.send({ v: 1, type: "reactionsShow", show: false });
    await a.client.next("reactionsShow", (m) => !m.show);
    scheduler.advance(AUDIENCE_VIEWER_TICK_MS);
    await handled(a.client);
    expect(a.client.messages.filter((m) => m.type === "reactions")).toHaveLength(1);
    for (const c of [a.client, b.client, presenter, control]) c.close();
  });
});
