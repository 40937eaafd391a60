/**
 * Against a real server on 127.0.0.1: a presenter or a remote cannot smuggle
 * unknown properties into a talk (stored, saved, sent to late joiners or relayed to the
 * presenter), and ink is bounded by bytes, not only by counts.
 */
// npm test: foreground — its bounds are wall-clock times of the server under its own load; it is two seconds of messages, so it runs in the foreground, the browser lanes yielding the CPU to it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { makeDeck } from "../fixtures/pdfs.ts";
import { scratch } from "../helpers/server.ts";
import { created, LiveClient, type LiveServer, sampleState, startLiveServer } from "./helpers.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (5.9 s).
setDefaultTimeout(60_000);

let server: LiveServer;
let deck: Uint8Array;

beforeAll(async () => {
  deck = await makeDeck({ pages: 3 });
  server = await startLiveServer({ livePresenterGraceMs: 60_000 });
});
afterAll(async () => {
  await server.stop();
});

const helloBytes = (hello: unknown) => Buffer.byteLength(JSON.stringify(hello));

describe("live messages are exactly their schema", () => {
  test("400 ink adds whose stroke carries a 60 KB junk field are refused; nothing reaches viewers; a late joiner's hello stays small", async () => {
    const talk = await created(server.url, deck);
    const presenter = await LiveClient.join(server.url, talk.code, "presenter", talk.presenterSecret);
    const viewer = await LiveClient.join(server.url, talk.code, "viewer");
    presenter.client.send({ v: 1, type: "state", state: sampleState(2) });
    await viewer.client.next("state");
    const junk = "x".repeat(60_000);
    for (let i = 0; i < 400 && presenter.client.ws.readyState === WebSocket.OPEN; i++) {
      presenter.client.send({ v: 1, type: "ink", ink: { op: "add", page: 2, stroke: { id: `j${i}`, color: "#000", width: 2, points: [], junk } } });
    }
    expect(await presenter.client.next("error")).toMatchObject({ code: "BAD_MESSAGE" });
    // Every message was refused: past 20 refusals the socket is closed (4429).
    expect((await presenter.client.closed).code).toBe(4429);
    const late = await LiveClient.join(server.url, talk.code, "viewer");
    expect(late.hello.state?.ink).toEqual([]);
    expect(helloBytes(late.hello)).toBeLessThan(4096);
    expect(JSON.stringify(late.hello)).not.toContain("junk");
    expect(viewer.client.messages.some((m) => m.type === "ink")).toBe(false);
    for (const c of [viewer.client, late.client]) c.close();
  });

  test("a remote's command with an extra {injected:{html}} is refused and never reaches the presenter", async () => {
    const talk = await created(server.url, deck);
    const presenter = await LiveClient.join(server.url, talk.code, "presenter", talk.presenterSecret);
    const remote = await LiveClient.join(server.url, talk.code, "control", talk.controlSecret);
    remote.client.send({ v: 1, type: "command", action: "next", injected: { html: "<img src=x onerror=alert(1)>" } });
    expect(await remote.client.next("error")).toMatchObject({ code: "BAD_MESSAGE" });
    remote.client.send({ v: 1, type: "command", action: "prev" });
    expect(await presenter.client.next("command")).toEqual({ v: 1, type: "command", action: "prev" });
    expect(JSON.stringify(presenter.client.messages)).not.toContain("injected");
    expect(presenter.client.messages.filter((m) => m.type === "command")).toHaveLength(1);
    for (const c of [presenter.client, remote.client]) c.close();
  });

  test("a state or pointer with unknown properties is refused and not stored", async () => {
    const talk = await created(server.url, deck);
    const presenter = await LiveClient.join(server.url, talk.code, "presenter", talk.presenterSecret);
    presenter.client.send({ v: 1, type: "state", state: sampleState(1, { junk: "y".repeat(1000) }) });
    expect(await presenter.client.next("error")).toMatchObject({ code: "BAD_MESSAGE" });
    presenter.client.send({ v: 1, type: "pointer", pointer: { x: 1, y: 1, r: 1, junk: 1 } });
    expect(await presenter.client.next("error")).toMatchObject({ code: "BAD_MESSAGE" });
    const late = await LiveClient.join(server.url, talk.code, "viewer");
    expect(late.hello.state).toBeNull();
    for (const c of [presenter.client, late.client]) c.close();
  });
});

describe("a state saved before objects were closed", () => {
  test("is dropped when the talk loads (unknown properties or over the bounds); its seq is kept and the presenter sends the state again", async () => {
    const talk = await created(server.url, deck);
    const junk = { ...sampleState(1), ink: [{ id: "j", color: "#000", width: 2, points: [], junk: "x".repeat(60_000) }] };
    await server.running.runtime.deps.live.repo.saveState(talk.code, JSON.stringify({ seq: 7, state: junk }));
    const viewer = await LiveClient.join(server.url, talk.code, "viewer");
    expect(viewer.hello.seq).toBe(7);
    expect(viewer.hello.state).toBeNull();
    expect(helloBytes(viewer.hello)).toBeLessThan(4096);
    viewer.client.close();
  });
});

