/**
 * Live-session test helpers: a real server on 127.0.0.1 (sockets need one) with its log
 * lines captured, going live with a generated deck, and a WebSocket client that buffers
 * messages so a test can wait for the next one of a type — from 127.0.0.1, or from another
 * loopback address as another client.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Config, testConfig } from "../../src/base/config.ts";
import type { LiveClientMessageT, LiveServerMessageT } from "../../src/shared/live-protocol.ts";
import type { Scheduler } from "../../src/live/scheduler.ts";
import { jsonLogger } from "../../src/base/log.ts";
import { type RunningServer, startServer } from "../../src/server.ts";
import { testPdfReader } from "../helpers/app.ts";
import type { Subprocess } from "bun";
import { LoopbackWebSocket } from "../helpers/loopback-websocket.ts";
import { type RawResponse, rawRequest } from "../helpers/raw-http.ts";
import { onFreePort, waitForHealthy } from "../helpers/server.ts";

export interface LiveServer {
  running: RunningServer;
  url: string;
  dataDir: string;
  logs: string[];
  stop(): Promise<void>;
}

export async function startLiveServer(overrides: Partial<Config> = {}, options: { clock?: () => number; scheduler?: Scheduler } = {}): Promise<LiveServer> {
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), "deckhand-live-"));
  const logs: string[] = [];
  const running = await startServer(testConfig({ host: "127.0.0.1", port: 0, rateLimit: 0, ...overrides, dataDir }), {
    logger: jsonLogger((line) => void logs.push(line)),
    shutdownGraceMs: 1000,
    // The test process's PDF workers, shared (each new pool would compile mupdf again).
    pdf: testPdfReader(),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.scheduler ? { liveScheduler: options.scheduler } : {}),
  });
  return {
    running,
    url: running.url,
    dataDir,
    logs,
    stop: async () => {
      await running.shutdown();
      if (!overrides.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An HTTP request to the server at `base` from the loopback address `from` (its own network, as the server counts them). */
export function httpFrom(base: string, from: string, method: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const port = Number(new URL(base).port);
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  return rawRequest(port, `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 0\r\nConnection: close\r\n${extra}\r\n`, { localAddress: from });
}

export interface Created {
  code: string;
  viewerUrl: string;
  controlUrl: string;
  presenterSecret: string;
  expiresAt: string;
  sha256: string;
  bytes: number;
  totalSlides: number;
}

export async function goLive(base: string, deck: Uint8Array, headers: Record<string, string> = {}): Promise<Response> {
  const form = new FormData();
  form.append("file", new Blob([deck as BlobPart], { type: "application/pdf" }), "talk.pdf");
  return fetch(`${base}/api/live`, { method: "POST", body: form, headers });
}

