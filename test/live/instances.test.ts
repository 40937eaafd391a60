/**
 * One talk served by two instances that share PostgreSQL (rows, LISTEN/NOTIFY as the LiveBus)
 * and an S3-compatible bucket (the deck): each a real server process. The presenter is on
 * instance A, a viewer and a remote on instance B: state reaches B's viewer (and B's late
 * joiners get it in hello), B's viewer is not "paused" while A holds the presenter, the
 * remote's command reaches the presenter across instances, and ending on B ends A's sockets.
 * Rotating or ending on an instance that holds none of the talk's sockets reaches the other:
 * its old remotes are cut off (the new link works there), its sockets get ended and 4410. A
 * notes file sent with the deck to A is the remote's on B (kept in the shared rows), and gone
 * on both once B ends the talk. An address blocked for guessing codes keeps, on B, the talk it
 * opened on A (a venue's viewer reconnecting through the other instance), and is refused on
 * both a talk it never opened.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { makeDeck } from "../fixtures/pdfs.ts";
import { type PostgresServer, type S3Server, startPostgres, startS3 } from "../helpers/engines.ts";
import { pdfpcFile } from "../http/notes-fixtures.ts";
import { LIVE_JOIN_FAILURES_PER_MINUTE } from "../../src/live/join-guard.ts";
import { newLiveCode } from "../../src/live/service.ts";
import { created, httpFrom, LiveClient, sampleState, startInstance } from "./helpers.ts";

// The timeout of each test and hook here: ~10× PostgreSQL's, S3's and two servers' start in beforeAll on a loaded 2-vCPU machine (9 s), and
// above the starts' own bounds together (PostgreSQL 60 s, S3 45 s, a server 45 s: test/helpers), which yielding to the browser lanes may near.
setDefaultTimeout(180_000);

let pg: PostgresServer;
let s3: S3Server;
const procs: Subprocess[] = [];
const dirs: string[] = [];

async function instance(databaseUrl: string): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), "deckhand-live-instance-"));
  dirs.push(dataDir);
  const { url, proc } = await startInstance({ databaseUrl, env: s3.env, dataDir });
  procs.push(proc);
  return url;
}

let a: string;
let b: string;
beforeAll(async () => {
  [pg, s3] = await Promise.all([startPostgres(), startS3()]);
  const url = await pg.createDatabase("live_instances");
  a = await instance(url);
  b = await instance(url);
});
afterAll(async () => {
  for (const proc of procs) proc.kill(9);
  await Promise.all(procs.map((p) => p.exited));
  await Promise.all([pg?.stop(), s3?.stop()]);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test("a talk across two instances: fan-out, presence, remote commands and the end cross the bus", async () => {
  const talk = await created(a, await makeDeck({ pages: 4 }));
  // The deck is in the bucket: either instance serves it.
  expect((await fetch(`${b}/api/live/${talk.code}/deck`)).status).toBe(200);
  const presenter = await LiveClient.join(a, talk.code, "presenter", talk.presenterSecret);
  const viewer = await LiveClient.join(b, talk.code, "viewer");
  // B learns of A's presenter from the bus (its answer to B's query), if not already.
  if (viewer.hello.paused) await viewer.client.next("resumed");

  presenter.client.send({ v: 1, type: "state", state: sampleState(3) });
  const state = await viewer.client.next("state");
  expect(state.state.page).toBe(3);
  const late = await LiveClient.join(b, talk.code, "viewer");
  expect(late.hello.state?.page).toBe(3);
  expect(late.hello.seq).toBe(state.seq);
  expect(late.hello.paused).toBe(false);

  const remote = await LiveClient.join(b, talk.code, "control", talk.controlSecret);
  remote.client.send({ v: 1, type: "command", action: "next" });
  expect(await presenter.client.next("command")).toEqual({ v: 1, type: "command", action: "next" });

  const end = await fetch(`${b}/api/live/${talk.code}/end`, { method: "POST", headers: { "x-presenter-secret": talk.presenterSecret } });
  expect(end.status).toBe(200);
  expect(await presenter.client.next("ended")).toEqual({ v: 1, type: "ended", reason: "ended" });
  expect((await presenter.client.closed).code).toBe(4410);
  expect((await viewer.client.next("ended")).reason).toBe("ended");
  expect((await fetch(`${a}/api/live/${talk.code}`)).status).toBe(410);
  expect((await fetch(`${a}/api/live/${talk.code}/deck`)).status).toBe(410);
});

test("rotating through an instance that holds none of the talk's sockets cuts off the remotes on the other, and the new link works there", async () => {
  const talk = await created(a, await makeDeck({ pages: 3 }));
  const presenter = await LiveClient.join(a, talk.code, "presenter", talk.presenterSecret);
  const old = await LiveClient.join(a, talk.code, "control", talk.controlSecret);
  // B has never loaded this talk: no socket of it is on B.
  const res = await fetch(`${b}/api/live/${talk.code}/rotate`, { method: "POST", headers: { "x-presenter-secret": talk.presenterSecret } });
  expect(res.status).toBe(200);
  const fresh = new URL(((await res.json()) as { controlUrl: string }).controlUrl).hash.slice(1);
  expect((await old.client.next("error")).code).toBe("CONTROL_ROTATED");
  expect((await old.client.closed).code).toBe(4403);
  const stale = await LiveClient.connect(a, talk.code);
  stale.send({ v: 1, type: "join", role: "control", secret: talk.controlSecret });
  expect((await stale.next("error")).code).toBe("AUTH_FAILED");
  const remote = await LiveClient.join(a, talk.code, "control", fresh);
  expect(remote.hello.role).toBe("control");
  remote.client.send({ v: 1, type: "command", action: "prev" });
  expect(await presenter.client.next("command")).toEqual({ v: 1, type: "command", action: "prev" });
  for (const c of [presenter.client, remote.client]) c.close();
});

test("ending through an instance that holds none of the talk's sockets ends them on the other: ended, then 4410", async () => {
  const talk = await created(a, await makeDeck({ pages: 3 }));
  const presenter = await LiveClient.join(a, talk.code, "presenter", talk.presenterSecret);
  const viewer = await LiveClient.join(a, talk.code, "viewer");
  const remote = await LiveClient.join(a, talk.code, "control", talk.controlSecret);
  const end = await fetch(`${b}/api/live/${talk.code}/end`, { method: "POST", headers: { "x-presenter-secret": talk.presenterSecret } });
  expect(end.status).toBe(200);
  for (const client of [presenter.client, viewer.client, remote.client]) {
    expect(await client.next("ended")).toEqual({ v: 1, type: "ended", reason: "ended" });
    expect((await client.closed).code).toBe(4410);
  }
  expect((await fetch(`${a}/api/live/${talk.code}/deck`)).status).toBe(410);
});

test("a notes file sent with the deck to one instance is served to the remote by the other, and gone from both once the talk ends", async () => {
  const form = new FormData();
  form.append("file", new Blob([(await makeDeck({ pages: 3 })) as BlobPart], { type: "application/pdf" }), "talk.pdf");
  const notes = pdfpcFile({ 2: "Said on slide two" });
  form.append("notes", new Blob([notes as BlobPart], { type: "application/json" }), "talk.pdfpc");
  const res = await fetch(`${a}/api/live`, { method: "POST", body: form });
  expect(res.status).toBe(201);
  const talk = (await res.json()) as { code: string; controlUrl: string; presenterSecret: string };
  const secret = { "x-control-secret": new URL(talk.controlUrl).hash.slice(1) };
  expect(await (await fetch(`${b}/api/live/${talk.code}`)).json()).toMatchObject({ notes: true });
  const served = await fetch(`${b}/api/live/${talk.code}/notes`, { headers: secret });
  expect(served.status).toBe(200);
  expect((JSON.parse(await served.text()) as { pages: Array<{ idx: number; note?: string }> }).pages.filter((p) => p.note).map((p) => [p.idx, p.note])).toEqual([[1, "Said on slide two"]]);
  expect((await fetch(`${b}/api/live/${talk.code}/end`, { method: "POST", headers: { "x-presenter-secret": talk.presenterSecret } })).status).toBe(200);
  for (const base of [a, b]) expect((await fetch(`${base}/api/live/${talk.code}/notes`, { headers: secret })).status).toBe(410);
});

test("an address blocked for guessing codes keeps the talk it opened through one instance on the other too; a talk it never opened waits out the block on both", async () => {
  const deck = await makeDeck({ pages: 2 });
  const talk = await created(a, deck);
  const other = await created(a, deck);
  const venue = "127.0.0.40";
  // A viewer at the venue opens the talk through A.
  expect((await httpFrom(a, venue, "GET", `/api/live/${talk.code}`)).status).toBe(200);
  // Someone on the venue's network guesses codes, through A and then B: the count is shared,
  // and each instance blocks the address at its first refused guess.
  for (let i = 0; i <= LIVE_JOIN_FAILURES_PER_MINUTE; i++) expect((await httpFrom(a, venue, "GET", `/api/live/${newLiveCode()}`)).status).toBe(404);
  expect((await httpFrom(b, venue, "GET", `/api/live/${newLiveCode()}`)).status).toBe(404);
  for (const base of [a, b]) expect((await httpFrom(base, venue, "GET", `/api/live/${newLiveCode()}`)).status).toBe(429);
  // B never saw the venue open the talk, yet keeps it open to the venue: its info, its deck, a viewer's join.
  expect((await httpFrom(b, venue, "GET", `/api/live/${talk.code}`)).status).toBe(200);
  expect((await httpFrom(b, venue, "GET", `/api/live/${talk.code}/deck`)).status).toBe(200);
  const viewer = await LiveClient.joinFrom(b, talk.code, venue);
  expect(viewer.first.type).toBe("hello");
  // A talk the venue never opened is refused like an unknown code, on both (no oracle).
  for (const base of [a, b]) {
    const refused = await httpFrom(base, venue, "GET", `/api/live/${other.code}`);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ code: "RATE_LIMITED" });
  }
  // Another network is not blocked.
  expect((await httpFrom(b, "127.0.0.41", "GET", `/api/live/${other.code}`)).status).toBe(200);
  viewer.client.close();
});
