/**
 * The live WebSocket against a real server on 127.0.0.1: join and hello, fan-out with seq,
 * late joiners, every role violation, secrets, rotation, pause/resume, the viewer limit,
 * the Origin check, message limits, and the end of a session (bytes gone from disk), also
 * when the grace timer finds the row already ended elsewhere, and the sweep's use of the
 * presenter's "last seen" time.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { makeDeck } from "../fixtures/pdfs.ts";
import { type Created, created, LiveClient, type LiveServer, sampleState, startLiveServer } from "./helpers.ts";
import { ManualScheduler } from "./scheduler.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (6.7 s).
setDefaultTimeout(90_000);

let server: LiveServer;
let deck: Uint8Array;

beforeAll(async () => {
  deck = await makeDeck({ pages: 5 });
  server = await startLiveServer({ maxViewers: 3, livePresenterGraceMs: 60_000 });
});
afterAll(async () => {
  await server.stop();
});

const deckFile = (code: string) => join(server.dataDir, "staged", `live-${code}.pdf`);

describe("joining", () => {
  test("a viewer gets hello with the session, an empty snapshot and paused before the presenter comes", async () => {
    const talk = await created(server.url, deck);
    const { client, hello } = await LiveClient.join(server.url, talk.code, "viewer");
    expect(hello).toMatchObject({ v: 1, type: "hello", role: "viewer", seq: 0, state: null, paused: true });
    expect(hello.session).toMatchObject({ code: talk.code, sha256: talk.sha256, bytes: talk.bytes, totalSlides: 5, allowDownload: false });
    client.close();
  });

  test("the presenter's state reaches viewers with increasing seq, and a late joiner gets the snapshot at once", async () => {
    const talk = await created(server.url, deck);
    const viewer = await LiveClient.join(server.url, talk.code, "viewer");
    const presenter = await LiveClient.join(server.url, talk.code, "presenter", talk.presenterSecret);
    expect(presenter.hello.role).toBe("presenter");
    expect(await viewer.client.next("resumed")).toEqual({ v: 1, type: "resumed" });
    presenter.client.send({ v: 1, type: "state", state: sampleState(2) });
    const first = await viewer.client.next("state");
    expect(first.state.page).toBe(2);
    presenter.client.send({ v: 1, type: "pointer", pointer: { x: 10, y: 20, r: 7 } });
    const pointer = await viewer.client.next("pointer");
    expect(pointer.seq).toBeGreaterThan(first.seq);
    const stroke = { id: "s1", color: "#e11d48", width: 4, points: [1, 2, 0.5, 3, 4, 0.5] };
    presenter.client.send({ v: 1, type: "ink", ink: { op: "add", page: 2, stroke } });
    const ink = await viewer.client.next("ink");
    expect(ink.seq).toBeGreaterThan(pointer.seq);
    const late = await LiveClient.join(server.url, talk.code, "viewer");
    expect(late.hello.paused).toBe(false);
    expect(late.hello.seq).toBe(ink.seq);
    expect(late.hello.state?.page).toBe(2);
    expect(late.hello.state?.overlays.pointer).toEqual({ x: 10, y: 20, r: 7 });
    expect(late.hello.state?.ink).toEqual([stroke]);
    for (const c of [viewer.client, presenter.client, late.client]) c.close();
  });

  test("a slide's ink is bounded: past 400,000 numbers the stroke is refused (TOO_LARGE), nothing reaches viewers, the socket stays", async () => {
    const talk = await created(server.url, deck);
    const presenter = await LiveClient.join(server.url, talk.code, "presenter", talk.presenterSecret);
    const viewer = await LiveClient.join(server.url, talk.code, "viewer");
    presenter.client.send({ v: 1, type: "state", state: sampleState(2) });
    await viewer.client.next("state");
    const points = Array.from({ length: 12_000 }, (_, i) => i % 7);
    // 33 strokes of 12,000 numbers fit (396,000); the 34th does not.
    for (let i = 0; i < 33; i++) {
      presenter.client.send({ v: 1, type: "ink", ink: { op: "add", page: 2, stroke: { id: `s${i}`, color: "#e11d48", width: 4, points } } });
      await viewer.client.next("ink");
    }
    presenter.client.send({ v: 1, type: "ink", ink: { op: "add", page: 2, stroke: { id: "s33", color: "#e11d48", width: 4, points } } });
    const refused = await presenter.client.next("error");
    expect(refused.code).toBe("TOO_LARGE");
    expect(refused.message).toContain("clear the slide's ink");
    // Clearing works on the same socket, and viewers get the clear, not the refused stroke.
    presenter.client.send({ v: 1, type: "ink", ink: { op: "clear", page: 2 } });
    const cleared = await viewer.client.next("ink");
    expect(cleared.ink).toEqual({ op: "clear", page: 2 });
    const late = await LiveClient.join(server.url, talk.code, "viewer");
    expect(late.hello.state?.ink).toEqual([]);
    for (const c of [viewer.client, presenter.client, late.client]) c.close();
  });

  test("counts tell the presenter how many viewers and remotes are connected", async () => {
    const talk = await created(server.url, deck);
    const presenter = await LiveClient.join(server.url, talk.code, "presenter", talk.presenterSecret);
    const viewer = await LiveClient.join(server.url, talk.code, "viewer");
    const remote = await LiveClient.join(server.url, talk.code, "control", talk.controlSecret);
    let counts = await presenter.client.next("counts");
    while (counts.counts.viewers !== 1 || counts.counts.controls !== 1) counts = await presenter.client.next("counts");
    expect(counts.counts).toEqual({ viewers: 1, controls: 1, presenter: true });
    for (const c of [viewer.client, presenter.client, remote.client]) c.close();
  });
});

describe("roles", () => {
  let talk: Created & { controlSecret: string };
  beforeAll(async () => {
    talk = await created(server.url, deck);
  });

  test("a viewer that sends state or a command is refused, nothing moves, and the log names no secret", async () => {
    const presenter = await LiveClient.join(server.url, talk.code, "presenter", talk.presenterSecret);
    presenter.client.send({ v: 1, type: "state", state: sampleState(1) });
    const viewer = await LiveClient.join(server.url, talk.code, "viewer");
    viewer.client.send({ v: 1, type: "state", state: sampleState(4) });
    expect(await viewer.client.next("error")).toMatchObject({ code: "NOT_ALLOWED" });
    viewer.client.send({ v: 1, type: "command", action: "next" });
    expect(await viewer.client.next("error")).toMatchObject({ code: "NOT_ALLOWED" });
    // A later joiner still sees page 1: the viewer moved nothing.
    const other = await LiveClient.join(server.url, talk.code, "viewer");
    expect(other.hello.state?.page).toBe(1);
    expect(presenter.client.messages.some((m) => m.type === "command")).toBe(false);
    const refusals = server.logs.filter((line) => line.includes('"live_refused"') && line.includes(talk.code));
    expect(refusals.length).toBeGreaterThanOrEqual(2);
    expect(refusals.some((line) => line.includes('"role":"viewer"'))).toBe(true);
    for (const line of server.logs) {
      expect(line).not.toContain(talk.presenterSecret);
      expect(line).not.toContain(talk.controlSecret);
    }
    for (const c of [viewer.client, presenter.client, other.client]) c.close();
  });

  test("a remote's command reaches the presenter; a remote cannot send state", async () => {
    const presenter = await LiveClient.join(server.url, talk.code, "presenter", talk.presenterSecret);
    const remote = await LiveClient.join(server.url, talk.code, "control", talk.controlSecret);
    remote.client.send({ v: 1, type: "command", action: "goto", page: 3 });
    expect(await presenter.client.next("command")).toEqual({ v: 1, type: "command", action: "goto", page: 3 });
    remote.client.send({ v: 1, type: "state", state: sampleState(5) });
    expect(await remote.client.next("error")).toMatchObject({ code: "NOT_ALLOWED" });
    remote.client.send({ v: 1, type: "command", action: "goto" });
    expect(await remote.client.next("error")).toMatchObject({ code: "BAD_MESSAGE" });
    presenter.client.close();
    remote.client.close();
  });

  test("a wrong control or presenter secret gets AUTH_FAILED and close 4403, logged without the secret", async () => {
    for (const role of ["control", "presenter"] as const) {
      const client = await LiveClient.connect(server.url, talk.code);
      client.send({ v: 1, type: "join", role, secret: "not-the-secret-0123456789" });
      expect(await client.next("error")).toMatchObject({ code: "AUTH_FAILED" });
      expect(await client.closed).toEqual({ code: 4403, reason: "AUTH_FAILED" });
    }
    const failures = server.logs.filter((line) => line.includes('"live_auth_failed"'));
    expect(failures.length).toBeGreaterThanOrEqual(2);
    expect(failures.join("\n")).not.toContain("not-the-secret");
  });

  test("a control join without any secret is refused too", async () => {
    const client = await LiveClient.connect(server.url, talk.code);
    client.send({ v: 1, type: "join", role: "control" });
    expect(await client.next("error")).toMatchObject({ code: "AUTH_FAILED" });
    expect((await client.closed).code).toBe(4403);
  });

  test("rotating the control secret cuts off old remotes, refuses the old secret and admits the new one", async () => {
    const own = await created(server.url, deck);
    const remote = await LiveClient.join(server.url, own.code, "control", own.controlSecret);
    const res = await fetch(`${server.url}/api/live/${own.code}/rotate`, { method: "POST", headers: { "x-presenter-secret": own.presenterSecret } });
    expect(res.status).toBe(200);
    const { controlUrl } = (await res.json()) as { controlUrl: string };
    const fresh = new URL(controlUrl).hash.slice(1);
    expect(fresh).not.toBe(own.controlSecret);
    expect(await remote.client.next("error")).toMatchObject({ code: "CONTROL_ROTATED" });
    expect((await remote.client.closed).code).toBe(4403);
    const stale = await LiveClient.connect(server.url, own.code);
    stale.send({ v: 1, type: "join", role: "control", secret: own.controlSecret });
    expect((await stale.closed).code).toBe(4403);
    const renewed = await LiveClient.join(server.url, own.code, "control", fresh);
    expect(renewed.hello.role).toBe("control");
    renewed.client.close();
  });

  test("a second presenter window takes over; the first is told REPLACED", async () => {
    const own = await created(server.url, deck);
    const first = await LiveClient.join(server.url, own.code, "presenter", own.presenterSecret);
    const second = await LiveClient.join(server.url, own.code, "presenter", own.presenterSecret);
    expect(await first.client.next("error")).toMatchObject({ code: "REPLACED" });
    expect((await first.client.closed).code).toBe(4409);
    expect(second.hello.paused).toBe(false);
    second.client.close();
  });
});

describe("messages", () => {
  test("a message before join, malformed JSON, a schema violation and an oversized message each get their error", async () => {
    const talk = await created(server.url, deck);
    const client = await LiveClient.connect(server.url, talk.code);
    client.send({ v: 1, type: "state", state: sampleState(1) });
    expect(await client.next("error")).toMatchObject({ code: "NOT_ALLOWED" });
    const { client: viewer } = await LiveClient.join(server.url, talk.code, "viewer");
    viewer.send("{not json");
    expect(await viewer.next("error")).toMatchObject({ code: "BAD_MESSAGE" });
    const presenter = await LiveClient.join(server.url, talk.code, "presenter", talk.presenterSecret);
    presenter.client.send({ v: 1, type: "state", state: { ...sampleState(1), page: 0 } });
    expect(await presenter.client.next("error")).toMatchObject({ code: "BAD_MESSAGE" });
    presenter.client.send({ v: 2, type: "ping" });
    expect(await presenter.client.next("error")).toMatchObject({ code: "BAD_MESSAGE" });
    presenter.client.send(JSON.stringify({ v: 1, type: "ping", pad: "x".repeat(70 * 1024) }));
    expect(await presenter.client.next("error")).toMatchObject({ code: "TOO_LARGE" });
    presenter.client.send({ v: 1, type: "ping", t: 5 });
    expect(await presenter.client.next("pong")).toMatchObject({ t: 5 });
    for (const c of [client, viewer, presenter.client]) c.close();
  });

  test("a frame over 1 MiB is not answered TOO_LARGE: Bun closes the socket (1009)", async () => {
    const talk = await created(server.url, deck);
    const { client } = await LiveClient.join(server.url, talk.code, "viewer");
    client.send("x".repeat(1024 * 1024 + 1));
    expect((await client.closed).code).toBe(1009);
    expect(client.messages.filter((m) => m.type === "error")).toEqual([]);
  });

  test("a viewer flooding messages is rate-limited, then closed with 4429", async () => {
    const talk = await created(server.url, deck);
    const { client } = await LiveClient.join(server.url, talk.code, "viewer");
    for (let i = 0; i < 60; i++) client.send({ v: 1, type: "ping" });
    expect(await client.next("error")).toMatchObject({ code: "RATE_LIMITED" });
    expect((await client.closed).code).toBe(4429);
  });
});

describe("limits and origins", () => {
  test("past --max-viewers a viewer gets FULL (close 4503) and the info route answers 503 LIVE_FULL", async () => {
    const talk = await created(server.url, deck);
    const viewers = await Promise.all([1, 2, 3].map(() => LiveClient.join(server.url, talk.code, "viewer")));
    const extra = await LiveClient.connect(server.url, talk.code);
    extra.send({ v: 1, type: "join", role: "viewer" });
    expect(await extra.next("error")).toMatchObject({ code: "FULL" });
    expect((await extra.closed).code).toBe(4503);
    const info = await fetch(`${server.url}/api/live/${talk.code}`);
    expect(info.status).toBe(503);
    expect(await info.json()).toMatchObject({ code: "LIVE_FULL", status: 503 });
    // A full talk is the server doing its job: one info line, no error and no stack.
    const lines = server.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => line.code === "LIVE_FULL")).toEqual([{ time: expect.any(String), level: "info", event: "request_refused", requestId: expect.any(String), path: `/api/live/${talk.code}`, code: "LIVE_FULL" }]);
    expect(lines.filter((line) => line.level === "error" || "stack" in line)).toEqual([]);
    // The presenter and remotes are not viewers: they still get in.
    const presenter = await LiveClient.join(server.url, talk.code, "presenter", talk.presenterSecret);
    expect(presenter.hello.role).toBe("presenter");
    for (const v of viewers) v.client.close();
    presenter.client.close();
  });

  test("a WebSocket from a foreign Origin is refused with a 403 problem before any socket exists", async () => {
    const talk = await created(server.url, deck);
    const res = await fetch(`${server.url}/api/live/${talk.code}/ws`, {
      headers: { upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13", origin: "http://evil.example" },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: "ORIGIN_NOT_ALLOWED" });
    await expect(LiveClient.connect(server.url, talk.code, { origin: "http://evil.example" })).rejects.toThrow();
    // The page's own origin (this host) and loopback pages are fine.
    const own = await LiveClient.connect(server.url, talk.code, { origin: server.url });
    own.close();
  });

  test("an unknown code is a 404 problem at the upgrade; an ended one a 410", async () => {
    const res = await fetch(`${server.url}/api/live/ZZZZZZ/ws`, { headers: { upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13" } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "LIVE_NOT_FOUND" });
    const talk = await created(server.url, deck);
    await fetch(`${server.url}/api/live/${talk.code}/end`, { method: "POST", headers: { "x-presenter-secret": talk.presenterSecret } });
    const ended = await fetch(`${server.url}/api/live/${talk.code}/ws`, { headers: { upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13" } });
    expect(ended.status).toBe(410);
    expect(await ended.json()).toMatchObject({ code: "LIVE_ENDED" });
  });
});

describe("lifecycle", () => {
  test("presenter gone → viewers get paused; back → resumed", async () => {
    const talk = await created(server.url, deck);
    const presenter = await LiveClient.join(server.url, talk.code, "presenter", talk.presenterSecret);
    const viewer = await LiveClient.join(server.url, talk.code, "viewer");
    presenter.client.close();
    const paused = await viewer.client.next("paused");
    expect(Date.parse(paused.until)).toBeGreaterThan(Date.now());
    const back = await LiveClient.join(server.url, talk.code, "presenter", talk.presenterSecret);
    expect(await viewer.client.next("resumed")).toEqual({ v: 1, type: "resumed" });
    back.client.close();
    viewer.client.close();
  });

  test("End live: everyone gets ended and close 4410, the deck file is deleted, the code answers 410", async () => {
    const talk = await created(server.url, deck);
    expect(existsSync(deckFile(talk.code))).toBe(true);
    const presenter = await LiveClient.join(server.url, talk.code, "presenter", talk.presenterSecret);
    const viewer = await LiveClient.join(server.url, talk.code, "viewer");
    const remote = await LiveClient.join(server.url, talk.code, "control", talk.controlSecret);
    const res = await fetch(`${server.url}/api/live/${talk.code}/end`, { method: "POST", headers: { "x-presenter-secret": talk.presenterSecret } });
    expect(res.status).toBe(200);
    for (const c of [presenter.client, viewer.client, remote.client]) {
      expect(await c.next("ended")).toEqual({ v: 1, type: "ended", reason: "ended" });
      expect((await c.closed).code).toBe(4410);
    }
    expect(existsSync(deckFile(talk.code))).toBe(false);
    expect((await fetch(`${server.url}/api/live/${talk.code}`)).status).toBe(410);
    expect((await fetch(`${server.url}/api/live/${talk.code}/deck`)).status).toBe(410);
  });
});

describe("presenter grace", () => {
  // The grace period runs on a manual scheduler: the test ends it rather than waiting it out.
  const GRACE_MS = 60_000;
  const scheduler = new ManualScheduler();
  let short: LiveServer;
  beforeAll(async () => {
    short = await startLiveServer({ livePresenterGraceMs: GRACE_MS }, { scheduler });
  });
  afterAll(async () => {
    await short.stop();
  });

  test("a presenter that does not come back within the grace period ends the talk and its deck is deleted", async () => {
    const talk = await created(short.url, deck);
    const presenter = await LiveClient.join(short.url, talk.code, "presenter", talk.presenterSecret);
    const viewer = await LiveClient.join(short.url, talk.code, "viewer");
    presenter.client.close();
    await viewer.client.next("paused");
    scheduler.advance(GRACE_MS);
    expect(await viewer.client.next("ended")).toEqual({ v: 1, type: "ended", reason: "presenter-gone" });
    expect(existsSync(join(short.dataDir, "staged", `live-${talk.code}.pdf`))).toBe(false);
    expect((await fetch(`${short.url}/api/live/${talk.code}`)).status).toBe(410);
  });

  test("when the grace timer finds the talk already ended (by another instance), its viewers still get ended and 4410", async () => {
    const talk = await created(short.url, deck);
    const presenter = await LiveClient.join(short.url, talk.code, "presenter", talk.presenterSecret);
    const viewer = await LiveClient.join(short.url, talk.code, "viewer");
    // Another instance ended the row (its notice never reached this one): only the row changes here.
    expect(await short.running.runtime.deps.live.repo.end(talk.code, "expired", Date.now())).not.toBeNull();
    presenter.client.close();
    await viewer.client.next("paused");
    scheduler.advance(GRACE_MS);
    expect(await viewer.client.next("ended")).toEqual({ v: 1, type: "ended", reason: "expired" });
    expect((await viewer.client.closed).code).toBe(4410);
  });
});

describe("presenter last seen", () => {
  test("the sweep never ends a talk whose presenter is connected; after it leaves, the grace counts from the leave, then viewers get ended and the deck goes", async () => {
    let now = Date.now();
    const own = await startLiveServer({ livePresenterGraceMs: 60_000 }, { clock: () => now });
    try {
      const talk = await created(own.url, deck);
      const presenter = await LiveClient.join(own.url, talk.code, "presenter", talk.presenterSecret);
      const viewer = await LiveClient.join(own.url, talk.code, "viewer");
      now += 10 * 60_000;
      expect(await own.running.runtime.deps.live.sweep()).toMatchObject({ livePresenterGone: 0 });
      presenter.client.close();
      // The leave is recorded before viewers are told of the pause.
      await viewer.client.next("paused");
      expect((await own.running.runtime.deps.live.find(talk.code))?.presenterSeenAt).toBe(now);
      now += 60_000;
      expect(await own.running.runtime.deps.live.sweep()).toMatchObject({ livePresenterGone: 0 });
      now += 1;
      expect(await own.running.runtime.deps.live.sweep()).toMatchObject({ livePresenterGone: 1 });
      expect(await viewer.client.next("ended")).toEqual({ v: 1, type: "ended", reason: "presenter-gone" });
      expect((await viewer.client.closed).code).toBe(4410);
      expect(existsSync(join(own.dataDir, "staged", `live-${talk.code}.pdf`))).toBe(false);
    } finally {
      await own.stop();
    }
  });
});

describe("shutdown", () => {
  test("a server shutting down closes live sockets (1001) at once instead of waiting for its deadline", async () => {
    const own = await startLiveServer();
    const talk = await created(own.url, deck);
    const viewer = await LiveClient.join(own.url, talk.code, "viewer");
    const presenter = await LiveClient.join(own.url, talk.code, "presenter", talk.presenterSecret);
    await own.stop();
    expect((await viewer.client.closed).code).toBe(1001);
    expect((await presenter.client.closed).code).toBe(1001);
    expect(own.logs.some((line) => line.includes('"shutdown_forced"'))).toBe(false);
  });
});

describe("settings and shared control", () => {
  test("the presenter's allowDownload reaches viewers, the info route and later joiners; a viewer cannot set it", async () => {
    const talk = await created(server.url, deck);
    const presenter = await LiveClient.join(server.url, talk.code, "presenter", talk.presenterSecret);
    const viewer = await LiveClient.join(server.url, talk.code, "viewer");
    expect(viewer.hello.session.allowDownload).toBe(false);
    viewer.client.send({ v: 1, type: "settings", allowDownload: true });
    expect(await viewer.client.next("error")).toMatchObject({ code: "NOT_ALLOWED" });
    presenter.client.send({ v: 1, type: "settings", allowDownload: true });
    expect(await viewer.client.next("settings")).toEqual({ v: 1, type: "settings", allowDownload: true });
    expect(((await (await fetch(`${server.url}/api/live/${talk.code}`)).json()) as { allowDownload: boolean }).allowDownload).toBe(true);
    const late = await LiveClient.join(server.url, talk.code, "viewer");
    expect(late.hello.session.allowDownload).toBe(true);
    for (const c of [presenter.client, viewer.client, late.client]) c.close();
  });

  test("several remotes share control: each one's commands reach the presenter", async () => {
    const talk = await created(server.url, deck);
    const presenter = await LiveClient.join(server.url, talk.code, "presenter", talk.presenterSecret);
    const one = await LiveClient.join(server.url, talk.code, "control", talk.controlSecret);
    const two = await LiveClient.join(server.url, talk.code, "control", talk.controlSecret);
    one.client.send({ v: 1, type: "command", action: "next" });
    expect(await presenter.client.next("command")).toMatchObject({ action: "next" });
    two.client.send({ v: 1, type: "command", action: "prev" });
    expect(await presenter.client.next("command")).toMatchObject({ action: "prev" });
    // Remotes follow the talk too: they get the presenter's state like viewers.
    presenter.client.send({ v: 1, type: "state", state: sampleState(2) });
    expect((await one.client.next("state")).state.page).toBe(2);
    expect((await two.client.next("state")).state.page).toBe(2);
    for (const c of [presenter.client, one.client, two.client]) c.close();
  });
});

describe("guessing secrets over the socket", () => {
  test("wrong secrets count against the address and the talk: past the limit that address's secret joins of the talk are refused (RATE_LIMITED, 4429) — it still watches", async () => {
    const own = await startLiveServer();
    try {
      const talk = await created(own.url, deck);
      const { LIVE_JOIN_FAILURES_PER_MINUTE } = await import("../../src/live/join-guard.ts");
      for (let i = 0; i <= LIVE_JOIN_FAILURES_PER_MINUTE; i++) {
        const client = await LiveClient.connect(own.url, talk.code);
        client.send({ v: 1, type: "join", role: "control", secret: `guess-${i}` });
        expect((await client.closed).code).toBe(4403);
      }
      // Even the right secret is refused now: the guessing stops, whatever the guess.
      const right = await LiveClient.connect(own.url, talk.code);
      right.send({ v: 1, type: "join", role: "control", secret: talk.controlSecret });
      const refused = await right.first();
      expect(refused).toMatchObject({ type: "error", code: "RATE_LIMITED" });
      expect((refused as { message: string }).message).toMatch(/retry in \d+ s/);
      expect((await right.closed).code).toBe(4429);
      // Watching is not guessing: the upgrade, the info and the viewer join all work.
      expect((await fetch(`${own.url}/api/live/${talk.code}`)).status).toBe(200);
      expect((await LiveClient.join(own.url, talk.code, "viewer")).hello.role).toBe("viewer");
      expect(own.logs.join("\n")).not.toContain("guess-");
    } finally {
      await own.stop();
    }
  });
});
