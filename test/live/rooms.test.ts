/**
 * Against a real server on 127.0.0.1, with clients on other loopback addresses (127.0.0.2, …:
 * each its own network as the server counts them, by the peer address, no proxy header):
 * - no two addresses take a talk's seats or the instance's sockets — each address's share
 *   shrinks as the room fills (src/live/fair-share.ts), so a third network still gets in;
 * - one guesser never locks out a venue — wrong secrets block that address from that talk's
 *   secret doors only, and an address blocked for guessing codes keeps the talks it opened,
 *   while viewers behind the same address keep joining (src/live/join-guard.ts).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { LIVE_JOIN_FAILURES_PER_MINUTE } from "../../src/live/join-guard.ts";
import { newLiveCode } from "../../src/live/service.ts";
import { makeDeck } from "../fixtures/pdfs.ts";
import { LoopbackWebSocket } from "../helpers/loopback-websocket.ts";
import type { RawResponse } from "../helpers/raw-http.ts";
import { type Created, created, httpFrom, LiveClient, type LiveServer, startLiveServer } from "./helpers.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (2 s).
setDefaultTimeout(30_000);

let deck: Uint8Array;
beforeAll(async () => {
  deck = await makeDeck({ pages: 2 });
});


/** Viewers from `from` joining `code` until one is refused: those who got in, and the refusal. */
async function fillFrom(server: LiveServer, code: string, from: string, atMost: number): Promise<{ joined: LiveClient[]; refusal: { code?: string; message?: string } | null; closeCode: number | null }> {
  const joined: LiveClient[] = [];
  for (let i = 0; i < atMost; i++) {
    const { client, first } = await LiveClient.joinFrom(server.url, code, from);
    if (first.type === "hello") {
      joined.push(client);
      continue;
    }
    return { joined, refusal: first as never, closeCode: (await client.closed).code };
  }
  return { joined, refusal: null, closeCode: null };
}

describe("no two addresses take a talk's seats", () => {
  let server: LiveServer;
  beforeAll(async () => {
    server = await startLiveServer({ maxViewers: 100 });
  });
  afterAll(async () => {
    await server.stop();
  });

  test("of 100 seats one network gets 45 and a second 22, each told why (FULL, 4503); a third network still joins and the talk is not full", async () => {
    const talk = await created(server.url, deck);
    const first = await fillFrom(server, talk.code, "127.0.0.2", 60);
    const second = await fillFrom(server, talk.code, "127.0.0.3", 60);
    expect([first.joined.length, second.joined.length]).toEqual([45, 22]);
    for (const { refusal, closeCode } of [first, second]) {
      expect(refusal).toMatchObject({ type: "error", code: "FULL" });
      expect(refusal!.message).toContain("its share while the talk fills");
      expect(closeCode).toBe(4503);
    }
    // The info route does not call the talk full (it has 33 seats left), and a third network joins.
    const info = await httpFrom(server.url, "127.0.0.4", "GET", `/api/live/${talk.code}`);
    expect(info.status).toBe(200);
    expect(JSON.parse(info.body).counts.viewers).toBe(67);
    const third = await LiveClient.joinFrom(server.url, talk.code, "127.0.0.4");
    expect(third.first.type).toBe("hello");
    const refusals = server.logs.map((line) => JSON.parse(line)).filter((line) => line.event === "live_refused" && line.reason === "FULL");
    expect(refusals.map((line) => [line.address, line.held, line.limit])).toEqual([
      ["127.0.0.2", 45, "share"],
      ["127.0.0.3", 22, "share"],
    ]);
    // The share is the talk as it is now: with 68 viewers the first network may hold fewer
    // than 45 — a seat it gives back goes to another network, not to it again.
    first.joined.pop()!.close();
    await third.client.next("counts", (m) => m.counts.viewers === 67);
    const again = await LiveClient.joinFrom(server.url, talk.code, "127.0.0.2");
    expect(again.first).toMatchObject({ type: "error", code: "FULL" });
    const fourth = await LiveClient.joinFrom(server.url, talk.code, "127.0.0.8");
    expect(fourth.first.type).toBe("hello");
    for (const c of [...first.joined, ...second.joined, third.client, fourth.client]) c.close();
  });
});

