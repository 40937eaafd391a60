/**
 * The request id (src/http/middleware/request-id.ts, `requestId`): every answer carries a fresh
 * `x-request-id` — a route's, an unknown path's, a problem's and a refusal before routing — and
 * a problem document names the same id in its body, so a user's report points at one log line.
 */
import { afterEach, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";

let t: TestApp | undefined;
afterEach(() => {
  t?.close();
  t = undefined;
});

test("every answer carries its own 16-hex-digit id; a problem names it in its body", async () => {
  t = makeTestApp({ host: "127.0.0.1" });
  const answers = [
    await t.handle("/healthz"),
    await t.handle("/healthz"),
    await t.handle("/no/such/page"),
    await t.handle("/healthz", { method: "DELETE" }),
    await t.handle("/api/present", { method: "POST", headers: { origin: "https://evil.example" } }),
    await t.handle("/healthz", { headers: { host: "evil.example" } }),
  ];
  expect(answers.map((res) => res.status)).toEqual([200, 200, 404, 405, 403, 403]);
  const ids = answers.map((res) => res.headers.get("x-request-id"));
  for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
  expect(new Set(ids).size).toBe(ids.length);
  for (const res of answers.slice(2)) {
    const body = (await res.json()) as { requestId?: unknown };
    expect(body.requestId).toBe(res.headers.get("x-request-id"));
  }
});
