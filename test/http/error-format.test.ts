/**
 * Failures deckhand answers itself are coded problems. A known path under
 * another method was 404 (now 405 with Allow); an empty MCP batch was 202 with no body (now a
 * JSON-RPC Invalid Request); the MCP transport's HTTP-level failures (invalid JSON, a wrong
 * Accept) were JSON-RPC errors without a problem (now the problem rides in `error.data`).
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { makeTestApp } from "../helpers/app.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (1.1 s), and at least 30 s as it starts processes.
setDefaultTimeout(30_000);

const t = makeTestApp();
afterAll(() => t.close());

describe("405 with Allow for a known path under another method", () => {
  test("PUT /api/present → 405 METHOD_NOT_ALLOWED, Allow: POST", async () => {
    const res = await t.handle("/api/present", { method: "PUT", body: "x" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(((await res.json()) as { code: string }).code).toBe("METHOD_NOT_ALLOWED");
  });

  test("DELETE on the handoff download → 405, Allow: GET, HEAD; an unknown path stays 404", async () => {
    const res = await t.handle("/api/sessions/abc/handoff", { method: "DELETE" });
    expect([res.status, res.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
    const missing = await t.handle("/api/nothing-here", { method: "PUT" });
    expect([missing.status, ((await missing.json()) as { code: string }).code]).toEqual([404, "NOT_FOUND"]);
  });
});

describe("MCP failures at the HTTP level are JSON-RPC errors carrying a coded problem", () => {
  const mcp = (body: string, headers: Record<string, string> = {}) =>
    t.handle("/mcp", { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body });

  test("an empty batch [] → 400 Invalid Request (-32600) with a BAD_REQUEST problem, not 202 empty", async () => {
    const res = await mcp("[]");
    expect(res.status).toBe(400);
    const body = (await res.json()) as { jsonrpc: string; id: unknown; error: { code: number; data: { code: string; status: number; detail: string } } };
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600, data: { code: "BAD_REQUEST", status: 400 } } });
    expect(body.error.data.detail).toMatch(/empty/);
  });

  test("invalid JSON → 400 Parse error (-32700) with a BAD_REQUEST problem", async () => {
    const res = await mcp("{not json");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700, data: { code: "BAD_REQUEST", status: 400 } } });
  });

  test("a wrong Accept → 406 with a NOT_ACCEPTABLE problem", async () => {
    const res = await mcp(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), { accept: "text/html" });
    expect(res.status).toBe(406);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { data: { code: "NOT_ACCEPTABLE", status: 406 } } });
  });
});