describe("no two addresses take the instance's sockets", () => {
  let server: LiveServer;
  beforeAll(async () => {
    server = await startLiveServer({ maxLiveSockets: 60 });
  });
  afterAll(async () => {
    await server.stop();
  });

  test("of 60 sockets over three talks one network gets 27 and a second 13 (429 TOO_MANY_LIVE_SOCKETS at the upgrade); a third network still connects and watches", async () => {
    const talks = await Promise.all([1, 2, 3].map(() => created(server.url, deck)));
    const held: Record<string, LiveClient[]> = {};
    const refusals: Record<string, RawResponse | null> = {};
    for (const from of ["127.0.0.5", "127.0.0.6"]) {
      held[from] = [];
      refusals[from] = null;
      for (let i = 0; i < 40 && refusals[from] === null; i++) {
        const ws = new LoopbackWebSocket(`${server.url.replace(/^http/, "ws")}/api/live/${talks[i % 3]!.code}/ws`, from);
        const client = new LiveClient(ws as unknown as WebSocket);
        try {
          await client.opened;
        } catch {
          refusals[from] = ws.refusal;
          continue;
        }
        client.send({ v: 1, type: "join", role: "viewer" });
        expect((await client.first()).type).toBe("hello");
        held[from]!.push(client);
      }
    }
    expect([held["127.0.0.5"]!.length, held["127.0.0.6"]!.length]).toEqual([27, 13]);
    for (const refusal of Object.values(refusals)) {
      expect(refusal!.status).toBe(429);
      expect(Number(refusal!.headers["retry-after"])).toBeGreaterThan(0);
      expect(JSON.parse(refusal!.body)).toMatchObject({ code: "TOO_MANY_LIVE_SOCKETS", status: 429 });
    }
    const third = await LiveClient.joinFrom(server.url, talks[0]!.code, "127.0.0.7");
    expect(third.first.type).toBe("hello");
    for (const c of [...Object.values(held).flat(), third.client]) c.close();
  });
});

