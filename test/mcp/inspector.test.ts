/**
 * The official MCP Inspector CLI (pinned devDependency, run from node_modules — never
 * downloaded) against a real listening server: what a user debugging their setup would run.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeDeck } from "../fixtures/pdfs.ts";
import { base64, type McpTestServer, startMcpTestServer } from "./helpers.ts";

// The timeout of each test and hook here: 30 s for its hooks, which start a server (its tests set their own).
setDefaultTimeout(30_000);

const INSPECTOR = join(import.meta.dir, "..", "..", "node_modules", ".bin", "mcp-inspector");

let s: McpTestServer;
/** HOME and catalog of the Inspector: it writes a catalog file, never into the real home. */
let home: string;
beforeAll(async () => {
  if (!existsSync(INSPECTOR)) throw new Error(`${INSPECTOR} is missing: npm install (it is a pinned devDependency).`);
  s = await startMcpTestServer();
  home = mkdtempSync(join(tmpdir(), "deckhand-inspector-"));
});
afterAll(async () => {
  await s.close();
  rmSync(home, { recursive: true, force: true });
});

async function inspector(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([INSPECTOR, "--cli", `${s.url}/mcp`, ...args], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, MCP_CATALOG_PATH: join(home, "catalog.json") },
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => proc.kill(), 60_000);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

test("Inspector CLI tools/list shows both tools with schemas and annotations", async () => {
  const { code, stdout, stderr } = await inspector("--method", "tools/list");
  expect(stderr).not.toContain("Error");
  expect(code).toBe(0);
  const { tools } = JSON.parse(stdout) as { tools: { name: string; inputSchema: { required?: string[] }; outputSchema?: { type: string }; annotations?: Record<string, boolean> }[] };
  expect(tools.map((t) => t.name)).toEqual(["present_pdf", "check_pdf"]);
  for (const tool of tools) {
    expect(tool.inputSchema.required).toEqual(["pdf_base64"]);
    expect(tool.outputSchema?.type).toBe("object");
  }
  expect(tools[1]!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
}, 90_000);

test("Inspector CLI tools/call present_pdf returns the handoff record; check_pdf returns a report", async () => {
  const present = await inspector("--method", "tools/call", "--tool-name", "present_pdf", "--tool-arg", `pdf_base64=${base64(await makeDeck({ pages: 2 }))}`, "filename=Inspector demo.pdf");
  expect(present.code).toBe(0);
  const result = JSON.parse(present.stdout) as { isError?: boolean; structuredContent: { url: string; filename: string; totalSlides: number }; content: { text: string }[] };
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toMatchObject({ filename: "Inspector demo", totalSlides: 2 });
  expect(result.structuredContent.url).toStartWith(`${s.url}/start/`);
  expect(result.content[0]!.text).toContain(result.structuredContent.url);
  expect(s.stagedFiles()).toHaveLength(1);

  const check = await inspector("--method", "tools/call", "--tool-name", "check_pdf", "--tool-arg", `pdf_base64=${base64(await makeDeck({ pages: 1 }))}`);
  expect(check.code).toBe(0);
  const report = JSON.parse(check.stdout) as { structuredContent: { ok: boolean; pageCount: number } };
  expect(report.structuredContent).toMatchObject({ ok: true, pageCount: 1 });
}, 90_000);

test("Inspector CLI tools/call with bad input shows the isError result with its code", async () => {
  const { stdout } = await inspector("--method", "tools/call", "--tool-name", "check_pdf", "--tool-arg", "pdf_base64=not*base64");
  const result = JSON.parse(stdout) as { isError: boolean; content: { text: string }[] };
  expect(result.isError).toBe(true);
  expect(result.content[0]!.text).toStartWith("BAD_REQUEST: pdf_base64 is not valid base64");
}, 90_000);
