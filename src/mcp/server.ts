/**
 * @module mcp/server
 * One MCP server over a `ToolBackend`: the protocol, input checking and error reporting are
 * here; where the bytes go (this server's handoff store, or a remote server over REST) is
 * the backend's job.
 *
 * Built on the SDK's low-level `Server` rather than `McpServer`: `McpServer` only publishes
 * schemas it derives from zod, while the tools must publish the very JSON Schemas the REST
 * API serves (HandoffRecord, check-report.schema.json) so the two cannot drift apart.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type CallToolResult, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { AppError, isAppError } from "../base/errors.ts";
import type { CheckReport } from "../shared/check-report.ts";
import type { HandoffRecord } from "../shared/handoff-record.ts";
import type { Logger } from "../base/log.ts";
import { errorFields } from "../base/log.ts";
import { VERSION } from "../binary/version.ts";
import { notesFileLimit } from "../tools/upload-limits.ts";
import { decodeNotesBase64, decodePdfBase64 } from "./base64.ts";
import { describeCheckReport, describeHandoff } from "./summary.ts";
import { CHECK_PDF, checkInput, PRESENT_PDF, presentInput, type ToolSurface, toolList } from "./tools.ts";

export const SERVER_NAME = "deckhand";

/** What a tool was given: decoded bytes, or (stdio only) a local file. */
export type PdfSource = { kind: "bytes"; bytes: Uint8Array } | { kind: "path"; path: string };

/** A notes file beside the PDF, as given, with the name it goes by (untrusted). */
export type NotesSource = ({ kind: "bytes"; bytes: Uint8Array } | { kind: "path"; path: string }) & { filename: string };

export interface ToolBackend {
  /** Called before any input is read, e.g. to apply the anonymous rate limit. */
  admit?(tool: string): Promise<void>;
  presentPdf(source: PdfSource, filename: string | null, notes?: NotesSource): Promise<HandoffRecord>;
  checkPdf(source: PdfSource, notes?: NotesSource): Promise<CheckReport>;
}

export interface McpServerOptions {
  surface: ToolSurface;
  backend: ToolBackend;
  logger: Logger;
  /** Correlates a logged internal error with the text the agent sees. */
  requestId?: string;
}

export const INSTRUCTIONS =
  "deckhand hands PDF slide decks to a browser for offline presenting. Use check_pdf to validate a deck's speaker notes and media sidecars, and present_pdf to get a one-time link that opens the deck in the user's browser.";

export function createMcpServer(options: McpServerOptions): Server {
  const { surface, backend } = options;
  const server = new Server({ name: SERVER_NAME, title: "deckhand", version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const tools = toolList(surface);

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args = {} } = request.params;
    if (name !== PRESENT_PDF && name !== CHECK_PDF) {
      // The protocol's answer for an unknown tool (MCP spec, tools: error handling).
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}"; this server offers ${PRESENT_PDF} and ${CHECK_PDF}.`);
    }
    try {
      await backend.admit?.(name);
      if (name === PRESENT_PDF) {
        const input = parseInput(presentInput(surface), args, surface);
        const source = pdfSource(input, surface);
        const filename = input.filename ?? (input.path ? basenameOf(input.path) : null);
        const notes = notesSource(input, surface);
        const record = await (notes ? backend.presentPdf(source, filename, notes) : backend.presentPdf(source, filename));
        return success(describeHandoff(record), record);
      }
      const input = parseInput(checkInput(surface), args, surface);
      const source = pdfSource(input, surface);
      const notes = notesSource(input, surface);
      const report = await (notes ? backend.checkPdf(source, notes) : backend.checkPdf(source));
      return success(describeCheckReport(report), report);
    } catch (error) {
      return failure(error, options);
    }
  });
  return server;
}

function success(text: string, structured: object): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: structured as Record<string, unknown> };
}

/** A failure the agent can act on: `CODE: what happened and what to do`. */
function failure(error: unknown, options: McpServerOptions): CallToolResult {
  let code: string;
  let detail: string;
  // A relayed INTERNAL is the remote server's own sentence (with its request id): shown as is.
  if (isAppError(error) && (error.code !== "INTERNAL" || error.relayed)) {
    ({ code, detail } = error);
  } else {
    options.logger.error("mcp_tool_failed", { requestId: options.requestId, ...errorFields(error) });
    code = "INTERNAL";
    detail = `Something went wrong in deckhand; try again${options.requestId ? `, and report request id ${options.requestId} if it persists` : ""}.`;
  }
  return { content: [{ type: "text", text: `${code}: ${detail}` }], isError: true };
}

/** The arguments every tool may carry (each tool's schema decides which it takes). */
type ToolArguments = { pdf_base64?: string; path?: string; filename?: string; notes_base64?: string; notes_path?: string; notes_filename?: string };

function parseInput<S extends z.ZodType>(schema: S, args: Record<string, unknown>, surface: ToolSurface): z.output<S> & ToolArguments {
  if (surface.kind === "http" && "path" in args && !("pdf_base64" in args)) {
    throw new AppError(
      "BAD_REQUEST",
      "This server cannot read files on your machine: pass the PDF's bytes as pdf_base64 (path works only with the local `deckhand mcp` command).",
    );
  }
  if (surface.kind === "http" && "notes_path" in args && !("notes_base64" in args)) {
    throw new AppError(
      "BAD_REQUEST",
      "This server cannot read files on your machine: pass the notes file's bytes as notes_base64 (notes_path works only with the local `deckhand mcp` command).",
    );
  }
  const parsed = schema.safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    throw new AppError("BAD_REQUEST", `Invalid arguments (${where}${issue?.message ?? "malformed"}); see the tool's inputSchema.`);
  }
  return parsed.data as z.output<S> & ToolArguments;
}

/** The notes file, when the call carries one; notes_filename alone is a mistake worth saying. */
function notesSource(input: ToolArguments, surface: ToolSurface): NotesSource | undefined {
  if (input.notes_base64 !== undefined && input.notes_path !== undefined) {
    throw new AppError("BAD_REQUEST", "Give either notes_path or notes_base64, not both.");
  }
  if (input.notes_path !== undefined) return { kind: "path", path: input.notes_path, filename: input.notes_filename ?? basenameOf(input.notes_path) };
  if (input.notes_base64 === undefined) {
    if (input.notes_filename !== undefined) {
      throw new AppError("BAD_REQUEST", `notes_filename names a notes file but none was given; pass its bytes as notes_base64${surface.kind === "stdio" ? " (or its path as notes_path)" : ""}.`);
    }
    return undefined;
  }
  return { kind: "bytes", bytes: decodeNotesBase64(input.notes_base64, notesFileLimit(surface.maxUploadBytes)), filename: input.notes_filename ?? "notes" };
}

function pdfSource(input: { pdf_base64?: string; path?: string }, surface: ToolSurface): PdfSource {
  if (input.pdf_base64 !== undefined && input.path !== undefined) {
    throw new AppError("BAD_REQUEST", "Give either path or pdf_base64, not both.");
  }
  if (input.path !== undefined) return { kind: "path", path: input.path };
  if (input.pdf_base64 === undefined) {
    throw new AppError("BAD_REQUEST", "Give the PDF as path (a local file) or as pdf_base64.");
  }
  return { kind: "bytes", bytes: decodePdfBase64(input.pdf_base64, surface.maxUploadBytes) };
}

function basenameOf(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}
