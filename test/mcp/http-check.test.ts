import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { buildFixturePdf, GIF_BYTES, mediaSidecar, notesSidecar } from "../fixtures/sidecar-builder.ts";
import { expectValidReport } from "../helpers/report-schema.ts";
import { base64, makeAjv, type McpTestServer, startMcpTestServer, textOf } from "./helpers.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (11 s).
setDefaultTimeout(120_000);

let s: McpTestServer;
let client: Client;
beforeAll(async () => {
  s = await startMcpTestServer();
  client = await s.connect();
});
afterAll(() => s.close());
// check_pdf stores nothing: no staged deck, no temp file.
afterEach(() => expect(s.stagedFiles()).toEqual([]));

type Report = Record<string, unknown> & { ok: boolean; summary: Record<string, number>; pages: { page: number; presenterNotes: { text: string } | null }[] };

async function checkOverMcp(pdf: Uint8Array): Promise<{ result: CallToolResult; report: Report }> {
  const result = (await client.callTool({ name: "check_pdf", arguments: { pdf_base64: base64(pdf) } })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  return { result, report: result.structuredContent as Report };
}

async function checkOverRest(pdf: Uint8Array): Promise<unknown> {
  const form = new FormData();
  form.append("file", new Blob([pdf as BlobPart], { type: "application/pdf" }), "deck.pdf");
  const res = await fetch(`${s.url}/api/check`, { method: "POST", body: form });
  expect(res.status).toBe(200);
  return res.json();
}

describe("check_pdf over /mcp", () => {
  test("a deck with valid notes and media sidecars: ok, and the report validates against the check-report schema", async () => {
    const pdf = await buildFixturePdf({
      pages: 3,
      title: "Q3 review",
      attachments: [
        notesSidecar(1, "Welcome **everyone**"),
        notesSidecar(3, [{ func: "text", text: "Thanks" }]),
        mediaSidecar(2, "loop", { kind: "file", mime: "image/gif", filename: "media-loop.gif" }),
        { name: "media-loop.gif", data: GIF_BYTES, mime: "image/gif", checksum: "correct" },
      ],
    });
    const { result, report } = await checkOverMcp(pdf);
    expectValidReport(report);
    expect(report.ok).toBe(true);
    expect(report.summary).toEqual({ total: 4, valid: 4, warning: 0, invalid: 0 });
    expect(report.pages.map((p) => p.presenterNotes?.text ?? null)).toEqual(["Welcome **everyone**", null, "Thanks"]);
    expect(textOf(result)).toBe("OK: nothing invalid. 3 pages, 4 attachments (4 valid, 0 with warnings, 0 invalid).");
    // The same object POST /api/check returns for the same bytes: one domain code path.
    expect(await checkOverRest(pdf)).toEqual(report);
  });

  test("a deck with broken sidecars: not ok, and the text lists the errors with their codes first", async () => {
    const pdf = await buildFixturePdf({
      pages: 2,
      attachments: [
        notesSidecar(5, "No such slide"),
        { name: "notes-slide-1.json", data: "{ not json", mime: "application/json" },
        { name: "readme.txt", data: "hello", mime: "text/plain" },
      ],
    });
    const { result, report } = await checkOverMcp(pdf);
    expectValidReport(report);
    expect(report.ok).toBe(false);
    expect(report.summary.invalid).toBeGreaterThanOrEqual(2);
    const text = textOf(result);
    expect(text).toStartWith("NOT OK: ");
    const lines = text.split("\n").slice(1);
    expect(lines.some((l) => l.startsWith("- error SLIDE_OUT_OF_RANGE: notes-slide-5.json: "))).toBe(true);
    expect(lines.some((l) => l.startsWith("- error INVALID_JSON: notes-slide-1.json: "))).toBe(true);
    expect(lines.some((l) => l.startsWith("- warning UNKNOWN_ATTACHMENT: readme.txt: "))).toBe(true);
    // Errors come before warnings.
    const firstWarning = lines.findIndex((l) => l.startsWith("- warning"));
    const lastError = lines.findLastIndex((l) => l.startsWith("- error"));
    expect(lastError).toBeLessThan(firstWarning);
    expect(await checkOverRest(pdf)).toEqual(report);
  });

  test("a deck with no attachments says so", async () => {
    const { result, report } = await checkOverMcp(await buildFixturePdf({ pages: 1 }));
    expectValidReport(report);
    expect(textOf(result)).toBe("OK: no notes or media attachments found. 1 page, 0 attachments (0 valid, 0 with warnings, 0 invalid).");
  });

  test("check_pdf's published outputSchema is the check-report schema and compiles in a draft-07 client validator", async () => {
    const { tools } = await client.listTools();
    const schema = tools.find((t) => t.name === "check_pdf")!.outputSchema as Record<string, unknown>;
    expect(schema.$schema).toBeUndefined();
    expect(schema.required).toContain("summary");
    expect(Object.keys(schema.properties as object)).toEqual(expect.arrayContaining(["ok", "pageCount", "summary", "pages", "orphans", "document"]));
    const validate = makeAjv().compile(schema);
    const { report } = await checkOverMcp(await buildFixturePdf({ pages: 2, attachments: [notesSidecar(2, "x")] }));
    expect(validate(report)).toBe(true);
    expect(validate({ ...report, ok: "yes" })).toBe(false);
  });
});
