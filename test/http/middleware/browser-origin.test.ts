/**
 * The per-route Origin check of /mcp (src/http/middleware/origin.ts, the `mcpOrigin` macro): a
 * page that `originAllowed` refuses is 403 ORIGIN_NOT_ALLOWED before anything else the route
 * does — its Host proves nothing under DNS rebinding — so neither the token, nor the size, nor
 * an upload slot is looked at, and the body stays unread.
 */
import { afterEach, expect, test } from "bun:test";
import { makeTestApp, problemOf, type TestApp } from "../../helpers/app.ts";
import { probedBody } from "./body-probe.ts";

let t: TestApp | undefined;
afterEach(() => {
  t?.close();
  t = undefined;
});

const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } } });

test("a page on another name is refused first, even when its Host is its own: 403 before 401, 413 or a slot; body unread", async () => {
  // Bound to every interface: the host guard lets any name through, the Origin check must not.
  t = makeTestApp({ host: "0.0.0.0", requireAuth: true, maxUploadBytes: 1024 * 1024 });
  const probe = probedBody();
  const res = await t.handle("/mcp", {
    method: "POST",
    body: probe.body,
    headers: { ...json, origin: "http://evil.example:8080", host: "evil.example:8080", authorization: "Bearer dh_not-a-token", "content-length": String(50 * 1024 * 1024) },
  });
  const problem = await problemOf(res);
  expect([problem.status, problem.body.code]).toEqual([403, "ORIGIN_NOT_ALLOWED"]);
  expect(String(problem.body.detail)).toContain("--allow-origin http://evil.example:8080");
  expect(probe.pulled()).toBe(0);
  expect(t.deps.uploadSlots.inUse).toBe(0);
});

test("no Origin (an agent), a loopback page and --allow-origin's page are served", async () => {
  t = makeTestApp({ allowedOrigins: ["https://agent.example"] });
  for (const origin of [null, "http://localhost:6274", "https://agent.example"]) {
    const res = await t.handle("/mcp", { method: "POST", body: initialize, headers: { ...json, ...(origin ? { origin } : {}) } });
    expect([origin, res.status]).toEqual([origin, 200]);
  }
  expect((await t.handle("/mcp", { method: "POST", body: initialize, headers: { ...json, origin: "https://other.example" } })).status).toBe(403);
});
