/**
 * The host guard (src/http/middleware/request-guard.ts, `hostGuard`): before routing and before
 * any body is read, a Host no router can read is 400 (the connection closes) and a name a
 * loopback-bound server does not answer for is 403 HOST_NOT_ALLOWED (DNS rebinding). A Host too
 * short for Elysia's router is routed by the whole path. All through `app.handle()`.
 */
import { afterEach, expect, test } from "bun:test";
import { makeTestApp, problemOf, type TestApp } from "../../helpers/app.ts";
import { probedBody } from "./body-probe.ts";

let t: TestApp | undefined;
afterEach(() => {
  t?.close();
  t = undefined;
});

function lines() {
  const logged: { event: string; fields: Record<string, unknown> }[] = [];
  return { logged, logger: { info: (event: string, fields: Record<string, unknown> = {}) => void logged.push({ event, fields }), error: () => {} } };
}

test("a foreign Host on a loopback server is 403 HOST_NOT_ALLOWED before the body is read; logged with its id", async () => {
  const { logged, logger } = lines();
  t = makeTestApp({ host: "127.0.0.1" }, { logger });
  const probe = probedBody();
  const res = await t.handle("/api/present", { method: "POST", body: probe.body, headers: { host: "evil.example:8080", "content-type": "multipart/form-data; boundary=x" } });
  const problem = await problemOf(res);
  expect(problem).toMatchObject({ status: 403, contentType: "application/problem+json", body: { code: "HOST_NOT_ALLOWED" } });
  expect(String(problem.body.detail)).toContain("--base-url https://evil.example:8080");
  expect(probe.pulled()).toBe(0);
  expect(t.stagedFiles()).toEqual([]);
  const id = res.headers.get("x-request-id");
  expect(id).toMatch(/^[0-9a-f]{16}$/);
  expect(logged.filter((l) => l.event === "request").map((l) => l.fields)).toEqual([{ requestId: id, method: "POST", path: "/api/present", status: 403, ms: expect.any(Number) }]);
});

test("it runs before the cross-site check: a foreign page on a foreign Host is refused for its Host", async () => {
  t = makeTestApp({ host: "127.0.0.1" });
  const res = await t.handle("/api/present", { method: "POST", headers: { host: "evil.example", origin: "http://evil.example" } });
  expect((await problemOf(res)).body.code).toBe("HOST_NOT_ALLOWED");
});

test("loopback names, --base-url's host and --allow-origin's hosts are answered", async () => {
  t = makeTestApp({ host: "127.0.0.1", baseUrl: "https://talks.example.org", allowedOrigins: ["https://slides.example"] });
  for (const host of ["localhost:8080", "127.0.0.1", "127.0.0.2:1", "[::1]:8080", "talks.example.org", "slides.example"]) {
    expect([host, (await t.handle("/healthz", { headers: { host } })).status]).toEqual([host, 200]);
  }
  expect((await t.handle("/healthz", { headers: { host: "other.example" } })).status).toBe(403);
});

test("a server bound to every interface answers any name; behind a local proxy (--trust-proxy, no --base-url) too", async () => {
  t = makeTestApp({ host: "0.0.0.0" });
  expect((await t.handle("/healthz", { headers: { host: "talks.example.org" } })).status).toBe(200);
  t.close();
  t = makeTestApp({ host: "127.0.0.1", trustProxy: true });
  expect((await t.handle("/healthz", { headers: { host: "talks.example.org" } })).status).toBe(200);
});

test("an invalid Host is 400 BAD_REQUEST that closes the connection, before the body is read", async () => {
  t = makeTestApp({ host: "0.0.0.0" });
  for (const host of ["a b", "user@x", "[::1", "x:99999"]) {
    const probe = probedBody();
    const res = await t.handle("/api/present", { method: "POST", body: probe.body, headers: { host } });
    const problem = await problemOf(res);
    expect([host, problem.status, problem.body.code, res.headers.get("connection")]).toEqual([host, 400, "BAD_REQUEST", "close"]);
    expect(String(problem.body.detail)).toContain("Host");
    expect(probe.pulled()).toBe(0);
  }
});

test("a one-letter Host is routed by the whole path (Elysia's router cuts the path at a fixed offset)", async () => {
  t = makeTestApp({ host: "0.0.0.0" });
  const right = await t.app.handle(new Request("http://x/healthz", { headers: { host: "x" } }));
  expect(right.status).toBe(200);
  const wrong = await t.app.handle(new Request("http://x/abc/healthz", { headers: { host: "x" } }));
  expect([wrong.status, ((await wrong.json()) as { code: string }).code]).toEqual([404, "NOT_FOUND"]);
});
