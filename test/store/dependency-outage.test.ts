/**
 * A hung or dead PostgreSQL or S3 bucket. Before, an upload hung 40–80 s
 * then answered 500, a download dropped at 31 s, and /healthz said "ok" throughout. Now every
 * call has a deadline (--dependency-timeout): the request answers 503 STORAGE_UNAVAILABLE with
 * Retry-After within seconds, /healthz answers 503 "unavailable" with each dependency's state,
 * the log says so once per change, and everything recovers when the dependency is back.
 */
// npm test: foreground — its bounds are wall-clock times of the server under its own load; it mostly waits on a hung or dead dependency, so it runs in the foreground, the browser lanes yielding the CPU to it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { makeDeck } from "../fixtures/pdfs.ts";
import { type PostgresServer, type S3Server, startPostgres, startS3 } from "../helpers/engines.ts";
import { type BinaryServer, startBinary } from "../helpers/server.ts";
import { waitFor } from "../helpers/wait.ts";

// The timeout of each test and hook here: ~10× PostgreSQL's and S3's start in beforeAll on a loaded 2-vCPU machine (8 s).
setDefaultTimeout(90_000);

/** A hung dependency is a 503 within 10 s: the 5 s --dependency-timeout plus margin (docs/operating/availability.md). */
const ANSWER_WITHIN_MS = 10_000;
/** A short deadline (--dependency-timeout) so the test runs quickly; the default is 5 s. */
const DEADLINE_SECONDS = "1.5";

let pg: PostgresServer;
let s3: S3Server;
let deck: Uint8Array;
let databases = 0;

beforeAll(async () => {
  [pg, s3] = await Promise.all([startPostgres(), startS3()]);
  deck = await makeDeck({ pages: 2 });
});
afterAll(async () => {
  await Promise.all([pg?.stop(), s3?.stop()]);
});

interface App {
  server: BinaryServer;
  upload(): Promise<Response>;
  present(): Promise<{ id: string; token: string }>;
  download(staged: { id: string; token: string }): Promise<Response>;
  health(): Promise<{ status: number; body: { status: string; dependencies: Record<string, { kind: string; state: string; reason?: string }> } }>;
  /** The dependency_up / dependency_down lines `deckhand serve` logged. */
  changes(): string[];
}

