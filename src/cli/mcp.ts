/**
 * @module cli/mcp
 * `deckhand mcp`: the MCP tools over stdio for desktop agents (Claude Desktop, Cursor, …).
 * stdout carries only the protocol; anything for people goes to stderr.
 */
import { parseArgs } from "node:util";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ConfigError, DEFAULTS } from "../config.ts";
import { jsonLogger } from "../log.ts";
import { remoteBackend } from "../mcp/remote-backend.ts";
import { createMcpServer } from "../mcp/server.ts";
import { DEFAULT_SERVER } from "./present.ts";

const MB = 1024 * 1024;

export const MCP_USAGE = `Usage: deckhand mcp [--server URL] [--token TOKEN] [--max-upload-mb N]
  Serves the MCP tools present_pdf and check_pdf over stdio. present_pdf stages decks through
  the deckhand server at --server (default ${DEFAULT_SERVER}, or DECKHAND_SERVER); --token (or
  DECKHAND_TOKEN) gives its links the 7-day lifetime. check_pdf runs locally; --max-upload-mb
  (default ${DEFAULTS.maxUploadMb}) caps the PDFs it reads.`;

export async function runMcpCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { server: { type: "string" }, token: { type: "string" }, "max-upload-mb": { type: "string" } },
    allowPositionals: false,
    strict: true,
  });
  const serverUrl = (values.server ?? process.env.DECKHAND_SERVER ?? DEFAULT_SERVER).replace(/\/+$/, "");
  try {
    const url = new URL(serverUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("scheme");
  } catch {
    throw new ConfigError(`--server must be an http(s) URL, got "${serverUrl}".\n${MCP_USAGE}`);
  }
  const rawMb = values["max-upload-mb"] ?? process.env.DECKHAND_MAX_UPLOAD_MB;
  const mb = rawMb === undefined || rawMb === "" ? DEFAULTS.maxUploadMb : Number(rawMb);
  if (!Number.isFinite(mb) || mb <= 0) throw new ConfigError(`--max-upload-mb must be a positive number, got "${rawMb}".`);
  const maxUploadBytes = Math.floor(mb * MB);

  // Logs go to stderr: stdout belongs to the protocol.
  const logger = jsonLogger((line) => process.stderr.write(line));
  const server = createMcpServer({
    surface: { kind: "stdio", maxUploadBytes, serverUrl },
    logger,
    backend: remoteBackend({ serverUrl, token: values.token ?? process.env.DECKHAND_TOKEN ?? null, maxUploadBytes }),
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    // The agent ends the session by closing our stdin.
    process.stdin.once("end", () => void server.close());
    process.stdin.once("close", () => void server.close());
  });
  await server.connect(transport);
  await closed;
  return 0;
}
