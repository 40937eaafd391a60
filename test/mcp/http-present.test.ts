import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { makeDeck } from "../fixtures/pdfs.ts";
import { base64, handoffRecordValidator, type McpTestServer, startMcpTestServer, textOf } from "./helpers.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (6.4 s).
setDefaultTimeout(90_000);

let s: McpTestServer;
let client: Client;
beforeAll(async () => {
  s = await startMcpTestServer();
  client = await s.connect();
});
afterAll(() => s.close());

const DAY = 86_400_000;

describe("/mcp over the SDK's Streamable HTTP client", () => {
  test("identifies itself as deckhand with the build version and tools", () => {
    expect(client.getServerVersion()?.name).toBe("deckhand");
    expect(client.getServerVersion()?.version).toBe(s.running.runtime.deps.version);
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toContain("present_pdf");
  });

  test("lists present_pdf and check_pdf with input and output schemas and truthful annotations", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["check_pdf", "present_pdf"]);
    const present = tools.find((t) => t.name === "present_pdf")!;
    const check = tools.find((t) => t.name === "check_pdf")!;

    expect(present.inputSchema.type).toBe("object");
    expect(Object.keys(present.inputSchema.properties ?? {}).sort()).toEqual(["filename", "notes_base64", "notes_filename", "pdf_base64"]);
    expect(present.inputSchema.required).toEqual(["pdf_base64"]);
    expect(Object.keys(check.inputSchema.properties ?? {}).sort()).toEqual(["notes_base64", "notes_filename", "pdf_base64"]);
    expect(check.inputSchema.required).toEqual(["pdf_base64"]);

    // The output schema is the REST API's HandoffRecord, field for field.
    expect(present.outputSchema?.required?.slice().sort()).toEqual(["bytes", "expiresAt", "filename", "id", "next", "sha256", "totalSlides", "url"]);
    expect(check.outputSchema?.type).toBe("object");

    expect(present.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(check.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });

    // Written for an agent: what to do with the link, that it works once, expiry, size limit.
    expect(present.description).toContain("url");
    expect(present.description).toContain("first browser that opens it");
    expect(present.description).toContain("24 hours");
    expect(present.description).toContain("100 MB");
    expect(check.description).toContain("100 MB");
  });

  test("present_pdf stages the deck; its link is claimed over REST and the server copy goes", async () => {
    const bytes = await makeDeck({ pages: 5 });
    const result = (await client.callTool({ name: "present_pdf", arguments: { pdf_base64: base64(bytes), filename: "Q3 review.pdf" } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const record = result.structuredContent as Record<string, unknown>;
    // The same object REST returns, valid against the REST schema.
    const validate = handoffRecordValidator();
    expect(validate(record)).toBe(true);
    expect(record.filename).toBe("Q3 review");
    expect(record.totalSlides).toBe(5);
    expect(record.bytes).toBe(bytes.length);
    expect(record.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    const expiresIn = Date.parse(String(record.expiresAt)) - Date.now();
    expect(expiresIn).toBeGreaterThan(DAY - 60_000);
    expect(expiresIn).toBeLessThanOrEqual(DAY);
    // The short text carries the link and what to do with it.
    const text = textOf(result);
    expect(text).toContain(String(record.url));
    expect(text).toContain(String(record.next));
    expect(s.stagedFiles()).toEqual([`${record.id}.pdf`]);

    // Claim it as a browser would: download, then complete with the digest.
    const url = new URL(String(record.url));
    expect(url.origin).toBe(s.url);
    const token = url.hash.replace(/^#t=/, "");
    const download = await fetch(`${s.url}/api/sessions/${record.id}/handoff?t=${token}`);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
    const complete = await fetch(`${s.url}/api/sessions/${record.id}/handoff/complete`, {
      method: "POST",
      headers: { "x-controller-token": token, "content-type": "application/json" },
      body: JSON.stringify({ sha256: record.sha256 }),
    });
    expect(complete.status).toBe(200);
    expect(await complete.json()).toMatchObject({ ok: true });
    expect(s.stagedFiles()).toEqual([]);
    // The link works once.
    expect((await fetch(`${s.url}/api/sessions/${record.id}/handoff?t=${token}`)).status).toBe(410);
  });

  test("present_pdf without filename titles the deck 'presentation'", async () => {
    const result = (await client.callTool({ name: "present_pdf", arguments: { pdf_base64: base64(await makeDeck({ pages: 1 })) } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { filename: string }).filename).toBe("presentation");
    expect((result.structuredContent as { next: string }).next).toContain("(1 slide)");
  });

  test("present_pdf accepts decks beyond the SDK's default 4 MiB body limit", async () => {
    const bytes = await makeDeck({ pages: 2, padToBytes: 6 * 1024 * 1024 });
    expect(bytes.length).toBeGreaterThan(6 * 1024 * 1024);
    const result = (await client.callTool({ name: "present_pdf", arguments: { pdf_base64: base64(bytes), filename: "big.pdf" } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { bytes: number }).bytes).toBe(bytes.length);
  });

  test("present_pdf is not idempotent: each call mints a new link", async () => {
    const pdf_base64 = base64(await makeDeck({ pages: 1 }));
    const a = (await client.callTool({ name: "present_pdf", arguments: { pdf_base64 } })) as CallToolResult;
    const b = (await client.callTool({ name: "present_pdf", arguments: { pdf_base64 } })) as CallToolResult;
    expect((a.structuredContent as { id: string }).id).not.toBe((b.structuredContent as { id: string }).id);
  });

  test("a valid Bearer token on the HTTP request gives the 7-day lifetime", async () => {
    const { token } = await s.running.runtime.deps.accessTokens.create("agent");
    const authed = await s.connect(token);
    const result = (await authed.callTool({ name: "present_pdf", arguments: { pdf_base64: base64(await makeDeck({ pages: 1 })) } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const expiresIn = Date.parse(String((result.structuredContent as { expiresAt: string }).expiresAt)) - Date.now();
    expect(expiresIn).toBeGreaterThan(7 * DAY - 60_000);
    expect(expiresIn).toBeLessThanOrEqual(7 * DAY);
    expect(textOf(result)).toContain("expires at");
  });
});

test("the published outputSchema of present_pdf is the REST HandoffRecord, without string coercion", async () => {
  const { tools } = await client.listTools();
  const schema = tools.find((t) => t.name === "present_pdf")!.outputSchema as { properties: Record<string, Record<string, unknown>> };
  expect(schema.properties.totalSlides).toEqual({ type: "integer", minimum: 1, description: "Number of slides (pages) of the staged deck." });
  expect(schema.properties.bytes?.type).toBe("integer");
  expect(schema.properties.sha256?.pattern).toBe("^[0-9a-f]{64}$");
  expect(JSON.stringify(schema)).not.toContain('"format":"integer"');
});
