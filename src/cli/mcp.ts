/**
 * @module cli/mcp
 * `deckhand mcp`: the MCP tools over stdio for desktop agents (Claude Desktop, Cursor, …).
 * stdout carries only the protocol; anything for people goes to stderr.
 */
import { parseArgs } from "node:util";
import { DEFAULTS, parseMaxUploadBytes } from "../base/config.ts";
import { jsonLogger } from "../base/log.ts";
import { PdfPool } from "../pdf/worker/pool.ts";
import { DEFAULT_SERVER, resolveServerTarget } from "./server-target.ts";

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
  const { serverUrl, token } = resolveServerTarget(values, MCP_USAGE);
  // The same flag, bounds and message as `deckhand serve --max-upload-mb`.
  const maxUploadBytes = parseMaxUploadBytes(values["max-upload-mb"] ?? process.env.DECKHAND_MAX_UPLOAD_MB);

  // The MCP SDK (and its zod schemas) load only for this command, never at every start-up.
  const [{ StdioServerTransport }, { remoteBackend }, { createMcpServer }] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/stdio.js"),
    import("../mcp/remote-backend.ts"),
    import("../mcp/server.ts"),
  ]);
  // Logs go to stderr: stdout belongs to the protocol.
  const logger = jsonLogger((line) => process.stderr.write(line));
  const server = createMcpServer({
    surface: { kind: "stdio", maxUploadBytes, serverUrl },
    logger,
    // One reader process beside a desktop agent: checks run one at a time, off the protocol loop.
    backend: remoteBackend({ serverUrl, token, maxUploadBytes, pdf: new PdfPool({ workers: 1 }) }),
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
