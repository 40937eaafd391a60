/**
 * One address cannot fill a talk (--max-viewers-per-address caps its seats, an IPv6 address
 * counted by its /64), and the instance holds live sockets only up to a cap below its
 * descriptor limit, one address's share of them shrinking as they fill (src/live/fair-share.ts)
 * — the excess is refused with a coded problem while /healthz and uploads keep working. The
 * socket cap runs against the compiled binary under a low RLIMIT_NOFILE (prlimit), the default
 * cap read from it. Addresses here come through X-Forwarded-For (--trust-proxy): IPv6 and
 * dozens of networks; rooms.test.ts counts real loopback peers.
 */
// npm test: foreground — its bounds are wall-clock times of the server under its own load; it is a second of sockets, so it runs in the foreground, the browser lanes yielding the CPU to it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { parseServeArgs } from "../../src/base/config.ts";
import { defaultMaxLiveSockets, descriptorLimit } from "../../src/live/socket-cap.ts";
import { makeDeck } from "../fixtures/pdfs.ts";
import { scratch } from "../helpers/server.ts";
import { created, eventually, LiveClient, type LiveServer, startLiveServer } from "./helpers.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (1.4 s), and at least 30 s as it starts processes.
setDefaultTimeout(30_000);

let deck: Uint8Array;
beforeAll(async () => {
  deck = await makeDeck({ pages: 2 });
});

/** A viewer whose address is `from` (the server trusts X-Forwarded-For in this test). */
async function joinFrom(base: string, code: string, from: string): Promise<{ client: LiveClient; first: { type: string; code?: string; message?: string } }> {
  const ws = new WebSocket(`${base.replace(/^http/, "ws")}/api/live/${code}/ws`, { headers: { "x-forwarded-for": from } } as unknown as string[]);
  const client = new LiveClient(ws);
  await client.opened;
  client.send({ v: 1, type: "join", role: "viewer" });
  return { client, first: (await client.first()) as never };
}

describe("one address's share of a talk", () => {
  let server: LiveServer;
  beforeAll(async () => {
    server = await startLiveServer({ trustProxy: true, maxViewers: 10, maxViewersPerAddress: 3 });
  });
  afterAll(async () => {
    await server.stop();
  });

  test("an address trying to fill a talk gets 3 of 10 seats (FULL, 4503, naming --max-viewers-per-address); a viewer from another address still joins; the talk is not full", async () => {
    const talk = await created(server.url, deck);
    const joined: LiveClient[] = [];
    const refused: LiveClient[] = [];
    for (let i = 0; i < 12; i++) {
      const { client, first } = await joinFrom(server.url, talk.code, "203.0.113.7");
      if (first.type === "hello") joined.push(client);
      else {
        expect(first).toMatchObject({ type: "error", code: "FULL" });
        expect(first.message).toContain("--max-viewers-per-address");
        expect((await client.closed).code).toBe(4503);
        refused.push(client);
      }
    }
    expect(joined).toHaveLength(3);
    expect(refused).toHaveLength(9);
    const other = await joinFrom(server.url, talk.code, "198.51.100.9");
    expect(other.first.type).toBe("hello");
    const info = await fetch(`${server.url}/api/live/${talk.code}`);
    expect(info.status).toBe(200);
    // A seat given back is the address's again.
    joined.pop()!.close();
    // The server has counted the leave once the other viewer hears 3 viewers (4 before).
    await other.client.next("counts", (m) => m.counts.viewers === 3);
    const again = await joinFrom(server.url, talk.code, "203.0.113.7");
    expect(again.first.type).toBe("hello");
    for (const c of [...joined, other.client, again.client]) c.close();
  });

  test("IPv6 addresses of one /64 share the address's seats; another /64 is another address", async () => {
    const talk = await created(server.url, deck);
    const clients: LiveClient[] = [];
    for (let i = 1; i <= 3; i++) {
      const { client, first } = await joinFrom(server.url, talk.code, `2001:db8:1:2::${i.toString(16)}`);
      expect(first.type).toBe("hello");
      clients.push(client);
    }
    const sameNet = await joinFrom(server.url, talk.code, "2001:db8:1:2:ffff::9");
    expect(sameNet.first).toMatchObject({ type: "error", code: "FULL" });
    const otherNet = await joinFrom(server.url, talk.code, "2001:db8:1:3::1");
    expect(otherNet.first.type).toBe("hello");
    for (const c of [...clients, otherNet.client]) c.close();
  });

  test("the flag caps one address at half the seats by default (the shrinking share stops it sooner, at 45% of an empty talk); the flag and its variable set it", () => {
    expect(parseServeArgs(["--max-viewers", "30"], {}).maxViewersPerAddress).toBe(15);
    expect(parseServeArgs([], {}).maxViewersPerAddress).toBe(500);
    expect(parseServeArgs(["--max-viewers-per-address", "40"], {}).maxViewersPerAddress).toBe(40);
    expect(parseServeArgs([], { DECKHAND_MAX_VIEWERS_PER_ADDRESS: "7" }).maxViewersPerAddress).toBe(7);
    expect(parseServeArgs(["--max-live-sockets", "300"], {}).maxLiveSockets).toBe(300);
  });
});

