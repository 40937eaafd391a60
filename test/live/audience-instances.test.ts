/**
 * The audience of one talk served by two instances (it must work across instances on
 * the PostgreSQL bus): two real server processes sharing PostgreSQL (rows, LISTEN/NOTIFY) and an
 * S3 bucket, the presenter on B and viewers on A (and B). A viewer on A votes in the poll B's
 * presenter started and B's presenter gets the results; the same viewer id is refused a second
 * vote on B; a question asked on A reaches B's presenter and viewers, an up-vote on B reaches
 * A's viewers, B's presenter hides it and A's viewer gets questionGone; taps on A reach B's
 * presenter summed per tick. An instance that loads the talk after a question was asked on the
 * other (not yet written to the row) catches up from the other's copy. Last, questions and votes taken on each instance are in the row
 * (whichever instance wrote last), and after both are killed a fresh instance has them all.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { makeDeck } from "../fixtures/pdfs.ts";
import { type PostgresServer, type S3Server, startPostgres, startS3 } from "../helpers/engines.ts";
import { created, eventually, LiveClient, sampleState, startInstance } from "./helpers.ts";

// The timeout of each test and hook here: ~10× PostgreSQL's, S3's and two servers' start in beforeAll on a loaded 2-vCPU machine (9 s), and
// above the starts' own bounds together (PostgreSQL 60 s, S3 45 s, a server 45 s: test/helpers), which yielding to the browser lanes may near.
setDefaultTimeout(180_000);

let pg: PostgresServer;
let s3: S3Server;
let databaseUrl: string;
const procs: Subprocess[] = [];
const dirs: string[] = [];

async function instance(): Promise<{ url: string; proc: Subprocess }> {
  const dataDir = mkdtempSync(join(tmpdir(), "deckhand-live-audience-"));
  dirs.push(dataDir);
  const started = await startInstance({ databaseUrl, env: s3.env, dataDir });
  procs.push(started.proc);
  return started;
}

let a: string;
let b: string;
beforeAll(async () => {
  [pg, s3] = await Promise.all([startPostgres(), startS3()]);
  databaseUrl = await pg.createDatabase("live_audience");
  a = (await instance()).url;
  b = (await instance()).url;
});
afterAll(async () => {
  for (const proc of procs) proc.kill(9);
  await Promise.all(procs.map((p) => p.exited));
  await Promise.all([pg?.stop(), s3?.stop()]);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const id = (n: number) => `instances-viewer-${String(n).padStart(4, "0")}`;

async function viewer(base: string, code: string, viewerId: string) {
  const client = await LiveClient.connect(base, code);
  client.send({ v: 1, type: "join", role: "viewer", viewerId });
  return { client, hello: await client.next("hello") };
}

/** A talk created on A, its presenter on B showing slide 2 with Q&A open. */
async function talkPresentedOnB() {
  const talk = await created(a, await makeDeck({ pages: 4 }));
  const presenter = (await LiveClient.join(b, talk.code, "presenter", talk.presenterSecret)).client;
  presenter.send({ v: 1, type: "state", state: sampleState(2) });
  presenter.send({ v: 1, type: "qa", open: true, moderated: false });
  await presenter.next("qa");
  return { code: talk.code, presenter, secret: talk.presenterSecret };
}

