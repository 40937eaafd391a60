import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { makeDeck, makeEmptyPdf, makeEncryptedDeck } from "../fixtures/pdfs.ts";
import { base64, connectHttp, type McpTestServer, startMcpTestServer, textOf } from "./helpers.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (7.2 s).
setDefaultTimeout(90_000);

const TOOLS = ["present_pdf", "check_pdf"];
const ACCEPT = "application/json, text/event-stream";
const KB = 1024;

/** A tool result that failed with `code`; returns its text. */
function expectToolError(result: unknown, code: string): string {
  const r = result as CallToolResult;
  expect(r.isError).toBe(true);
  expect(r.structuredContent).toBeUndefined();
  const text = textOf(r);
  expect(text).toStartWith(`${code}: `);
  // A sentence saying what to do, never a stack trace or a path.
  expect(text.length).toBeGreaterThan(code.length + 20);
  expect(text).not.toMatch(/\bat .*\.(ts|js):\d+|\/tmp\/|deckhand-mcp-/);
  return text;
}

describe("tool failures are isError results with the problem code and a sentence", () => {
  let s: McpTestServer;
  let client: Client;
  beforeAll(async () => {
    // A small upload limit so FILE_TOO_LARGE is cheap to reach.
    s = await startMcpTestServer({ maxUploadBytes: 256 * KB });
    client = await s.connect();
  });
  afterAll(() => s.close());
  // Whatever failed, nothing (no temp file, no staged deck) is left behind.
  afterEach(() => expect(s.stagedFiles()).toEqual([]));

  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });

  for (const tool of TOOLS) {
    test(`${tool}: invalid base64 is BAD_REQUEST, not a 500`, async () => {
      const text = expectToolError(await call(tool, { pdf_base64: "JVBERi0xLjc*not base64!" }), "BAD_REQUEST");
      expect(text).toContain("not valid base64");
      expect(text).toContain("position 12");
    });

    test(`${tool}: truncated base64 is BAD_REQUEST`, async () => {
      expectToolError(await call(tool, { pdf_base64: "JVBERi0xL" }), "BAD_REQUEST");
    });

    test(`${tool}: empty pdf_base64 is BAD_REQUEST`, async () => {
      expect(expectToolError(await call(tool, { pdf_base64: "" }), "BAD_REQUEST")).toContain("empty");
    });

    test(`${tool}: a missing or mistyped pdf_base64 is BAD_REQUEST naming the argument`, async () => {
      expect(expectToolError(await call(tool, {}), "BAD_REQUEST")).toContain("pdf_base64");
      expect(expectToolError(await call(tool, { pdf_base64: 42 }), "BAD_REQUEST")).toContain("pdf_base64");
    });

    test(`${tool}: a local path is refused over HTTP with what to send instead`, async () => {
      expect(expectToolError(await call(tool, { path: "/etc/passwd" }), "BAD_REQUEST")).toContain("pdf_base64");
    });

    test(`${tool}: bytes that are not a PDF are NOT_A_PDF`, async () => {
      expectToolError(await call(tool, { pdf_base64: base64(new TextEncoder().encode("<html>not a deck</html>")) }), "NOT_A_PDF");
    });

    test(`${tool}: a PDF that needs a password is PDF_ENCRYPTED`, async () => {
      expectToolError(await call(tool, { pdf_base64: base64(await makeEncryptedDeck()) }), "PDF_ENCRYPTED");
    });

    test(`${tool}: a damaged PDF is PDF_UNREADABLE or PDF_NO_PAGES`, async () => {
      const deck = await makeDeck({ pages: 3 });
      const r = (await call(tool, { pdf_base64: base64(deck.subarray(0, 40)) })) as CallToolResult;
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^(PDF_UNREADABLE|PDF_NO_PAGES): /);
    });

    test(`${tool}: a decoded size over --max-upload-mb is FILE_TOO_LARGE`, async () => {
      const big = await makeDeck({ pages: 1, padToBytes: 300 * KB });
      expect(expectToolError(await call(tool, { pdf_base64: base64(big) }), "FILE_TOO_LARGE")).toContain("0.25 MB");
    });
  }

  test("present_pdf: a PDF without pages is PDF_NO_PAGES", async () => {
    expectToolError(await call("present_pdf", { pdf_base64: base64(await makeEmptyPdf()) }), "PDF_NO_PAGES");
  });

  test("present_pdf: both path and pdf_base64 over HTTP is still refused cleanly", async () => {
    const r = await call("present_pdf", { pdf_base64: base64(await makeDeck()), path: "/x.pdf" });
    // path is not part of the HTTP tool: it is ignored like any unknown argument.
    expect((r as CallToolResult).isError).toBeFalsy();
    const record = (r as CallToolResult).structuredContent as { id: string; url: string };
    // Tidy up so the afterEach check holds: claim it over REST.
    const token = new URL(record.url).hash.slice(3);
    await fetch(`${s.url}/api/sessions/${record.id}/handoff/complete`, { method: "POST", headers: { "x-controller-token": token } });
  });

  test("present_pdf: base64 in a data: URL, line-wrapped or URL-safe is accepted", async () => {
    const deck = await makeDeck({ pages: 2 });
    const std = base64(deck);
    const variants = [
      `data:application/pdf;base64,${std}`,
      std.replace(/.{76}/g, "$&\r\n"),
      Buffer.from(deck).toString("base64url"),
    ];
    for (const pdf_base64 of variants) {
      const r = (await call("present_pdf", { pdf_base64 })) as CallToolResult;
      expect(r.isError).toBeFalsy();
      const record = r.structuredContent as { id: string; url: string; bytes: number };
      expect(record.bytes).toBe(deck.length);
      const token = new URL(record.url).hash.slice(3);
      await fetch(`${s.url}/api/sessions/${record.id}/handoff/complete`, { method: "POST", headers: { "x-controller-token": token } });
    }
  });

  test("an unknown tool is a protocol error (JSON-RPC invalid params)", async () => {
    const error = await call("delete_everything", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toContain("present_pdf");
  });
});

