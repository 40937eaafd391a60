/**
 * The live client's network pieces without a browser: the viewer's deck download (taken from
 * storage when held, resumed with Range after a cut, refused when the digest differs) and the
 * reconnecting socket (joins with its secret in the first message, reconnects after a drop,
 * stops for good on the closes that mean "stop").
 */
import { afterEach, describe, expect, jest, test } from "bun:test";
import { createHash } from "node:crypto";
import { DeckDownloadError, liveDeck } from "../../client/src/live/connection/deck-download.ts";
import { BACKOFF_MAX_MS } from "../../client/src/live/connection/backoff.ts";
import { LiveSocket } from "../../client/src/live/connection/socket.ts";
import type { DeckStore, LiveDeckRecord } from "../../client/src/storage/deck-store.ts";

const realFetch = globalThis.fetch;
const realWebSocket = globalThis.WebSocket;
afterEach(() => {
  globalThis.fetch = realFetch;
  globalThis.WebSocket = realWebSocket;
  jest.useRealTimers();
});

const bytes = new Uint8Array(5000).map((_, i) => (i * 7) % 251);
const digest = createHash("sha256").update(bytes).digest("hex");

/** A body that sends `upTo` bytes of `data` from `from`, then fails like a dropped connection. */
function cutBody(data: Uint8Array, from: number, upTo: number): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(data.slice(from, upTo));
      } else controller.error(new TypeError("network error"));
    },
  });
}

function memoryStore(): DeckStore & { saved: LiveDeckRecord[] } {
  const saved: LiveDeckRecord[] = [];
  return {
    saved,
    getLiveDeck: async (code: string) => saved.find((d) => d.code === code),
    putLiveDeck: async (record: LiveDeckRecord) => {
      saved.push(record);
      return true;
    },
  } as unknown as DeckStore & { saved: LiveDeckRecord[] };
}

describe("live deck download", () => {
  test("resumes with Range where the network cut it, checks the digest and keeps the deck", async () => {
    const ranges: (string | null)[] = [];
    let call = 0;
    globalThis.fetch = (async (_url: string, init?: RequestInit) => {
      const range = new Headers(init?.headers).get("range");
      ranges.push(range);
      if (call++ === 0) return new Response(cutBody(bytes, 0, 2000), { status: 200, headers: { "content-length": String(bytes.length) } });
      const from = Number(/bytes=(\d+)-/.exec(range ?? "")?.[1]);
      return new Response(bytes.slice(from), { status: 206, headers: { "content-range": `bytes ${from}-${bytes.length - 1}/${bytes.length}`, "content-length": String(bytes.length - from) } });
    }) as typeof fetch;
    const store = memoryStore();
    const got = await liveDeck("ABC234", digest, "talk", store, () => {});
    expect(got.source).toBe("network");
    expect(new Uint8Array(got.data)).toEqual(bytes);
    expect(ranges).toEqual([null, "bytes=2000-"]);
    expect(store.saved.map((d) => [d.code, d.sha256])).toEqual([["ABC234", digest]]);
    // Held now: the next time (a reconnect, a reload) nothing is fetched.
    globalThis.fetch = (async () => {
      throw new Error("must not fetch");
    }) as unknown as typeof fetch;
    expect((await liveDeck("ABC234", digest, "talk", store, () => {})).source).toBe("stored");
  });

  test("a deck whose bytes do not match the announced digest is refused after a second try, never kept", async () => {
    let calls = 0;
    globalThis.fetch = (async () => {
      calls++;
      return new Response(bytes, { status: 200 });
    }) as unknown as typeof fetch;
    const store = memoryStore();
    const error = await liveDeck("ABC234", "0".repeat(64), "talk", store, () => {}).catch((e) => e);
    expect(error).toBeInstanceOf(DeckDownloadError);
    expect((error as DeckDownloadError).kind).toBe("damaged");
    expect(store.saved).toEqual([]);
    expect(calls).toBe(2);
  });

  test("an ended talk (410) is told at once, not retried", async () => {
    let calls = 0;
    globalThis.fetch = (async () => {
      calls++;
      return new Response("{}", { status: 410 });
    }) as unknown as typeof fetch;
    const error = await liveDeck("ABC234", digest, "talk", null, () => {}).catch((e) => e);
    expect((error as DeckDownloadError).kind).toBe("gone");
    expect(calls).toBe(1);
  });
});

