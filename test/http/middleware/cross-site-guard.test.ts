/**
 * The cross-site check (src/http/middleware/request-guard.ts, `crossSiteGuard`): a browser's
 * state-changing API request from another site's page is 403 ORIGIN_NOT_ALLOWED before routing
 * and before its body is read; scripts (no Origin), the server's own pages, loopback pages,
 * --base-url and --allow-origin pass, and so do safe methods and paths outside /api/.
 */
import { afterEach, expect, test } from "bun:test";
import { makeDeck } from "../../fixtures/pdfs.ts";
import { makeTestApp, problemOf, type TestApp } from "../../helpers/app.ts";
import { probedBody } from "./body-probe.ts";

let t: TestApp | undefined;
afterEach(() => {
  t?.close();
  t = undefined;
});

const multipart = { "content-type": "multipart/form-data; boundary=x" };

test("another site's POST to the API is 403 ORIGIN_NOT_ALLOWED naming the flag, with a request id; its body is never read", async () => {
  t = makeTestApp();
  const probe = probedBody();
  const res = await t.handle("/api/present", { method: "POST", body: probe.body, headers: { ...multipart, origin: "https://evil.example" } });
  const problem = await problemOf(res);
  expect(problem).toMatchObject({ status: 403, contentType: "application/problem+json", body: { code: "ORIGIN_NOT_ALLOWED" } });
  expect(String(problem.body.detail)).toContain("--allow-origin https://evil.example");
  expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f]{16}$/);
  expect(probe.pulled()).toBe(0);
  expect(t.deps.uploadSlots.inUse).toBe(0);
});

test("the same POST from a script, the server's own page or a loopback page reaches the route (which reads the body)", async () => {
  t = makeTestApp();
  const pages: Record<string, string>[] = [{}, { origin: "http://deckhand.test" }, { origin: "http://127.0.0.1:5173" }];
  for (const headers of pages) {
    const probe = probedBody();
    const res = await t.handle("/api/present", { method: "POST", body: probe.body, headers: { ...multipart, ...headers } });
    expect(res.status).not.toBe(403);
    expect(probe.pulled()).toBeGreaterThan(0);
  }
  const deck = await makeDeck();
  expect((await t.upload(deck, { headers: { origin: "http://localhost:8080" } })).status).toBe(200);
});

test("--allow-origin and --base-url allow their origins; another is refused", async () => {
  t = makeTestApp({ allowedOrigins: ["https://slides.example"], baseUrl: "https://talks.example.org" });
  const deck = await makeDeck();
  expect((await t.upload(deck, { headers: { origin: "https://slides.example" } })).status).toBe(200);
  expect((await t.upload(deck, { headers: { origin: "https://talks.example.org" } })).status).toBe(200);
  expect((await t.upload(deck, { headers: { origin: "https://other.example" } })).status).toBe(403);
});

test("safe methods and paths outside /api/ are not its business", async () => {
  t = makeTestApp();
  const origin = { origin: "https://evil.example" };
  expect((await t.handle("/healthz", { headers: origin })).status).toBe(200);
  expect((await t.handle("/api/live/ABCDEFGH", { headers: origin })).status).toBe(404);
  // /mcp has its own Origin check (the `mcpOrigin` macro), with its own wording.
  const mcp = await problemOf(await t.handle("/mcp", { method: "POST", body: "{}", headers: { ...origin, "content-type": "application/json" } }));
  expect([mcp.status, mcp.body.code]).toEqual([403, "ORIGIN_NOT_ALLOWED"]);
  expect(String(mcp.body.detail)).toContain("MCP endpoint");
});
