/**
 * Upload admission (src/http/middleware/admit-upload.ts): the macros present, check, go live and
 * a large MCP call name decide before a byte of the body is read — the caller (401), the
 * anonymous rate limit (429 with Retry-After), a live grant (403), an MCP body too large (413) —
 * and hold an upload slot while the body is read, given back once the answer is out.
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

test("a bad token on a --require-auth server is 401 on present, check and go live; no body read, no slot", async () => {
  t = makeTestApp({ requireAuth: true });
  for (const path of ["/api/present", "/api/check", "/api/live"]) {
    const probe = probedBody();
    const res = await t.handle(path, { method: "POST", body: probe.body, headers: { ...multipart, authorization: "Bearer dh_not-a-token" } });
    const problem = await problemOf(res);
    expect([path, problem.status, problem.body.code]).toEqual([path, 401, "UNAUTHORIZED"]);
    expect(probe.pulled()).toBe(0);
  }
  expect(t.deps.uploadSlots.inUse).toBe(0);
});

test("past the anonymous rate limit: 429 RATE_LIMITED with Retry-After before the body is read", async () => {
  t = makeTestApp({ rateLimit: 1 });
  expect((await t.upload(await makeDeck())).status).toBe(200);
  const probe = probedBody();
  const res = await t.handle("/api/check", { method: "POST", body: probe.body, headers: multipart });
  const problem = await problemOf(res);
  expect([problem.status, problem.body.code]).toEqual([429, "RATE_LIMITED"]);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(probe.pulled()).toBe(0);
});

test("an admitted upload holds a slot while its body is read and gives it back with the answer, a refused one too", async () => {
  t = makeTestApp();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let sent = false;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (sent) return controller.close();
        await held;
        sent = true;
        controller.enqueue(new TextEncoder().encode("not a multipart body"));
      },
    },
    { highWaterMark: 0 },
  );
  const answer = t.handle("/api/present", { method: "POST", body, headers: multipart });
  for (let i = 0; i < 200 && t.deps.uploadSlots.inUse === 0; i++) await Bun.sleep(5);
  expect(t.deps.uploadSlots.inUse).toBe(1);
  release();
  const res = await answer;
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(t.deps.uploadSlots.inUse).toBe(0);
});

test("going live with an unknown live grant is 403 LIVE_GRANT_INVALID before the body is read; no slot", async () => {
  t = makeTestApp();
  const probe = probedBody();
  const res = await t.handle("/api/live", { method: "POST", body: probe.body, headers: { ...multipart, authorization: "Grant no-such-grant" } });
  const problem = await problemOf(res);
  expect([problem.status, problem.body.code]).toEqual([403, "LIVE_GRANT_INVALID"]);
  expect(probe.pulled()).toBe(0);
  expect(t.deps.uploadSlots.inUse).toBe(0);
});

test("an MCP body past what any allowed PDF needs is 413 FILE_TOO_LARGE unread; a bad token on a large call is 401 unread", async () => {
  t = makeTestApp({ requireAuth: true, maxUploadBytes: 1024 * 1024 });
  const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const tooLarge = probedBody();
  const refused = await problemOf(await t.handle("/mcp", { method: "POST", body: tooLarge.body, headers: { ...json, "content-length": String(50 * 1024 * 1024) } }));
  expect([refused.status, refused.body.code]).toEqual([413, "FILE_TOO_LARGE"]);
  expect(tooLarge.pulled()).toBe(0);
  const unknownLength = probedBody();
  const unauthorized = await problemOf(await t.handle("/mcp", { method: "POST", body: unknownLength.body, headers: { ...json, authorization: "Bearer dh_not-a-token" } }));
  expect([unauthorized.status, unauthorized.body.code]).toEqual([401, "UNAUTHORIZED"]);
  expect(unknownLength.pulled()).toBe(0);
  expect(t.deps.uploadSlots.inUse).toBe(0);
});
