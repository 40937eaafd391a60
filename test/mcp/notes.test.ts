/**
 * The MCP tools with a notes file beside the PDF over /mcp: present_pdf and
 * check_pdf take `notes_base64` + `notes_filename`, as REST takes the `notes` part, with the
 * same coded failures, and nothing left behind.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { makeDeck } from "../fixtures/pdfs.ts";
import { expectValidReport } from "../helpers/report-schema.ts";
import { billionLaughsPptx, pdfpcFile, pptxFile } from "../http/notes-fixtures.ts";
import { base64, expectToolError, handoffRecordValidator, type McpTestServer, startMcpTestServer, textOf } from "./helpers.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (5.6 s).
setDefaultTimeout(60_000);

let s: McpTestServer;
let client: Client;
beforeAll(async () => {
  // A small upload limit: the notes file's limit follows it (never more than the PDF's).
  s = await startMcpTestServer({ maxUploadBytes: 256 * 1024 });
  client = await s.connect();
});
afterAll(() => s.close());
// Only staged decks stay: never a temp file of either input.
afterEach(() => expect(s.stagedFiles().filter((f) => !f.endsWith(".pdf"))).toEqual([]));

type Record_ = { id: string; url: string; next: string; notes?: { filename: string; kind: string; slides: number; warnings: Array<{ code: string; message: string }> } };

describe("present_pdf with notes_base64", () => {
  test("a .pptx: staged with the deck, in the record and its text, served by the notes route", async () => {
    const pdf = await makeDeck({ pages: 3 });
    const result = (await client.callTool({
      name: "present_pdf",
      arguments: { pdf_base64: base64(pdf), filename: "Talk.pdf", notes_base64: base64(pptxFile({ slides: ["Open with a story", null, "Thank the team"] })), notes_filename: "Talk.pptx" },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const record = result.structuredContent as Record_;
    expect(handoffRecordValidator()(record)).toBe(true);
    expect(record.notes).toEqual({ filename: "Talk.pptx", kind: "pptx", slides: 2, warnings: [] });
    expect(textOf(result)).toContain('with speaker notes from "Talk.pptx"');
    const token = new URL(record.url).hash.slice(3);
    const notes = await fetch(`${s.url}/api/sessions/${record.id}/notes`, { headers: { "x-controller-token": token } });
    expect(notes.status).toBe(200);
    const doc = (await notes.json()) as { pdfpcFormat: number; pages: Array<{ idx: number; note?: string }> };
    expect(doc.pdfpcFormat).toBe(2);
    expect(doc.pages.filter((p) => p.note).map((p) => p.idx)).toEqual([0, 2]);
    expect(s.stagedFiles()).toEqual([`${record.id}.pdf`]);
  });

  test("a .pdfpc without notes_filename goes by 'notes'; a count mismatch is a warning in the record", async () => {
    const result = (await client.callTool({
      name: "present_pdf",
      arguments: { pdf_base64: base64(await makeDeck({ pages: 1 })), notes_base64: base64(pdfpcFile({ 1: "hi" })) },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as Record_).notes).toMatchObject({ filename: "notes", kind: "pdfpc", slides: 1 });
    const mismatch = (await client.callTool({
      name: "present_pdf",
      arguments: { pdf_base64: base64(await makeDeck({ pages: 1 })), notes_base64: base64(pptxFile({ slides: ["a", "b", "c"] })), notes_filename: "three.pptx" },
    })) as CallToolResult;
    expect(mismatch.isError).toBeFalsy();
    expect((mismatch.structuredContent as Record_).notes!.warnings.length).toBeGreaterThan(0);
  });

  test("bad notes input: each a coded failure, nothing staged", async () => {
    const pdf_base64 = base64(await makeDeck({ pages: 2 }));
    const before = s.stagedFiles();
    expectToolError(await client.callTool({ name: "present_pdf", arguments: { pdf_base64, notes_base64: base64(billionLaughsPptx()), notes_filename: "lol.pptx" } }), "NOTES_FILE_UNREADABLE");
    expectToolError(await client.callTool({ name: "present_pdf", arguments: { pdf_base64, notes_base64: base64(crypto.getRandomValues(new Uint8Array(500))) } }), "NOTES_FILE_UNREADABLE");
    expect(expectToolError(await client.callTool({ name: "present_pdf", arguments: { pdf_base64, notes_base64: base64(new Uint8Array(300 * 1024)) } }), "NOTES_FILE_TOO_LARGE")).toContain("0.25 MB");
    expect(expectToolError(await client.callTool({ name: "present_pdf", arguments: { pdf_base64, notes_base64: "%%%" } }), "BAD_REQUEST")).toContain("notes_base64");
    expect(expectToolError(await client.callTool({ name: "present_pdf", arguments: { pdf_base64, notes_filename: "talk.pptx" } }), "BAD_REQUEST")).toContain("notes_base64");
    expect(expectToolError(await client.callTool({ name: "present_pdf", arguments: { pdf_base64, notes_path: "/home/me/talk.pptx" } }), "BAD_REQUEST")).toContain("notes_base64");
    expect(s.stagedFiles()).toEqual(before);
  });
});

describe("check_pdf with notes_base64", () => {
  test("the notes file's findings are in the report; a broken one is a finding, not a failure", async () => {
    const pdf_base64 = base64(await makeDeck({ pages: 2 }));
    const good = (await client.callTool({ name: "check_pdf", arguments: { pdf_base64, notes_base64: base64(pdfpcFile({ 2: "Closing" })), notes_filename: "talk.pdfpc" } })) as CallToolResult;
    expect(good.isError).toBeFalsy();
    expectValidReport(good.structuredContent);
    expect((good.structuredContent as { notesFile?: { filename: string; kind: string } }).notesFile).toMatchObject({ filename: "talk.pdfpc", kind: "pdfpc" });
    const bad = (await client.callTool({ name: "check_pdf", arguments: { pdf_base64, notes_base64: base64(billionLaughsPptx()), notes_filename: "lol.pptx" } })) as CallToolResult;
    expect(bad.isError).toBeFalsy();
    expectValidReport(bad.structuredContent);
    const report = bad.structuredContent as { ok: boolean; notesFile?: { validity: string; issues: Array<{ code: string }> } };
    expect(report.ok).toBe(false);
    expect(report.notesFile?.validity).toBe("invalid");
    // Agents that read only the text see the notes file's errors too.
    expect(textOf(bad)).toContain(report.notesFile!.issues[0]!.code);
    expectToolError(await client.callTool({ name: "check_pdf", arguments: { pdf_base64, notes_base64: base64(new Uint8Array(300 * 1024)) } }), "NOTES_FILE_TOO_LARGE");
  });
});