describe("the instance's live sockets stay below its descriptor limit", () => {
  test("the default cap comes from RLIMIT_NOFILE with headroom for uploads, files and the database", () => {
    expect(descriptorLimit(() => "Max open files            700                  700                  files     \n")).toBe(700);
    expect(descriptorLimit(() => "garbage")).toBeNull();
    expect(defaultMaxLiveSockets(700)).toBe(188);
    expect(defaultMaxLiveSockets(1024)).toBe(512);
    expect(defaultMaxLiveSockets(65_536)).toBe(49_152);
    expect(defaultMaxLiveSockets(100)).toBe(64);
    expect(defaultMaxLiveSockets(null)).toBe(512);
    expect(descriptorLimit()).toBeGreaterThan(0);
  });

  const s = scratch();
  afterAll(async () => {
    await s.cleanup();
  });

  test("the binary under a 700-descriptor limit holds 188 live sockets, one address's share shrinking as they fill (84, then 42, 21, …: 429 TOO_MANY_LIVE_SOCKETS); past 188, 503 LIVE_SOCKETS_FULL with Retry-After; /healthz stays fast and an upload still works", async () => {
    const server = await s.start({ wrap: ["prlimit", "--nofile=700:700"], args: ["--rate-limit", "0", "--trust-proxy"] });
    const talk = await created(server.url, deck);
    const wsUrl = `${server.url.replace(/^http/, "ws")}/api/live/${talk.code}/ws`;
    const health: number[] = [];
    const sampleHealth = async () => {
      const t0 = performance.now();
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      health.push(performance.now() - t0);
    };
    // Each socket joins as a viewer (no join deadline runs out while the test goes on).
    const connect = async (from: string): Promise<WebSocket | null> => {
      const ws = new WebSocket(wsUrl, { headers: { "x-forwarded-for": from } } as unknown as string[]);
      const opened = await new Promise<boolean>((resolve) => ((ws.onopen = () => resolve(true)), (ws.onerror = () => resolve(false))));
      if (!opened) return null;
      ws.send(JSON.stringify({ v: 1, type: "join", role: "viewer" }));
      return ws;
    };
    const upgradeFrom = (from: string) =>
      fetch(wsUrl.replace(/^ws/, "http"), { headers: { upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13", "x-forwarded-for": from } });
    // Networks arrive one after another, each opening sockets until it is refused.
    const open: WebSocket[][] = [];
    let full: Response | null = null;
    for (let n = 1; n <= 40 && full === null; n++) {
      const from = `192.0.2.${n}`;
      const mine: WebSocket[] = [];
      for (let ws = await connect(from); ws !== null; ws = await connect(from)) {
        mine.push(ws);
        if (mine.length % 10 === 0) await sampleHealth();
      }
      open.push(mine);
      // What a refused client is told: a problem document, before any socket exists.
      const answer = await upgradeFrom(from);
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
      if (answer.status === 503) full = answer;
      else expect(await answer.json()).toMatchObject({ code: "TOO_MANY_LIVE_SOCKETS", status: 429 });
    }
    expect(open.map((mine) => mine.length)).toEqual([84, 42, 21, 11, 5, 4, 4, 4, 4, 4, 4, 1]);
    expect(await full!.json()).toMatchObject({ code: "LIVE_SOCKETS_FULL", status: 503 });
    // Descriptors are left for everything else: health, an upload.
    for (let i = 0; i < 20; i++) await sampleHealth();
    health.sort((x, y) => x - y);
    expect(health[Math.floor(health.length * 0.99)]!).toBeLessThan(250);
    const form = new FormData();
    form.append("file", new Blob([deck as BlobPart], { type: "application/pdf" }), "talk.pdf");
    expect((await fetch(`${server.url}/api/present`, { method: "POST", body: form })).status).toBe(200);
    // A closed socket gives its place back, to another address.
    const leaving = open[1]!.pop()!;
    const closed = new Promise((r) => (leaving.onclose = r));
    leaving.close();
    await closed;
    // The server gives the place back when it sees the close: connect until it has.
    const next = await eventually(() => connect("198.51.100.2"), "a place given back");
    expect(next).not.toBeNull();
    expect(server.logs()).not.toContain("EMFILE");
    for (const ws of [...open.flat(), next!]) ws.close();
  }, 120_000);
});