export async function created(base: string, deck: Uint8Array): Promise<Created & { controlSecret: string }> {
  const res = await goLive(base, deck);
  if (res.status !== 201) throw new Error(`go live failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as Created;
  return { ...body, controlSecret: new URL(body.controlUrl).hash.slice(1) };
}

type Any = LiveServerMessageT;

export class LiveClient {
  readonly messages: Any[] = [];
  private cursor = 0;
  private waiters: (() => void)[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;

  constructor(readonly ws: WebSocket) {
    ws.onmessage = (event) => {
      this.messages.push(JSON.parse(String(event.data)) as Any);
      for (const w of this.waiters.splice(0)) w();
    };
    this.closed = new Promise((resolve) => {
      ws.onclose = (event) => {
        resolve({ code: event.code, reason: event.reason });
        for (const w of this.waiters.splice(0)) w();
      };
    });
    this.opened = new Promise((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("socket error"));
    });
  }

  static async connect(base: string, code: string, init: { origin?: string } = {}): Promise<LiveClient> {
    const url = `${base.replace(/^http/, "ws")}/api/live/${code}/ws`;
    const ws = new WebSocket(url, init.origin ? ({ headers: { Origin: init.origin } } as unknown as string[]) : undefined);
    const client = new LiveClient(ws);
    await client.opened;
    return client;
  }

  /** Connect from the loopback address `from` (127.0.0.2, …): the server counts it as that client, by its peer address. */
  static async connectFrom(base: string, code: string, from: string): Promise<LiveClient> {
    const client = new LiveClient(new LoopbackWebSocket(`${base.replace(/^http/, "ws")}/api/live/${code}/ws`, from) as unknown as WebSocket);
    await client.opened;
    return client;
  }

  /** Connect from `from` and join as `role`; resolves with the first answer (hello, or the error that refused it). */
  static async joinFrom(base: string, code: string, from: string, role: "presenter" | "control" | "viewer" = "viewer", secret?: string): Promise<{ client: LiveClient; first: Any }> {
    const client = await LiveClient.connectFrom(base, code, from);
    client.send({ v: 1, type: "join", role, ...(secret ? { secret } : {}) });
    return { client, first: await client.first() };
  }

  /** Connect and join; resolves with the hello. */
  static async join(base: string, code: string, role: "presenter" | "control" | "viewer", secret?: string): Promise<{ client: LiveClient; hello: Extract<Any, { type: "hello" }> }> {
    const client = await LiveClient.connect(base, code);
    client.send({ v: 1, type: "join", role, ...(secret ? { secret } : {}) });
    const hello = await client.next("hello");
    return { client, hello };
  }

  send(message: LiveClientMessageT | Record<string, unknown> | string): void {
    this.ws.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  /**
   * The next message of `type` (and matching `where`, if given) after those already taken
   * (earlier ones that do not match are skipped).
   */
  async next<T extends Any["type"]>(type: T, where: (message: Extract<Any, { type: T }>) => boolean = () => true): Promise<Extract<Any, { type: T }>> {
    for (;;) {
      while (this.cursor < this.messages.length) {
        const message = this.messages[this.cursor++]!;
        if (message.type === type && where(message as Extract<Any, { type: T }>)) return message as Extract<Any, { type: T }>;
      }
      if (this.ws.readyState === WebSocket.CLOSED) throw new Error(`socket closed before a "${type}" message; got ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** The first message the socket got (waiting for it); throws when it closed before any. */
  async first(): Promise<Any> {
    while (this.messages.length === 0) {
      if (this.ws.readyState === WebSocket.CLOSED) throw new Error("closed before an answer");
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    return this.messages[0]!;
  }

  close(): void {
    this.ws.close();
  }
}

/**
 * Wait until `attempt` gives a value (tried again every few milliseconds, for at most
 * `withinMs`): a wait on the condition itself, not a sleep that hopes it came true. The 30 s
 * default is for a value that never comes: these files run beside the browser lanes, yielding.
 */
export async function eventually<T>(attempt: () => Promise<T | null> | T | null, what: string, withinMs = 30_000): Promise<T> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    const value = await attempt();
    if (value !== null) return value;
    if (performance.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms`);
    await Bun.sleep(10);
  }
}

export function sampleState(page: number, extra: Record<string, unknown> = {}) {
  return {
    page,
    blank: "none" as const,
    mode: "normal" as const,
    overlays: { pointer: null, live: null, zoom: null, inkHidden: false },
    ink: [],
    media: {},
    frozen: false,
    ...extra,
  };
}

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");

/**
 * One instance of several serving the same talks: a real server process on the shared
 * PostgreSQL `databaseUrl` (rows, and LISTEN/NOTIFY as the bus) and the S3 bucket whose
 * credentials are in `env`, on its own data dir (the caller removes it).
 */
export async function startInstance(options: { databaseUrl: string; env: Record<string, string>; dataDir: string; port?: number }): Promise<{ url: string; proc: Subprocess }> {
  return onFreePort(options.port, async (port) => {
    const proc = Bun.spawn(
      [process.execPath, MAIN, "serve", "--host", "127.0.0.1", "--port", String(port), "--data-dir", options.dataDir, "--database-url", options.databaseUrl, "--storage", "s3://deckhand/live", "--log-format", "json"],
      { stdout: "ignore", stderr: "pipe", env: { ...process.env, ...options.env } },
    );
    const url = `http://127.0.0.1:${port}`;
    await waitForHealthy(url, proc, () => new Response(proc.stderr as ReadableStream).text());
    return { url, proc };
  });
}