test("a viewer on A votes in the poll B's presenter started: B's presenter gets the results; the same viewer id on B cannot vote again", async () => {
  const { code, presenter } = await talkPresentedOnB();
  const onA = await viewer(a, code, id(1));
  presenter.send({ v: 1, type: "pollStart", question: "Across?", options: ["Yes", "No"], multiple: false });
  const { poll } = await presenter.next("poll");
  // Started on B, applied on A: A's viewer is told, with the id B gave it.
  expect((await onA.client.next("poll")).poll).toEqual(poll);
  onA.client.send({ v: 1, type: "vote", pollId: poll.id, choices: [1] });
  expect(await presenter.next("pollResults", (m) => m.voters === 1)).toEqual({ v: 1, type: "pollResults", pollId: poll.id, counts: [0, 1], voters: 1 });

  // The same browser, now connected to B: its vote is known there.
  const onB = await viewer(b, code, id(1));
  expect(onB.hello.audience).toMatchObject({ poll: { id: poll.id, status: "open" }, mine: { voted: [poll.id] } });
  onB.client.send({ v: 1, type: "vote", pollId: poll.id, choices: [0] });
  expect((await onB.client.next("error")).code).toBe("ALREADY_VOTED");
  // A second viewer on B votes; A's copy counts it too: shown on A's viewer once B's presenter shows the results.
  const other = await viewer(b, code, id(2));
  other.client.send({ v: 1, type: "vote", pollId: poll.id, choices: [0] });
  await presenter.next("pollResults", (m) => m.voters === 2);
  presenter.send({ v: 1, type: "pollShow", pollId: poll.id });
  expect(await onA.client.next("pollResults", (m) => m.voters === 2)).toEqual({ v: 1, type: "pollResults", pollId: poll.id, counts: [1, 1], voters: 2 });
  // Viewers without an id vote once each as their socket: the first anonymous socket of each instance is two viewers, not one.
  const anonymous = await Promise.all([a, b].map(async (base) => (await LiveClient.join(base, code, "viewer")).client));
  for (const c of anonymous) c.send({ v: 1, type: "vote", pollId: poll.id, choices: [0] });
  expect(await presenter.next("pollResults", (m) => m.voters === 4)).toEqual({ v: 1, type: "pollResults", pollId: poll.id, counts: [3, 1], voters: 4 });
  presenter.send({ v: 1, type: "pollClose", pollId: poll.id });
  expect((await onA.client.next("poll", (m) => m.poll.status === "closed")).poll).toMatchObject({ id: poll.id, shown: true });
  for (const c of [onA.client, onB.client, other.client, ...anonymous, presenter]) c.close();
});

test("a question asked on A reaches B's presenter and B's viewer; an up-vote on B reaches A; hidden on B, it is gone for A's viewer", async () => {
  const { code, presenter } = await talkPresentedOnB();
  const onA = await viewer(a, code, id(11));
  const onB = await viewer(b, code, id(12));
  onA.client.send({ v: 1, type: "ask", text: "Does it cross instances?", name: "Ada" });
  const { question } = await presenter.next("question");
  expect(question).toMatchObject({ text: "Does it cross instances?", name: "Ada", votes: 0, status: "open" });
  expect((await onB.client.next("question")).question).toEqual(question);
  expect((await onA.client.next("question")).question).toEqual(question);

  onB.client.send({ v: 1, type: "upvote", questionId: question.id });
  expect((await onA.client.next("question", (m) => m.question.votes === 1)).question.id).toBe(question.id);
  await presenter.next("question", (m) => m.question.votes === 1);
  // The up-voter again, on A: A knows it up-voted.
  const again = await viewer(a, code, id(12));
  expect(again.hello.audience?.mine?.upvoted).toEqual([question.id]);
  again.client.send({ v: 1, type: "upvote", questionId: question.id });
  expect((await again.client.next("error")).code).toBe("ALREADY_VOTED");

  presenter.send({ v: 1, type: "show", questionId: question.id });
  expect((await onA.client.next("shown")).question?.id).toBe(question.id);
  presenter.send({ v: 1, type: "moderate", questionId: question.id, action: "hide" });
  expect(await onA.client.next("questionGone")).toEqual({ v: 1, type: "questionGone", id: question.id });
  expect((await onA.client.next("shown")).question).toBeNull();
  const late = await viewer(a, code, id(13));
  expect(late.hello.audience).toMatchObject({ questions: [], shown: null });
  for (const c of [onA.client, onB.client, again.client, late.client, presenter]) c.close();
});

test("taps on A reach B's presenter summed: fewer messages than taps, the right totals on the right slide", async () => {
  const { code, presenter } = await talkPresentedOnB();
  const viewers = [await viewer(a, code, id(21)), await viewer(a, code, id(22))];
  // The slide is known on A (the presenter's state crossed the bus, or the row once A's query
  // was answered: live/bus-bridge) before anyone taps. Bounded: it once hung here to the
  // file's timeout, when A loaded the talk between B's save and B's relay of that state.
  for (const v of viewers) {
    if (v.hello.state?.page === 2) continue;
    const state = await Promise.race([v.client.next("state"), Bun.sleep(30_000).then(() => null)]);
    if (state === null) throw new Error(`A's viewer got no state within 30 s: ${JSON.stringify(v.client.messages)}`);
  }
  for (let i = 0; i < 4; i++) for (const v of viewers) v.client.send({ v: 1, type: "react", counts: { "👍": 2, "🎉": 1 } });
  const got: Array<{ page: number; counts: Record<string, number | undefined> }> = [];
  const total = (emoji: string) => got.reduce((n, m) => n + (m.counts[emoji] ?? 0), 0);
  // Bounded, and saying what came: a lost sum once hung here until the file's timeout (CI, under load).
  const deadline = Date.now() + 45_000;
  while (total("👍") < 16 || total("🎉") < 8) {
    const left = deadline - Date.now();
    const next = await Promise.race([presenter.next("reactions"), Bun.sleep(Math.max(0, left)).then(() => null)]);
    if (next === null) throw new Error(`after 45 s B's presenter had ${total("👍")} 👍 and ${total("🎉")} 🎉 of 16 and 8, in ${JSON.stringify(got)}; A's viewers got ${JSON.stringify(viewers.map((v) => v.client.messages.filter((m) => m.type !== "state")))}`);
    got.push(next);
  }
  expect([total("👍"), total("🎉")]).toEqual([16, 8]);
  expect(got.every((m) => m.page === 2)).toBe(true);
  // Eight messages of taps, a sum per tick on each side: far fewer than eight reach the presenter.
  expect(got.length).toBeLessThan(8);
  for (const c of [...viewers.map((v) => v.client), presenter]) c.close();
});