/** `deckhand serve` (from source: the S3 client reads its variables at process start) on PostgreSQL + S3. */
async function openApp(): Promise<App> {
  const url = await pg.createDatabase(`outage${++databases}`);
  const server = await startBinary({
    wrap: [process.execPath],
    binary: join(import.meta.dir, "..", "..", "src", "main.ts"),
    args: ["--database-url", url, "--storage", `s3://${s3.bucket}/outage${databases}`, "--dependency-timeout", DEADLINE_SECONDS, "--rate-limit", "0"],
    env: { ...s3.env, DECKHAND_LOG_FORMAT: "json" },
  });
  const upload = () => {
    const form = new FormData();
    form.append("file", new Blob([deck as BlobPart], { type: "application/pdf" }), "deck.pdf");
    return fetch(`${server.url}/api/present`, { method: "POST", body: form });
  };
  return {
    server,
    upload,
    present: async () => {
      const res = await upload();
      if (res.status !== 200) throw new Error(`present failed: ${res.status} ${await res.text()}`);
      const record = (await res.json()) as { id: string; url: string };
      return { id: record.id, token: new URL(record.url).hash.replace(/^#t=/, "") };
    },
    download: (staged) => fetch(`${server.url}/api/sessions/${staged.id}/handoff`, { headers: { "x-controller-token": staged.token } }),
    health: async () => {
      const res = await fetch(`${server.url}/healthz`);
      return { status: res.status, body: (await res.json()) as never };
    },
    changes: () =>
      server
        .logs()
        .split("\n")
        .filter((line) => line.includes('"event":"dependency_'))
        .map((line) => JSON.parse(line) as { event: string; dependency: string })
        .map((l) => `${l.event}:${l.dependency}`),
  };
}

async function close(app: App): Promise<void> {
  await app.server.stop();
  app.server.cleanup();
}

/** A 503 STORAGE_UNAVAILABLE problem with Retry-After, answered within that bound. */
async function expectUnavailable(request: () => Promise<Response>): Promise<void> {
  const started = performance.now();
  const res = await request();
  const ms = performance.now() - started;
  const problem = (await res.json()) as { code?: string; status?: number; detail?: string };
  expect({ status: res.status, code: problem.code, retryAfter: res.headers.get("retry-after"), type: res.headers.get("content-type") }).toEqual({
    status: 503,
    code: "STORAGE_UNAVAILABLE",
    retryAfter: "5",
    type: "application/problem+json",
  });
  expect(problem.detail).toMatch(/Retry-After/);
  expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
}

/** Wait for /healthz to say `status` (the server probes every 5 s by itself). */
function waitHealth(app: App, status: number): Promise<void> {
  return waitFor(async () => (await app.health()).status === status, `/healthz to answer ${status}`, 20_000, 200);
}

describe("a hung dependency answers 503 STORAGE_UNAVAILABLE within seconds, and /healthz says so", () => {
  test("S3 bucket hung (SIGSTOP): upload and download 503 within 10 s; /healthz 503 unavailable; recovers on SIGCONT", async () => {
    const t = await openApp();
    try {
      const staged = await t.present();
      const before = await t.health();
      expect(before.status).toBe(200);
      expect(before.body.status).toBe("ok");
      expect(before.body.dependencies).toMatchObject({ database: { kind: "postgres", state: "up" }, storage: { kind: "s3", state: "up" } });

      s3.signal("SIGSTOP");
      try {
        await expectUnavailable(() => t.upload());
        await expectUnavailable(() => t.download(staged));
        await waitHealth(t, 503);
        const during = await t.health();
        expect(during.status).toBe(503);
        expect(during.body.status).toBe("unavailable");
        expect(during.body.dependencies.storage).toMatchObject({ kind: "s3", state: "down" });
        expect(during.body.dependencies.database).toMatchObject({ state: "up" });
      } finally {
        s3.signal("SIGCONT");
      }

      await waitHealth(t, 200);
      expect((await t.download(staged)).status).toBe(200);
      expect((await t.upload()).status).toBe(200);
      // One line per change, not one per failed request.
      expect(t.changes()).toEqual(["dependency_down:storage", "dependency_up:storage"]);
    } finally {
      await close(t);
    }
  }, 90_000);

  test("PostgreSQL hung (SIGSTOP): upload and download 503 within 10 s; /healthz 503 unavailable; recovers on SIGCONT", async () => {
    const t = await openApp();
    try {
      const staged = await t.present();
      pg.signal("SIGSTOP");
      try {
        await expectUnavailable(() => t.upload());
        await expectUnavailable(() => t.download(staged));
        const started = performance.now();
        const during = await t.health();
        // /healthz answers from the known state: fast even while the database hangs.
        expect(performance.now() - started).toBeLessThan(1_000);
        expect(during.status).toBe(503);
        expect(during.body.status).toBe("unavailable");
        expect(during.body.dependencies.database).toMatchObject({ kind: "postgres", state: "down" });
      } finally {
        pg.signal("SIGCONT");
      }
      await waitHealth(t, 200);
      expect((await t.download(staged)).status).toBe(200);
      expect((await t.upload()).status).toBe(200);
      expect(t.changes()).toEqual(["dependency_down:database", "dependency_up:database"]);
    } finally {
      await close(t);
    }
  }, 90_000);
});

describe("a dead dependency answers 503 STORAGE_UNAVAILABLE, not 500", () => {
  test("S3 killed, then PostgreSQL stopped: uploads and downloads 503; /healthz names the one down", async () => {
    const t = await openApp();
    try {
      const staged = await t.present();
      await s3.stop();
      await expectUnavailable(() => t.upload());
      await expectUnavailable(() => t.download(staged));
      await waitHealth(t, 503);
      expect((await t.health()).body.dependencies.storage).toMatchObject({ state: "down" });

      await pg.stop();
      await expectUnavailable(() => t.download(staged));
      await expectUnavailable(() => t.upload());
      const after = await t.health();
      expect(after.status).toBe(503);
      expect(after.body.dependencies.database).toMatchObject({ state: "down" });
    } finally {
      await close(t);
    }
  }, 90_000);
});
