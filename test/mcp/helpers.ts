/**
 * A real listening deckhand server (127.0.0.1, port 0, own temp data dir) and an MCP client
 * connected to its /mcp with the SDK's Streamable HTTP transport.
 */
import { expect } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { type Config, testConfig } from "../../src/base/config.ts";
import { HandoffRecord } from "../../src/http/models.ts";
import { silentLogger } from "../../src/base/log.ts";
import { type RunningServer, startServer } from "../../src/server.ts";
import { testPdfReader } from "../helpers/app.ts";

export interface McpTestServer {
  running: RunningServer;
  url: string;
  dataDir: string;
  /** Files in staged/ (PDFs and any .tmp leftovers). */
  stagedFiles(): string[];
  connect(token?: string): Promise<Client>;
  close(): Promise<void>;
}

export async function startMcpTestServer(overrides: Partial<Config> = {}): Promise<McpTestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "deckhand-mcp-"));
  const running = await startServer(testConfig({ dataDir, port: 0, host: "127.0.0.1", rateLimit: 0, ...overrides }), { logger: silentLogger, pdf: testPdfReader() });
  const clients: Client[] = [];
  return {
    running,
    url: running.url,
    dataDir,
    stagedFiles: () => readdirSync(join(dataDir, "staged")).sort(),
    connect: async (token) => {
      const client = await connectHttp(`${running.url}/mcp`, token);
      clients.push(client);
      return client;
    },
    close: async () => {
      for (const client of clients) await client.close().catch(() => {});
      await running.shutdown();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function connectHttp(url: string, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
  });
  const client = new Client({ name: "deckhand-test", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

/** The one text block of a tool result. */
export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  if (content.length !== 1 || content[0]?.type !== "text") throw new Error(`expected one text block, got ${JSON.stringify(content)}`);
  return content[0].text;
}

/** Ajv as a careful client would use it: all errors, formats checked. */
export function makeAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv;
}

/** Validator of the REST API's HandoffRecord schema (the one /openapi.json publishes). */
export function handoffRecordValidator() {
  return makeAjv().compile(JSON.parse(JSON.stringify(HandoffRecord)));
}

/** A tool result that is an error whose text starts with `code`; returns the text. */
export function expectToolError(result: unknown, code: string): string {
  const r = result as CallToolResult;
  expect(r.isError).toBe(true);
  const text = textOf(r);
  expect(text).toStartWith(`${code}: `);
  return text;
}