test("an instance that loads the talk after a question was asked elsewhere (not yet in the row) catches up: its viewer sees the question and can up-vote it", async () => {
  const talk = await created(a, await makeDeck({ pages: 4 }));
  const presenter = (await LiveClient.join(a, talk.code, "presenter", talk.presenterSecret)).client;
  presenter.send({ v: 1, type: "qa", open: true, moderated: false });
  await presenter.next("qa");
  const onA = await viewer(a, talk.code, id(41));
  onA.client.send({ v: 1, type: "ask", text: "Asked before B loaded the talk" });
  const { question } = await presenter.next("question");
  // A writes viewers' changes within a second: B, loading the talk now, reads a row without
  // the question, and gets it once A has answered its query.
  const onB = await viewer(b, talk.code, id(42));
  if (!onB.hello.audience?.questions.some((q) => q.id === question.id)) expect((await onB.client.next("question")).question).toEqual(question);
  onB.client.send({ v: 1, type: "upvote", questionId: question.id });
  expect((await presenter.next("question", (m) => m.question.votes === 1)).question.id).toBe(question.id);
  for (const c of [onA.client, onB.client, presenter]) c.close();
});

test("questions and votes taken on both instances are in the row whoever wrote last; both killed, a fresh instance has them all", async () => {
  const { code, presenter, secret } = await talkPresentedOnB();
  presenter.send({ v: 1, type: "pollStart", question: "Restart?", options: ["Yes", "No"], multiple: false });
  const { poll } = await presenter.next("poll");
  const onA = await viewer(a, code, id(31));
  const onB = await viewer(b, code, id(32));
  onA.client.send({ v: 1, type: "ask", text: "Asked on A" });
  onB.client.send({ v: 1, type: "ask", text: "Asked on B" });
  onA.client.send({ v: 1, type: "vote", pollId: poll.id, choices: [0] });
  onB.client.send({ v: 1, type: "vote", pollId: poll.id, choices: [1] });
  await presenter.next("pollResults", (m) => m.voters === 2);

  // Each instance writes its whole copy within a second of its last change: the row ends with both.
  const sql = new Bun.SQL(databaseUrl, { max: 1 });
  try {
    await eventually(async () => {
      const [row] = (await sql`SELECT audience_json FROM live_sessions WHERE code = ${code}`) as Array<{ audience_json: string | null }>;
      const saved = row?.audience_json ? (JSON.parse(row.audience_json) as { questions: Array<{ question: { text: string } }>; votes: unknown[] }) : null;
      return saved && saved.questions.length === 2 && saved.votes.length === 2 ? saved : null;
    }, "both instances' questions and votes in the row");
  } finally {
    await sql.close();
  }

  for (const proc of procs) proc.kill(9);
  await Promise.all(procs.map((p) => p.exited));
  const fresh = await instance();
  const back = await viewer(fresh.url, code, id(31));
  expect(back.hello.audience).toMatchObject({ qa: { open: true }, poll: { id: poll.id, status: "open" }, mine: { voted: [poll.id] } });
  expect(back.hello.audience?.questions.map((q) => q.text).sort()).toEqual(["Asked on A", "Asked on B"]);
  const again = await LiveClient.join(fresh.url, code, "presenter", secret);
  expect(again.hello.audience?.results).toEqual({ pollId: poll.id, counts: [1, 1], voters: 2 });
  again.client.close();
  back.client.close();
});