describe("HTTP-level rules of /mcp", () => {
  let s: McpTestServer;
  afterEach(() => s?.close());

  test("GET and DELETE answer 405 problem documents with Allow: POST", async () => {
    s = await startMcpTestServer();
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${s.url}/mcp`, { method, headers: { accept: ACCEPT } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(res.headers.get("content-type")).toStartWith("application/problem+json");
      expect(((await res.json()) as { code: string }).code).toBe("METHOD_NOT_ALLOWED");
    }
  });

  test("answers JSON (not SSE) and no session id: stateless", async () => {
    s = await startMcpTestServer();
    const res = await fetch(`${s.url}/mcp`, {
      method: "POST",
      headers: { accept: ACCEPT, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/json");
    expect(res.headers.get("mcp-session-id")).toBeNull();
    const body = (await res.json()) as { result: { serverInfo: { name: string } } };
    expect(body.result.serverInfo.name).toBe("deckhand");
    // Any later request works without a session: tools/list straight away.
    const list = await fetch(`${s.url}/mcp`, {
      method: "POST",
      headers: { accept: ACCEPT, "content-type": "application/json", "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(((await list.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(2);
  });

  test("a batch of more tool calls than one request may carry is a 400 problem; none of them runs", async () => {
    s = await startMcpTestServer();
    const pdf = base64(await makeDeck({ pages: 1 }));
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "present_pdf", arguments: { pdf_base64: pdf } } });
    const res = await fetch(`${s.url}/mcp`, {
      method: "POST",
      headers: { accept: ACCEPT, "content-type": "application/json", "mcp-protocol-version": "2025-03-26" },
      body: JSON.stringify(Array.from({ length: 5 }, (_, i) => call(i + 1))),
    });
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { code: string; detail: string };
    expect(problem.code).toBe("BAD_REQUEST");
    expect(problem.detail).toContain("at most 4 tool calls");
    expect(s.stagedFiles()).toEqual([]);
  });

  test("a page on a foreign origin is refused with 403 before any JSON-RPC is read; --allow-origin admits one", async () => {
    s = await startMcpTestServer({ allowedOrigins: ["https://app.example.com"] });
    const list = (origin: string) =>
      fetch(`${s.url}/mcp`, { method: "POST", headers: { accept: ACCEPT, "content-type": "application/json", origin }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
    const refused = await list("https://evil.example");
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe("ORIGIN_NOT_ALLOWED");
    expect((await list("https://app.example.com")).status).toBe(200);
  });

  test("an unknown or revoked Bearer token is an HTTP 401 with WWW-Authenticate, before any JSON-RPC", async () => {
    s = await startMcpTestServer();
    const created = await s.running.runtime.deps.accessTokens.create("old");
    await s.running.runtime.deps.accessTokens.revoke("old");
    for (const token of ["dh_not-a-real-token", created.token]) {
      const res = await fetch(`${s.url}/mcp`, {
        method: "POST",
        headers: { accept: ACCEPT, "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
      expect(((await res.json()) as { code: string }).code).toBe("UNAUTHORIZED");
      // The SDK client sees the 401 when connecting.
      const error = await connectHttp(`${s.url}/mcp`, token).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(String((error as Error).message)).toMatch(/401|Unauthorized/i);
    }
  });

  test("--require-auth: no token is a 401; a valid token works and gives 7 days", async () => {
    s = await startMcpTestServer({ requireAuth: true });
    const res = await fetch(`${s.url}/mcp`, {
      method: "POST",
      headers: { accept: ACCEPT, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe("UNAUTHORIZED");
    expect(await connectHttp(`${s.url}/mcp`).catch((e: unknown) => e)).toBeInstanceOf(Error);

    const { token } = await s.running.runtime.deps.accessTokens.create("vps");
    const client = await s.connect(token);
    const r = (await client.callTool({ name: "present_pdf", arguments: { pdf_base64: base64(await makeDeck({ pages: 1 })) } })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect(Date.parse((r.structuredContent as { expiresAt: string }).expiresAt) - Date.now()).toBeGreaterThan(6 * 86_400_000);
  });

  test("the anonymous rate limit counts tool calls, not the handshake; a token is exempt", async () => {
    s = await startMcpTestServer({ rateLimit: 2 });
    const client = await s.connect();
    await client.listTools();
    await client.listTools();
    const notPdf = base64(new TextEncoder().encode("nope"));
    expectToolError(await client.callTool({ name: "present_pdf", arguments: { pdf_base64: notPdf } }), "NOT_A_PDF");
    expectToolError(await client.callTool({ name: "present_pdf", arguments: { pdf_base64: notPdf } }), "NOT_A_PDF");
    const limited = expectToolError(await client.callTool({ name: "present_pdf", arguments: { pdf_base64: notPdf } }), "RATE_LIMITED");
    expect(limited).toMatch(/retry in \d+ s/);
    const { token } = await s.running.runtime.deps.accessTokens.create("agent");
    const authed = await s.connect(token);
    expectToolError(await authed.callTool({ name: "present_pdf", arguments: { pdf_base64: notPdf } }), "NOT_A_PDF");
  });

  test("a full staging area is STORAGE_FULL, and nothing is left behind", async () => {
    const deck = await makeDeck({ pages: 1 });
    s = await startMcpTestServer({ maxStagedBytes: deck.length - 1 });
    const client = await s.connect();
    expectToolError(await client.callTool({ name: "present_pdf", arguments: { pdf_base64: base64(deck) } }), "STORAGE_FULL");
    expect(s.stagedFiles()).toEqual([]);
  });

  test("a body beyond what any allowed PDF needs is refused with 413 before it is parsed", async () => {
    s = await startMcpTestServer({ maxUploadBytes: 16 * KB });
    // Over /mcp's bound (4/3 × 16 KB + 1 MiB) but under Bun's own cap, which answers a bare 413.
    const huge = "A".repeat(1_100_000);
    const res = await fetch(`${s.url}/mcp`, {
      method: "POST",
      headers: { accept: ACCEPT, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "present_pdf", arguments: { pdf_base64: huge } } }),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toStartWith("application/problem+json");
    expect(((await res.json()) as { code: string }).code).toBe("FILE_TOO_LARGE");
    expect(s.stagedFiles()).toEqual([]);
  });
});

