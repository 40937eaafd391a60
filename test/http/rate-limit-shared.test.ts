/** REST uploads and MCP tool calls draw on one anonymous rate limit per address. */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { AppError } from "../../src/base/errors.ts";
import { localBackend } from "../../src/mcp/local-backend.ts";
import { makeDeck } from "../fixtures/pdfs.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (4.2 s).
setDefaultTimeout(45_000);

let t: TestApp | null = null;
afterEach(() => {
  t?.close();
  t = null;
});

async function caught(fn: () => Promise<void> | undefined): Promise<AppError> {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected RATE_LIMITED");
}

describe("the anonymous rate limit (RateLimiter.admit)", () => {
  test("REST and MCP count against the same budget and refuse with the same problem", async () => {
    t = makeTestApp({ rateLimit: 2 });
    // Under app.handle() there is no peer address: REST keys on "unknown".
    const mcp = localBackend(t.deps, { authenticated: false, baseUrl: "http://deckhand.test", clientAddress: "unknown" });
    expect((await t.upload(await makeDeck())).status).toBe(200);
    await mcp.admit?.("check_pdf");
    const fromMcp = await caught(() => mcp.admit?.("present_pdf"));
    const rest = await t.upload(await makeDeck());
    expect(rest.status).toBe(429);
    const problem = (await rest.json()) as { code: string; detail: string };
    expect(fromMcp.code).toBe("RATE_LIMITED");
    expect(problem.code).toBe("RATE_LIMITED");
    expect(fromMcp.detail).toBe(problem.detail);
    expect(fromMcp.headers["retry-after"]).toBe(rest.headers.get("retry-after") ?? "missing");
  });

  test("an authenticated MCP caller is not counted", async () => {
    t = makeTestApp({ rateLimit: 1 });
    const authed = localBackend(t.deps, { authenticated: true, baseUrl: "http://deckhand.test", clientAddress: "10.0.0.1" });
    for (let i = 0; i < 3; i++) await authed.admit?.("check_pdf");
    await t.deps.rateLimiter.admit("10.0.0.1");
    expect((await caught(() => t!.deps.rateLimiter.admit("10.0.0.1"))).status).toBe(429);
  });
});