describe("ink is bounded by bytes", () => {
  test("a stroke whose numbers grow when re-serialised (1e5 → 100000) past 64 KiB is TOO_LARGE; the socket stays", async () => {
    const talk = await created(server.url, deck);
    const presenter = await LiveClient.join(server.url, talk.code, "presenter", talk.presenterSecret);
    presenter.client.send({ v: 1, type: "state", state: sampleState(1) });
    const text = `{"v":1,"type":"ink","ink":{"op":"add","page":1,"stroke":{"id":"big","color":"#000","width":2,"points":[${new Array(12_000).fill("1e5").join(",")}]}}}`;
    expect(Buffer.byteLength(text)).toBeLessThan(64 * 1024);
    presenter.client.send(text);
    const refused = await presenter.client.next("error");
    expect(refused.code).toBe("TOO_LARGE");
    expect(refused.message).toContain("stroke is at most");
    const late = await LiveClient.join(server.url, talk.code, "viewer");
    expect(late.hello.state?.ink).toEqual([]);
    presenter.client.send({ v: 1, type: "ping", t: 1 });
    expect(await presenter.client.next("pong")).toMatchObject({ t: 1 });
    for (const c of [presenter.client, late.client]) c.close();
  });

  test("a slide's ink stops at 4 MiB even below its count of numbers, and the saved state a late joiner gets stays below the talk's bound", async () => {
    const talk = await created(server.url, deck);
    const presenter = await LiveClient.join(server.url, talk.code, "presenter", talk.presenterSecret);
    presenter.client.send({ v: 1, type: "state", state: sampleState(1) });
    // 5,000 × "-12345.678," ≈ 55 KB a stroke; at 4 MiB the slide holds ~76 of them (380,000 numbers, under the count).
    const points = new Array<number>(5_000).fill(-12345.678);
    let refused: { code: string; message: string } | null = null;
    for (let i = 0; i < 80 && !refused; i++) {
      presenter.client.send({ v: 1, type: "ink", ink: { op: "add", page: 1, stroke: { id: `s${i}`, color: "#000", width: 2, points } } });
      presenter.client.send({ v: 1, type: "ping", t: i });
      // The pong follows the stroke's answer (an error, if refused): wait for it.
      await presenter.client.next("pong", (m) => m.t === i);
      refused = (presenter.client.messages.find((m) => m.type === "error") as { code: string; message: string } | undefined) ?? null;
    }
    expect(refused).toMatchObject({ code: "TOO_LARGE" });
    expect(refused!.message).toContain("bytes");
    const late = await LiveClient.join(server.url, talk.code, "viewer");
    expect(late.hello.state!.ink.length).toBeGreaterThan(70);
    expect(helloBytes(late.hello)).toBeLessThanOrEqual(4 * 1024 * 1024 + 4 * 64 * 1024);
    for (const c of [presenter.client, late.client]) c.close();
  });
});

describe("the smuggling and ink-flood attack against the compiled binary", () => {
  const s = scratch();
  afterAll(async () => {
    await s.cleanup();
  });

  test("2,000 ink adds with a 60 KB junk field (re-joining as the presenter after each close): /healthz p99 < 250 ms, RSS < 1 GB, a late joiner's hello stays small", async () => {
    const bin = await s.start({ args: ["--rate-limit", "0"] });
    const talk = await created(bin.url, deck);
    const junk = "x".repeat(60_000);
    const health: number[] = [];
    let rssMax = 0;
    const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${bin.proc.pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
    let sent = 0;
    while (sent < 2000) {
      const presenter = await LiveClient.join(bin.url, talk.code, "presenter", talk.presenterSecret);
      presenter.client.send({ v: 1, type: "state", state: sampleState(1) });
      for (let i = 0; i < 25 && sent < 2000; i++, sent++) {
        presenter.client.send({ v: 1, type: "ink", ink: { op: "add", page: 1, stroke: { id: `j${sent}`, color: "#000", width: 2, points: [], junk } } });
      }
      await presenter.client.closed;
      if (sent % 200 === 0) {
        const t0 = performance.now();
        expect((await fetch(`${bin.url}/healthz`)).status).toBe(200);
        health.push(performance.now() - t0);
        rssMax = Math.max(rssMax, rss());
      }
    }
    health.sort((a, b) => a - b);
    expect(health[Math.floor(health.length * 0.99)]!).toBeLessThan(250);
    expect(rssMax).toBeLessThan(1024 * 1024 * 1024);
    const late = await LiveClient.join(bin.url, talk.code, "viewer");
    expect(late.hello.state?.ink).toEqual([]);
    expect(helloBytes(late.hello)).toBeLessThan(4096);
    late.client.close();
    console.log(`junk attack: ${sent} messages, /healthz p99 ${health[Math.floor(health.length * 0.99)]!.toFixed(1)} ms, RSS max ${(rssMax / 1024 / 1024).toFixed(0)} MB`);
  }, 120_000);
});
