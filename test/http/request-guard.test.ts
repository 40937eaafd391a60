/**
 * With Host and Origin both evil.example (DNS rebinding) present, the
 * live deck and the live socket were served, and any web page could POST a deck to
 * /api/present. A loopback-bound server now answers only for its own names (403
 * HOST_NOT_ALLOWED, before routing: the socket too), and the API refuses a browser's
 * state-changing request from another site (403 ORIGIN_NOT_ALLOWED) unless --allow-origin
 * names it. Scripts, which send no Origin, keep working.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testConfig } from "../../src/base/config.ts";
import { silentLogger } from "../../src/base/log.ts";
import { startServer } from "../../src/server.ts";
import { makeDeck } from "../fixtures/pdfs.ts";
import { makeTestApp, testPdfReader, type TestApp } from "../helpers/app.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (3.2 s).
setDefaultTimeout(45_000);

const apps: TestApp[] = [];
afterAll(() => apps.forEach((a) => a.close()));
function app(overrides: Parameters<typeof makeTestApp>[0] = {}): TestApp {
  const made = makeTestApp(overrides);
  apps.push(made);
  return made;
}

async function problemOf(res: Response): Promise<{ status: number; code: unknown; type: string | null; detail: unknown }> {
  const body = (await res.json()) as { code?: unknown; detail?: unknown };
  return { status: res.status, code: body.code, type: res.headers.get("content-type"), detail: body.detail };
}

describe("cross-site posts to the API (through app.handle)", () => {
  test("a multipart POST /api/present from another site's page is 403 ORIGIN_NOT_ALLOWED, and nothing is staged", async () => {
    const t = app();
    const res = await t.upload(await makeDeck(), { headers: { origin: "https://evil.example" } });
    const problem = await problemOf(res);
    expect(problem).toMatchObject({ status: 403, code: "ORIGIN_NOT_ALLOWED", type: "application/problem+json" });
    expect(String(problem.detail)).toContain("--allow-origin https://evil.example");
    expect(t.stagedFiles()).toEqual([]);
  });

  test("the same POST from a script (no Origin), from the server's own page, or from a loopback page is served", async () => {
    const t = app();
    const deck = await makeDeck();
    expect((await t.upload(deck)).status).toBe(200);
    expect((await t.upload(deck, { headers: { origin: "http://deckhand.test" } })).status).toBe(200);
    expect((await t.upload(deck, { headers: { origin: "http://localhost:5173" } })).status).toBe(200);
  });

  test("--allow-origin and --base-url allow their origins", async () => {
    const t = app({ allowedOrigins: ["https://slides.example"], baseUrl: "https://talks.example.org" });
    const deck = await makeDeck();
    expect((await t.upload(deck, { headers: { origin: "https://slides.example" } })).status).toBe(200);
    expect((await t.upload(deck, { headers: { origin: "https://talks.example.org" } })).status).toBe(200);
    expect((await t.upload(deck, { headers: { origin: "https://other.example" } })).status).toBe(403);
  });

  test("reads (GET) from another site are not refused by this check", async () => {
    const t = app();
    expect((await t.handle("/healthz", { headers: { origin: "https://evil.example" } })).status).toBe(200);
  });

  test("a cross-site POST to the live API and to the handoff completion is refused too", async () => {
    const t = app();
    for (const path of ["/api/live", "/api/sessions/abc/handoff/complete"]) {
      const res = await t.handle(path, { method: "POST", headers: { origin: "https://evil.example", "content-type": "application/json" }, body: "{}" });
      expect(await problemOf(res)).toMatchObject({ status: 403, code: "ORIGIN_NOT_ALLOWED" });
    }
  });
});

describe("DNS rebinding: a loopback-bound server answers only for its own names (real server)", () => {
  test("Host evil.example is 403 HOST_NOT_ALLOWED on present, the live deck, the live socket and /healthz; loopback names are served", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "deckhand-rebind-"));
    const running = await startServer(testConfig({ dataDir, port: 0, host: "127.0.0.1", rateLimit: 0 }), { logger: silentLogger, pdf: testPdfReader() });
    try {
      const port = running.server.port;
      const base = `http://127.0.0.1:${port}`;
      const evil = { host: `evil.example:${port}`, origin: `http://evil.example:${port}` };
      const form = new FormData();
      form.append("file", new Blob([(await makeDeck()) as BlobPart], { type: "application/pdf" }), "deck.pdf");
      const refused = [
        await fetch(`${base}/api/present`, { method: "POST", body: form, headers: evil }),
        await fetch(`${base}/api/live/ABCDEF/deck`, { headers: evil }),
        await fetch(`${base}/api/live/ABCDEF/ws`, { headers: { ...evil, connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==" } }),
        await fetch(`${base}/healthz`, { headers: evil }),
      ];
      for (const res of refused) expect(await problemOf(res)).toMatchObject({ status: 403, code: "HOST_NOT_ALLOWED", type: "application/problem+json" });
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "localhost"]) {
        expect((await fetch(`${base}/healthz`, { headers: { host } })).status).toBe(200);
      }
    } finally {
      await running.shutdown();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