/** A stand-in WebSocket the test drives. */
class FakeSocket {
  static made: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
    queueMicrotask(() => {
      this.readyState = 1;
      this.onopen?.();
    });
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  serverSays(message: object) {
    this.onmessage?.({ data: JSON.stringify({ v: 1, ...message }) });
  }
  drop(code: number, reason = "") {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
}

const until = async (what: () => boolean) => {
  for (let i = 0; i < 200 && !what(); i++) await Bun.sleep(10);
  expect(what()).toBe(true);
};
/** `until` under fake timers (Bun.sleep waits for the faked clock): promise turns only. */
const untilSettled = async (what: () => boolean) => {
  for (let i = 0; i < 1000 && !what(); i++) await Promise.resolve();
  expect(what()).toBe(true);
};

describe("live socket", () => {
  test("joins with the secret in its first message (never the URL), reconnects after a drop and joins again", async () => {
    FakeSocket.made = [];
    globalThis.WebSocket = FakeSocket as unknown as typeof WebSocket;
    const statuses: string[] = [];
    const socket = new LiveSocket({ code: "ABC234", role: "control", secret: () => "s3cret", url: "ws://h/api/live/ABC234/ws", onMessage: () => {}, onStatus: (s) => statuses.push(s) });
    await until(() => FakeSocket.made[0]?.sent.length === 1);
    const first = FakeSocket.made[0]!;
    expect(first.url).not.toContain("s3cret");
    expect(JSON.parse(first.sent[0]!)).toEqual({ v: 1, type: "join", role: "control", secret: "s3cret" });
    first.serverSays({ type: "hello" });
    first.drop(1006);
    await until(() => FakeSocket.made.length === 2 && FakeSocket.made[1]!.sent.length === 1);
    expect(JSON.parse(FakeSocket.made[1]!.sent[0]!)).toMatchObject({ type: "join", secret: "s3cret" });
    expect(statuses).toEqual(["connecting", "open", "waiting", "connecting"]);
    socket.close();
  });

  // Fake timers from the drop on, here and below: "never reconnects" is proven by moving the
  // clock past the longest backoff (client/src/live/connection/backoff.ts), not by sleeping and hoping.
  test("stops for good on a rotated secret (4403) and reports why", async () => {
    FakeSocket.made = [];
    globalThis.WebSocket = FakeSocket as unknown as typeof WebSocket;
    let stopped = null as { code: number; reason: string } | null;
    new LiveSocket({ code: "ABC234", role: "control", secret: () => "old", url: "ws://h/x", onMessage: () => {}, onStop: (s) => (stopped = s) });
    await until(() => FakeSocket.made[0]?.sent.length === 1);
    jest.useFakeTimers();
    FakeSocket.made[0]!.serverSays({ type: "error", code: "CONTROL_ROTATED", message: "rotated" });
    FakeSocket.made[0]!.drop(4403, "");
    expect(stopped).toEqual({ code: 4403, reason: "CONTROL_ROTATED" });
    jest.advanceTimersByTime(BACKOFF_MAX_MS);
    expect(FakeSocket.made.length).toBe(1);
  });

  test("a socket refused before its hello asks the info route: an ended talk (410) stops it instead of retrying forever", async () => {
    FakeSocket.made = [];
    globalThis.WebSocket = FakeSocket as unknown as typeof WebSocket;
    const asked: string[] = [];
    globalThis.fetch = (async (url: string) => {
      asked.push(url);
      return new Response("{}", { status: 410 });
    }) as unknown as typeof fetch;
    let stopped = null as { code: number; reason: string } | null;
    new LiveSocket({ code: "ABC234", role: "viewer", url: "ws://h/x", onMessage: () => {}, onStop: (s) => (stopped = s) });
    await until(() => FakeSocket.made[0]?.sent.length === 1);
    jest.useFakeTimers();
    FakeSocket.made[0]!.drop(1006);
    await untilSettled(() => stopped !== null);
    expect(stopped).toEqual({ code: 4410, reason: "ENDED" });
    expect(asked).toEqual(["/api/live/ABC234"]);
    jest.advanceTimersByTime(BACKOFF_MAX_MS);
    expect(FakeSocket.made.length).toBe(1);
  });

  test("…while a server that is away (the info route unreachable) is simply tried again", async () => {
    FakeSocket.made = [];
    globalThis.WebSocket = FakeSocket as unknown as typeof WebSocket;
    globalThis.fetch = (async () => {
      throw new TypeError("connection refused");
    }) as unknown as typeof fetch;
    const socket = new LiveSocket({ code: "ABC234", role: "viewer", url: "ws://h/x", onMessage: () => {}, onStop: () => {} });
    await until(() => FakeSocket.made[0]?.sent.length === 1);
    FakeSocket.made[0]!.drop(1006);
    await until(() => FakeSocket.made.length === 2);
    socket.close();
  });
});
