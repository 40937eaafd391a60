/**
 * Request logging is the app's own middleware (src/http/middleware/request-log.ts): a request
 * answered through app.handle() — no server, no port — leaves its `request` line, with the id
 * its answer carries, its path without the query string and its status, errors included.
 */
import { afterEach, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";

let t: TestApp | undefined;
afterEach(() => {
  t?.close();
  t = undefined;
});

function capture() {
  const lines: { event: string; fields: Record<string, unknown> }[] = [];
  const logger = {
    info: (event: string, fields: Record<string, unknown> = {}) => void lines.push({ event, fields }),
    error: () => {},
  };
  return { lines, logger };
}

test("app.handle() logs one request line with the answer's request id, the path without its query, the status and the time", async () => {
  const { lines, logger } = capture();
  t = makeTestApp({}, { logger });
  const res = await t.handle("/healthz?t=secret-looking");
  expect(res.status).toBe(200);
  const requests = lines.filter((line) => line.event === "request");
  expect(requests).toHaveLength(1);
  expect(requests[0]!.fields).toMatchObject({ requestId: res.headers.get("x-request-id"), method: "GET", path: "/healthz", status: 200 });
  expect(typeof requests[0]!.fields.ms).toBe("number");
  expect(JSON.stringify(lines)).not.toContain("secret-looking");
});

test("an unknown path and a refused request are logged with the status they got", async () => {
  const { lines, logger } = capture();
  t = makeTestApp({}, { logger });
  expect((await t.handle("/no/such/page.json")).status).toBe(404);
  const refused = await t.handle("/api/present", { method: "POST", headers: { origin: "https://evil.example" } });
  expect(refused.status).toBe(403);
  expect(lines.filter((line) => line.event === "request").map((line) => [line.fields.path, line.fields.status])).toEqual([
    ["/no/such/page.json", 404],
    ["/api/present", 403],
  ]);
});
