/**
 * Issue 20, finding 4: one address cannot fill a talk (its share of the seats is capped, an
 * IPv6 address counted by its /64), and the instance holds live sockets only up to a cap
 * below its descriptor limit, at most half of them from one address — the excess is refused with a coded problem while /healthz and
 * uploads keep working. The socket cap runs against the compiled binary under a low
 * RLIMIT_NOFILE (prlimit), the default cap read from it.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { parseServeArgs } from "../../src/config.ts";
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
    server = await startLiveServer({ trustProxy: true, maxViewers: 10, maxViewersPerAddress: 5 });
  });
  afterAll(async () => {
    await server.stop();
  });

  test("an address trying to fill a talk gets 5 of 10 seats (FULL, 4503, saying why); a viewer from another address still joins; the talk is not full", async () => {
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
    expect(joined).toHaveLength(5);
    expect(refused).toHaveLength(7);
    const other = await joinFrom(server.url, talk.code, "198.51.100.9");
    expect(other.first.type).toBe("hello");
    const info = await fetch(`${server.url}/api/live/${talk.code}`);
    expect(info.status).toBe(200);
    // A seat given back is the address's again.
    joined.pop()!.close();
    // The server has counted the leave once the other viewer hears 5 viewers (6 before).
    await other.client.next("counts", (m) => m.counts.viewers === 5);
    const again = await joinFrom(server.url, talk.code, "203.0.113.7");
    expect(again.first.type).toBe("hello");
    for (const c of [...joined, other.client, again.client]) c.close();
  });

  test("IPv6 addresses of one /64 share the address's seats; another /64 is another address", async () => {
    const talk = await created(server.url, deck);
    const clients: LiveClient[] = [];
    for (let i = 1; i <= 5; i++) {
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

  test("the default share is half the seats (a classroom behind one NAT still gets in); the flag and its variable set it", () => {
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

  test("the binary under a 700-descriptor limit holds 188 live sockets, at most half from one address (429 TOO_MANY_LIVE_SOCKETS); past 188, 503 LIVE_SOCKETS_FULL with Retry-After; /healthz stays fast and an upload still works", async () => {
    const server = await s.start({ wrap: ["prlimit", "--nofile=700:700"], args: ["--rate-limit", "0", "--trust-proxy"] });
    const talk = await created(server.url, deck);
    const wsUrl = `${server.url.replace(/^http/, "ws")}/api/live/${talk.code}/ws`;
    const health: number[] = [];
    const sampleHealth = async () => {
      const t0 = performance.now();
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      health.push(performance.now() - t0);
    };
    const connect = async (from: string): Promise<WebSocket | null> => {
      const ws = new WebSocket(wsUrl, { headers: { "x-forwarded-for": from } } as unknown as string[]);
      return (await new Promise<boolean>((resolve) => ((ws.onopen = () => resolve(true)), (ws.onerror = () => resolve(false))))) ? ws : null;
    };
    const upgradeFrom = (from: string) =>
      fetch(wsUrl.replace(/^ws/, "http"), { headers: { upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13", "x-forwarded-for": from } });
    const open: Record<string, WebSocket[]> = { a: [], b: [] };
    for (const [name, from] of [["a", "203.0.113.1"], ["b", "198.51.100.2"]] as const) {
      let refused = 0;
      for (let i = 0; i < 120; i++) {
        const ws = await connect(from);
        if (ws) open[name]!.push(ws);
        else refused++;
        if (i % 10 === 0) await sampleHealth();
      }
      expect({ name, open: open[name]!.length, refused }).toEqual({ name, open: 94, refused: 26 });
      if (name !== "a") continue;
      // What refused clients are told: problem documents, before any socket exists.
      const own = await upgradeFrom("203.0.113.1");
      expect(own.status).toBe(429);
      expect(Number(own.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await own.json()).toMatchObject({ code: "TOO_MANY_LIVE_SOCKETS", status: 429 });
    }
    const full = await upgradeFrom("192.0.2.3");
    expect(full.status).toBe(503);
    expect(Number(full.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await full.json()).toMatchObject({ code: "LIVE_SOCKETS_FULL", status: 503 });
    // Descriptors are left for everything else: health, an upload.
    for (let i = 0; i < 20; i++) await sampleHealth();
    health.sort((x, y) => x - y);
    expect(health[Math.floor(health.length * 0.99)]!).toBeLessThan(250);
    const form = new FormData();
    form.append("file", new Blob([deck as BlobPart], { type: "application/pdf" }), "talk.pdf");
    expect((await fetch(`${server.url}/api/present`, { method: "POST", body: form })).status).toBe(200);
    // A closed socket gives its place back, to another address.
    const leaving = open.b!.pop()!;
    const closed = new Promise((r) => (leaving.onclose = r));
    leaving.close();
    await closed;
    // The server gives the place back when it sees the close: connect until it has.
    const next = await eventually(() => connect("192.0.2.3"), "a place given back");
    expect(next).not.toBeNull();
    expect(server.logs()).not.toContain("EMFILE");
    for (const ws of [...open.a!, ...open.b!, next!]) ws.close();
  }, 120_000);
});