describe("one guesser never locks out a venue", () => {
  let server: LiveServer;
  let talk: Created & { controlSecret: string };
  let other: Created & { controlSecret: string };
  beforeAll(async () => {
    server = await startLiveServer();
    talk = await created(server.url, deck);
    other = await created(server.url, deck);
  });
  afterAll(async () => {
    await server.stop();
  });

  test("past 30 wrong remote secrets from the venue's address, that address still watches the talk (joins, info, deck) and only the talk's secret doors are shut to it, for a minute", async () => {
    const venue = "127.0.0.20";
    const watching = await Promise.all([1, 2, 3].map(() => LiveClient.joinFrom(server.url, talk.code, venue)));
    for (let i = 0; i <= LIVE_JOIN_FAILURES_PER_MINUTE; i++) {
      const { client, first } = await LiveClient.joinFrom(server.url, talk.code, venue, "control", `guess-${i}`);
      expect(first).toMatchObject({ type: "error", code: "AUTH_FAILED" });
      expect((await client.closed).code).toBe(4403);
    }
    // The venue keeps watching: a new viewer, the info route and the deck.
    const late = await LiveClient.joinFrom(server.url, talk.code, venue);
    expect(late.first.type).toBe("hello");
    expect((await httpFrom(server.url, venue, "GET", `/api/live/${talk.code}`)).status).toBe(200);
    expect((await httpFrom(server.url, venue, "GET", `/api/live/${talk.code}/deck`)).status).toBe(200);
    // Its secret doors of this talk are shut, the right secret included.
    const remote = await LiveClient.joinFrom(server.url, talk.code, venue, "control", talk.controlSecret);
    expect(remote.first).toMatchObject({ type: "error", code: "RATE_LIMITED" });
    expect((await remote.client.closed).code).toBe(4429);
    const rotate = await httpFrom(server.url, venue, "POST", `/api/live/${talk.code}/rotate`, { "x-presenter-secret": talk.presenterSecret });
    expect(rotate.status).toBe(429);
    expect(Number(rotate.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(rotate.headers["retry-after"])).toBeLessThanOrEqual(60);
    expect(JSON.parse(rotate.body)).toMatchObject({ code: "RATE_LIMITED" });
    // Not another network's, and not another talk's.
    expect((await LiveClient.joinFrom(server.url, talk.code, "127.0.0.21", "control", talk.controlSecret)).first.type).toBe("hello");
    expect((await LiveClient.joinFrom(server.url, other.code, venue, "control", other.controlSecret)).first.type).toBe("hello");
    // Nobody watching was closed.
    for (const w of watching) expect(w.client.ws.readyState).toBe(WebSocket.OPEN);
    expect(server.logs.join("\n")).not.toContain("guess-");
    for (const w of [...watching, late]) w.client.close();
  });

  test("past 30 wrong presenter secrets at POST …/end from one address, that address gets 429 at end and rotate of that talk, still joins it as a viewer; the presenter elsewhere ends it", async () => {
    const own = await created(server.url, deck);
    const guesser = "127.0.0.22";
    for (let i = 0; i <= LIVE_JOIN_FAILURES_PER_MINUTE; i++) {
      expect((await httpFrom(server.url, guesser, "POST", `/api/live/${own.code}/end`, { "x-presenter-secret": `guess-${i}` })).status).toBe(403);
    }
    expect((await httpFrom(server.url, guesser, "POST", `/api/live/${own.code}/end`, { "x-presenter-secret": own.presenterSecret })).status).toBe(429);
    expect((await httpFrom(server.url, guesser, "POST", `/api/live/${own.code}/rotate`, { "x-presenter-secret": own.presenterSecret })).status).toBe(429);
    expect((await LiveClient.joinFrom(server.url, own.code, guesser)).first.type).toBe("hello");
    expect((await httpFrom(server.url, "127.0.0.23", "POST", `/api/live/${own.code}/end`, { "x-presenter-secret": own.presenterSecret })).status).toBe(200);
  });

  test("an address blocked for guessing codes keeps the talks it opened (viewers behind it join them) and is refused every other code alike, known or not", async () => {
    const venue = "127.0.0.24";
    const watching = await LiveClient.joinFrom(server.url, talk.code, venue);
    expect(watching.first.type).toBe("hello");
    const statuses: number[] = [];
    for (let i = 0; i <= LIVE_JOIN_FAILURES_PER_MINUTE; i++) statuses.push((await httpFrom(server.url, venue, "GET", `/api/live/${newLiveCode()}`)).status);
    expect(statuses).toEqual(new Array(LIVE_JOIN_FAILURES_PER_MINUTE + 1).fill(404));
    // Blocked now: an unknown code and a talk it never opened get the same 429 (no oracle)…
    const unknown = await httpFrom(server.url, venue, "GET", `/api/live/${newLiveCode()}`);
    const neverOpened = await httpFrom(server.url, venue, "GET", `/api/live/${other.code}`);
    expect([unknown.status, neverOpened.status]).toEqual([429, 429]);
    expect(JSON.parse(neverOpened.body)).toMatchObject({ code: "RATE_LIMITED" });
    expect(Number(neverOpened.headers["retry-after"])).toBeGreaterThan(0);
    // …while the talk it opened stays open to it: the info route and new viewers' joins.
    expect((await httpFrom(server.url, venue, "GET", `/api/live/${talk.code}`)).status).toBe(200);
    expect((await LiveClient.joinFrom(server.url, talk.code, venue)).first.type).toBe("hello");
    // Another network is not blocked.
    expect((await httpFrom(server.url, "127.0.0.25", "GET", `/api/live/${other.code}`)).status).toBe(200);
    watching.client.close();
  });
});
