import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import type { Logger } from "../../src/base/log.ts";
import { makeDeck } from "../fixtures/pdfs.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { base64 } from "./helpers.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (2.2 s).
setDefaultTimeout(30_000);

let t: TestApp;
afterEach(() => t?.close());

test("an unexpected failure in a tool over /mcp is INTERNAL carrying the response's request id; details only in the log", async () => {
  const logged: Record<string, unknown>[] = [];
  const logger: Logger = { info() {}, error: (event, fields) => logged.push({ event, ...fields }) };
  t = makeTestApp({}, { logger });
  t.deps.blobs.createTemp = () => {
    throw new Error("ENOSPC: no space left on device, open '/srv/deckhand/staged/x.tmp'");
  };
  // Stateless: a tools/call needs no prior initialize on the same connection.
  const res = await t.handle("/mcp", {
    method: "POST",
    headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "present_pdf", arguments: { pdf_base64: base64(await makeDeck({ pages: 1 })) } } }),
  });
  expect(res.status).toBe(200);
  const requestId = res.headers.get("x-request-id");
  expect(requestId).toMatch(/^[0-9a-f]{16}$/);
  const body = (await res.json()) as { id: number; result: { isError: boolean; content: { text: string }[] } };
  expect(body.id).toBe(7);
  expect(body.result.isError).toBe(true);
  expect(body.result.content[0]!.text).toBe(`INTERNAL: Something went wrong in deckhand; try again, and report request id ${requestId} if it persists.`);
  expect(logged).toEqual([expect.objectContaining({ event: "mcp_tool_failed", requestId, message: expect.stringContaining("ENOSPC") })]);
});
