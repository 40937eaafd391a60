/**
 * `deckhand mcp` over stdio, as a desktop agent runs it: the compiled binary spawned through
 * the SDK's StdioClientTransport, staging through a real `deckhand serve` (also the binary).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { makeDeck, makeEncryptedDeck } from "../fixtures/pdfs.ts";
import { buildFixturePdf, notesSidecar } from "../fixtures/sidecar-builder.ts";
import { expectValidReport } from "../helpers/report-schema.ts";
import { pptxFile, zipBombPptx } from "../http/notes-fixtures.ts";
import { BINARY, type BinaryServer, freePort, startBinary } from "../helpers/server.ts";
import { base64, expectToolError, handoffRecordValidator, textOf } from "./helpers.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (5.4 s).
setDefaultTimeout(60_000);

const DAY = 86_400_000;

let server: BinaryServer;
/** The stdio process's TMPDIR: must be empty after every call. */
let childTmp: string;
/** Where the test's own input files live. */
let files: string;
const clients: Client[] = [];

async function spawnMcp(args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: BINARY,
    args: ["mcp", ...args],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", TMPDIR: childTmp },
    cwd: files,
    stderr: "pipe",
  });
  const client = new Client({ name: "deckhand-stdio-test", version: "0.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

function claim(record: { id: string; url: string }) {
  const token = new URL(record.url).hash.slice(3);
  return { token, download: () => fetch(`${server.url}/api/sessions/${record.id}/handoff?t=${token}`) };
}

beforeAll(async () => {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run \`bun run scripts/build.ts\` first.`);
  server = await startBinary();
  childTmp = mkdtempSync(join(tmpdir(), "deckhand-stdio-tmp-"));
  files = mkdtempSync(join(tmpdir(), "deckhand-stdio-files-"));
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await server.stop();
  server.cleanup();
  rmSync(childTmp, { recursive: true, force: true });
  rmSync(files, { recursive: true, force: true });
});

describe("deckhand mcp (compiled binary, stdio)", () => {
  let client: Client;
  beforeAll(async () => {
    client = await spawnMcp(["--server", server.url]);
  });

  test("lists both tools; over stdio they take path or pdf_base64", async () => {
    expect(client.getServerVersion()?.name).toBe("deckhand");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["check_pdf", "present_pdf"]);
    const present = tools.find((t) => t.name === "present_pdf")!;
    expect(Object.keys(present.inputSchema.properties ?? {}).sort()).toEqual(["filename", "notes_base64", "notes_filename", "notes_path", "path", "pdf_base64"]);
    expect(present.inputSchema.required ?? []).toEqual([]);
    expect(present.description).toContain(server.url);
    expect(present.outputSchema?.required).toContain("url");
    const check = tools.find((t) => t.name === "check_pdf")!;
    expect(Object.keys(check.inputSchema.properties ?? {}).sort()).toEqual(["notes_base64", "notes_filename", "notes_path", "path", "pdf_base64"]);
    expect(check.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
  });

  test("present_pdf with a local path stages through the running server; the link is claimed over REST", async () => {
    const bytes = await makeDeck({ pages: 3 });
    writeFileSync(join(files, "Launch plan.pdf"), bytes);
    // Relative to where `deckhand mcp` runs.
    const result = (await client.callTool({ name: "present_pdf", arguments: { path: "Launch plan.pdf" } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const record = result.structuredContent as { id: string; url: string; filename: string; totalSlides: number; expiresAt: string; sha256: string };
    expect(handoffRecordValidator()(record)).toBe(true);
    expect(record.filename).toBe("Launch plan");
    expect(record.totalSlides).toBe(3);
    expect(record.url).toStartWith(`${server.url}/start/${record.id}#t=`);
    expect(textOf(result)).toContain(record.url);
    expect(Date.parse(record.expiresAt) - Date.now()).toBeLessThanOrEqual(DAY);

    const { token, download } = claim(record);
    const res = await download();
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    const done = await fetch(`${server.url}/api/sessions/${record.id}/handoff/complete`, {
      method: "POST",
      headers: { "x-controller-token": token, "content-type": "application/json" },
      body: JSON.stringify({ sha256: record.sha256 }),
    });
    expect(done.status).toBe(200);
    expect(existsSync(join(server.dataDir, "staged", `${record.id}.pdf`))).toBe(false);
    expect((await download()).status).toBe(410);
  });

  test("present_pdf with pdf_base64 and a filename works the same", async () => {
    const bytes = await makeDeck({ pages: 2 });
    const result = (await client.callTool({ name: "present_pdf", arguments: { pdf_base64: base64(bytes), filename: "Board.pdf" } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const record = result.structuredContent as { id: string; url: string; filename: string; bytes: number };
    expect(record.filename).toBe("Board");
    expect(record.bytes).toBe(bytes.length);
    expect((await claim(record).download()).status).toBe(200);
  });

  test("check_pdf runs locally on a path and on base64; reports validate; no temp file is left", async () => {
    const pdf = await buildFixturePdf({ pages: 2, attachments: [notesSidecar(2, "Closing words"), notesSidecar(9, "nowhere")] });
    writeFileSync(join(files, "notes.pdf"), pdf);
    const byPath = (await client.callTool({ name: "check_pdf", arguments: { path: join(files, "notes.pdf") } })) as CallToolResult;
    const byBytes = (await client.callTool({ name: "check_pdf", arguments: { pdf_base64: base64(pdf) } })) as CallToolResult;
    for (const result of [byPath, byBytes]) {
      expect(result.isError).toBeFalsy();
      expectValidReport(result.structuredContent);
      expect((result.structuredContent as { ok: boolean }).ok).toBe(false);
      expect(textOf(result)).toContain("SLIDE_OUT_OF_RANGE: notes-slide-9.json");
    }
    expect(byBytes.structuredContent).toEqual(byPath.structuredContent);
    expect(readdirSync(childTmp)).toEqual([]);
  });

  test("a notes file by notes_path: present sends it to the server (notes route), check reads it locally; bad ones are coded", async () => {
    writeFileSync(join(files, "talk.pdf"), await makeDeck({ pages: 3 }));
    writeFileSync(join(files, "talk.pptx"), pptxFile({ slides: ["Open with the story", null, "Thank the team"] }));
    const presented = (await client.callTool({ name: "present_pdf", arguments: { path: "talk.pdf", notes_path: "talk.pptx" } })) as CallToolResult;
    expect(presented.isError).toBeFalsy();
    const record = presented.structuredContent as { id: string; url: string; notes?: { filename: string; kind: string; slides: number } };
    expect(handoffRecordValidator()(record)).toBe(true);
    expect(record.notes).toMatchObject({ filename: "talk.pptx", kind: "pptx", slides: 2 });
    const notes = await fetch(`${server.url}/api/sessions/${record.id}/notes`, { headers: { "x-controller-token": claim(record).token } });
    expect(notes.status).toBe(200);
    expect(JSON.stringify(await notes.json())).toContain("Thank the team");

    // check reads the file where it is, and base64 through a temp file that goes again.
    const byPath = (await client.callTool({ name: "check_pdf", arguments: { path: "talk.pdf", notes_path: join(files, "talk.pptx") } })) as CallToolResult;
    const byBytes = (await client.callTool({
      name: "check_pdf",
      arguments: { path: "talk.pdf", notes_base64: base64(pptxFile({ slides: ["Open with the story", null, "Thank the team"] })), notes_filename: "talk.pptx" },
    })) as CallToolResult;
    for (const result of [byPath, byBytes]) {
      expect(result.isError).toBeFalsy();
      expectValidReport(result.structuredContent);
      expect((result.structuredContent as { notesFile?: { filename: string; kind: string } }).notesFile).toMatchObject({ filename: "talk.pptx", kind: "pptx" });
    }
    expect(readdirSync(childTmp)).toEqual([]);

    writeFileSync(join(files, "bomb.pptx"), zipBombPptx());
    expectToolError(await client.callTool({ name: "present_pdf", arguments: { path: "talk.pdf", notes_path: "bomb.pptx" } }), "NOTES_FILE_UNREADABLE");
    expect(expectToolError(await client.callTool({ name: "present_pdf", arguments: { path: "talk.pdf", notes_path: "nope.pptx" } }), "FILE_MISSING")).toContain("notes file");
    expectToolError(await client.callTool({ name: "check_pdf", arguments: { path: "talk.pdf", notes_path: "talk.pptx", notes_base64: "AAAA" } }), "BAD_REQUEST");
    expect(readdirSync(childTmp)).toEqual([]);
    expect(readdirSync(join(server.dataDir, "staged")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  test("errors: missing file, both or neither input, not a PDF, encrypted — each a code and a sentence", async () => {
    expect(expectToolError(await client.callTool({ name: "present_pdf", arguments: { path: join(files, "nope.pdf") } }), "FILE_MISSING")).toContain("nope.pdf");
    expectToolError(await client.callTool({ name: "check_pdf", arguments: { path: files } }), "FILE_MISSING");
    expectToolError(await client.callTool({ name: "check_pdf", arguments: { path: "x.pdf", pdf_base64: "JVBERi0=" } }), "BAD_REQUEST");
    expect(expectToolError(await client.callTool({ name: "present_pdf", arguments: {} }), "BAD_REQUEST")).toContain("path");
    expectToolError(await client.callTool({ name: "check_pdf", arguments: { pdf_base64: "%%%" } }), "BAD_REQUEST");
    writeFileSync(join(files, "slides.pdf"), "<html>not a pdf</html>");
    expectToolError(await client.callTool({ name: "check_pdf", arguments: { path: join(files, "slides.pdf") } }), "NOT_A_PDF");
    // present relays the server's problem code and sentence.
    expectToolError(await client.callTool({ name: "present_pdf", arguments: { path: join(files, "slides.pdf") } }), "NOT_A_PDF");
    expectToolError(await client.callTool({ name: "present_pdf", arguments: { pdf_base64: base64(await makeEncryptedDeck()) } }), "PDF_ENCRYPTED");
    expect(readdirSync(childTmp)).toEqual([]);
    expect(readdirSync(join(server.dataDir, "staged")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});

describe("deckhand mcp: server and token", () => {
  test("present_pdf says clearly when no server answers at --server; check_pdf still works", async () => {
    const deadUrl = `http://127.0.0.1:${await freePort()}`;
    const client = await spawnMcp(["--server", deadUrl]);
    const text = expectToolError(await client.callTool({ name: "present_pdf", arguments: { pdf_base64: base64(await makeDeck()) } }), "SERVER_UNAVAILABLE");
    expect(text).toContain(deadUrl);
    expect(text).toContain("deckhand serve");
    const check = (await client.callTool({ name: "check_pdf", arguments: { pdf_base64: base64(await makeDeck()) } })) as CallToolResult;
    expect(check.isError).toBeFalsy();
  });

  test("--token gives 7-day links; an unknown token is relayed as UNAUTHORIZED", async () => {
    const created = Bun.spawnSync([BINARY, "token", "create", "--label", "desktop", "--data-dir", server.dataDir], { stdout: "pipe", stderr: "pipe" });
    expect(created.exitCode).toBe(0);
    const token = created.stdout.toString().trim().split("\n").find((l) => l.startsWith("dh_"))!;
    expect(token).toStartWith("dh_");
    const authed = await spawnMcp(["--server", server.url, "--token", token]);
    const ok = (await authed.callTool({ name: "present_pdf", arguments: { pdf_base64: base64(await makeDeck()) } })) as CallToolResult;
    expect(ok.isError).toBeFalsy();
    expect(Date.parse((ok.structuredContent as { expiresAt: string }).expiresAt) - Date.now()).toBeGreaterThan(7 * DAY - 120_000);

    const bad = await spawnMcp(["--server", server.url, "--token", "dh_wrong"]);
    expect(expectToolError(await bad.callTool({ name: "present_pdf", arguments: { pdf_base64: base64(await makeDeck()) } }), "UNAUTHORIZED")).toContain("token");
  });
});
