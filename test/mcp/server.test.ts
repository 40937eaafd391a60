import { expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../../src/base/log.ts";
import { createMcpServer, type ToolBackend } from "../../src/mcp/server.ts";
import type { CheckReport } from "../../src/deck/check-report.gen.ts";
import { describeCheckReport } from "../../src/mcp/summary.ts";
import { textOf } from "./helpers.ts";

async function connect(backend: ToolBackend, logger: Logger) {
  const server = createMcpServer({ surface: { kind: "http", maxUploadBytes: 1024 }, backend, logger, requestId: "req-42" });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "unit", version: "0" });
  await client.connect(b);
  return client;
}

test("an unexpected failure is INTERNAL with the request id; its details reach only the log", async () => {
  const logged: { event: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = { info() {}, error: (event, fields) => logged.push({ event, fields }) };
  const client = await connect(
    {
      presentPdf: async () => {
        throw new Error("EACCES: permission denied, open '/srv/deckhand/staged/x.tmp'");
      },
      checkPdf: async () => ({}) as CheckReport,
    },
    logger,
  );
  const result = (await client.callTool({ name: "present_pdf", arguments: { pdf_base64: "JVBERi0xLjcK" } })) as CallToolResult;
  expect(result.isError).toBe(true);
  const text = textOf(result);
  expect(text).toBe("INTERNAL: Something went wrong in deckhand; try again, and report request id req-42 if it persists.");
  expect(text).not.toContain("/srv");
  expect(logged).toHaveLength(1);
  expect(logged[0]!.event).toBe("mcp_tool_failed");
  expect(logged[0]!.fields).toMatchObject({ requestId: "req-42", message: expect.stringContaining("EACCES") });
  await client.close();
});

test("the check summary lists errors before warnings and caps the list", () => {
  const issues = Array.from({ length: 30 }, (_, i) => ({ level: i % 2 ? "error" : "warning", code: `C${i}`, message: `m${i}` }));
  // Only what the summary reads; the rest of a report does not change it.
  const text = describeCheckReport({
    ok: false,
    pageCount: 2,
    summary: { total: 1, valid: 0, warning: 0, invalid: 1 },
    pages: [{ page: 1, notes: { filename: "notes-slide-1.json", issues }, media: [], issues: [{ level: "warning", code: "P", message: "page" }] }],
    orphans: [],
    documentAttachments: [],
    issues: [],
  } as unknown as CheckReport);
  const lines = text.split("\n");
  expect(lines[0]).toBe("NOT OK: some attachments are invalid and will be ignored when presenting. 2 pages, 1 attachment (0 valid, 0 with warnings, 1 invalid).");
  expect(lines.slice(1, 16).every((l) => l.startsWith("- error C"))).toBe(true);
  expect(lines[1]).toBe("- error C1: notes-slide-1.json: m1");
  expect(lines).toHaveLength(1 + 20 + 1);
  expect(lines.at(-1)).toBe("… and 11 more in the structured report.");
});
