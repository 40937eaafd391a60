/**
 * @module http/mcp
 * POST /mcp: the MCP tools over Streamable HTTP, stateless — a fresh server and transport per
 * request, JSON responses (no SSE). GET and DELETE answer 405: a stateless server has no
 * stream to open and no session to end.
 *
 * Credentials follow REST: the Bearer token is checked on the HTTP request, so an unknown or
 * revoked token (or none, under --require-auth) is an HTTP 401 problem with
 * WWW-Authenticate — the transport-level answer MCP clients expect — before any JSON-RPC is
 * read. A valid token gives staged decks the 7-day lifetime. The anonymous rate limit counts
 * tool calls (present_pdf, check_pdf), not the handshake.
 *
 * Memory: a call with a deck in base64 holds the parsed JSON (the base64 text) and the
 * decoded PDF. Requests whose body is large (or of unknown length) take a slot of a gate
 * before their body is read, so only a few are in memory at once; the rest wait unread and
 * are refused with 503 SERVER_BUSY and Retry-After when no slot frees up in time. The body
 * is parsed here (one text, dropped once parsed) rather than by the SDK, whose reader keeps
 * its text alive until the response is sent.
 */
import { Elysia } from "elysia";
import { AppError } from "../base/errors.ts";
import { createGate, LARGE_BODY_BYTES } from "../mcp/gate.ts";
import { maxMcpBodyBytes } from "../mcp/limits.ts";
import { fileTooLarge } from "../tools/upload-limits.ts";
import { readBodyText } from "../upload/body.ts";
import type { AppDeps } from "../composition/deps.ts";
import { asPdfOwner } from "../pdf/worker/owner.ts";
import { clientAddress, pdfOwner } from "./deps.ts";
import { uploadAdmission } from "./middleware/admit-upload.ts";
import { publicBaseUrl } from "./host.ts";
import { mcpOrigin } from "./middleware/origin.ts";
import { jsonRpcFailure, withProblem } from "./mcp-errors.ts";
import { routeDoc } from "./models.ts";

/** OpenAPI operation of POST /mcp (problem statuses listed under x-problems, see http/openapi). */
const MCP_OPERATION = routeDoc({
  operationId: "mcp",
  summary: "MCP endpoint (Streamable HTTP)",
  description:
    "Model Context Protocol over Streamable HTTP, stateless, JSON responses. Tools: `present_pdf` ({pdf_base64, filename?, notes_base64?, notes_filename?} → the handoff record) and `check_pdf` ({pdf_base64, notes_base64?, notes_filename?} → the check report); `notes_base64` is a notes file beside the PDF (.pdfpc or .pptx), as the REST `notes` part. Send `Accept: application/json, text/event-stream`. A Bearer token gives staged decks the 7-day lifetime; an invalid one is refused with 401. Tool failures are results with `isError: true` whose text starts with the problem code.",
  tags: ["MCP"],
  security: [{}, { bearerAuth: [] }],
  requestBody: {
    required: true,
    content: { "application/json": { schema: { type: "object", description: "A JSON-RPC 2.0 message (or batch) of the Model Context Protocol." } as never } },
  },
  responses: {
    200: {
      description: "The JSON-RPC response.",
      content: { "application/json": { schema: { type: "object", description: "A JSON-RPC 2.0 response." } as never } },
    },
    202: { description: "A notification or response was accepted (no body)." },
  },
  "x-problems": [400, 401, 403, 408, 413, 429, 503],
});

/**
 * The JSON-RPC message, parsed; or, when it is not JSON, a copy of the request for the SDK to
 * answer as it does (400, -32700). Read with the body deadline and capped at `maxBody` (a
 * chunked body too). The text is dropped on return.
 */
async function parseJsonBody(request: Request, maxBody: number, idleMs: number, maxUploadBytes: number): Promise<{ parsedBody: unknown } | { replay: Request }> {
  const text = await readBodyText(request, maxBody, idleMs, () => fileTooLarge(maxUploadBytes));
  try {
    return { parsedBody: JSON.parse(text) };
  } catch {
    return { replay: new Request(request.url, { method: request.method, headers: request.headers, body: text }) };
  }
}

/** Tool calls one request may carry (a JSON-RPC batch): each one reads a whole deck. */
export const MAX_TOOL_CALLS_PER_REQUEST = 4;

function countToolCalls(message: unknown): number {
  const messages = Array.isArray(message) ? message : [message];
  return messages.filter((m) => m && typeof m === "object" && (m as { method?: unknown }).method === "tools/call").length;
}

/**
 * Collect garbage now. The text and body buffer of a large request are garbage once parsed,
 * and a finished call leaves its PDF behind; left to itself JSC collects them late, and two
 * gated calls measured 850 MB at peak instead of ~520 MB (docs/api/mcp.md).
 */
function collectLargeGarbage(): void {
  Bun.gc(true);
}

/**
 * The MCP SDK and deckhand's tools, loaded on the first /mcp request: evaluating the SDK's
 * zod schemas is most of a cold start's work, and most servers never see an MCP call.
 */
let mcpModules: Promise<[typeof import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"), typeof import("../mcp/server.ts"), typeof import("../mcp/local-backend.ts")]> | null = null;
const loadMcp = () => (mcpModules ??= Promise.all([import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"), import("../mcp/server.ts"), import("../mcp/local-backend.ts")]));

/** One stateless exchange: a fresh MCP server and transport for this request. */
async function serveMcp(request: Request, deps: AppDeps, options: { authenticated: boolean; requestId: string | undefined; large: boolean }): Promise<Response> {
  const [{ WebStandardStreamableHTTPServerTransport }, { createMcpServer }, { localBackend }] = await loadMcp();
  const maxBody = maxMcpBodyBytes(deps.config.maxUploadBytes);
  const server = createMcpServer({
    surface: { kind: "http", maxUploadBytes: deps.config.maxUploadBytes },
    logger: deps.logger,
    requestId: options.requestId,
    backend: localBackend(deps, {
      authenticated: options.authenticated,
      baseUrl: publicBaseUrl(request, deps.config),
      clientAddress: clientAddress(request, deps),
    }),
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    // The SDK's default (4 MiB) would refuse decks far below --max-upload-mb.
    maxRequestBodySize: maxBody,
  });
  await server.connect(transport);
  try {
    const body = await parseJsonBody(request, maxBody, deps.config.bodyTimeoutMs, deps.config.maxUploadBytes);
    if ("parsedBody" in body && countToolCalls(body.parsedBody) > MAX_TOOL_CALLS_PER_REQUEST) {
      throw new AppError("BAD_REQUEST", `One request may carry at most ${MAX_TOOL_CALLS_PER_REQUEST} tool calls; send the others in requests of their own.`);
    }
    // JSON-RPC 2.0 §6: an empty batch is one Invalid Request error (the SDK answered 202, empty).
    if ("parsedBody" in body && Array.isArray(body.parsedBody) && body.parsedBody.length === 0) {
      return jsonRpcFailure(400, -32600, "Invalid Request: the batch is empty; send at least one JSON-RPC message.", options.requestId);
    }
    if (options.large) collectLargeGarbage();
    // With JSON responses the body is complete when this resolves, so closing is safe.
    const response = "replay" in body ? await transport.handleRequest(body.replay) : await transport.handleRequest(request, { parsedBody: body.parsedBody });
    return await withProblem(response, options.requestId);
  } finally {
    await server.close();
  }
}

export function mcpController(deps: AppDeps) {
  const admitUpload = uploadAdmission(deps, { rateLimit: false });
  const gate = deps.mcpGate ?? createGate();
  const checkOrigin = mcpOrigin(deps.config);
  const notAllowed = ({ set }: { set: { headers: Record<string, string | number> } }) => {
    set.headers.allow = "POST";
    throw new AppError("METHOD_NOT_ALLOWED", "This MCP endpoint is stateless: send JSON-RPC messages with POST (Streamable HTTP, JSON responses); there is no stream to GET and no session to DELETE.", {
      headers: { allow: "POST" },
    });
  };
  return new Elysia({ name: "mcp" })
    .post(
      "/mcp",
      async ({ request, set }) => {
        checkOrigin(request);
        const declared = request.headers.get("content-length");
        // Refuse a body no allowed PDF needs before reading it; the body stays unread, so the
        // answer closes the connection.
        if (declared !== null && Number(declared) > maxMcpBodyBytes(deps.config.maxUploadBytes)) throw fileTooLarge(deps.config.maxUploadBytes);
        // A large body (or one of unknown length) carries a deck: it takes an upload slot, as a
        // REST upload does, and waits, unread, for a slot of the large-call gate.
        const large = declared === null || Number(declared) > LARGE_BODY_BYTES;
        const { caller, release: releaseUpload } = large
          ? await admitUpload(request)
          : { caller: await deps.accessTokens.identify(request.headers.get("authorization"), deps.config.requireAuth), release: () => {} };
        try {
          const release = large ? await gate.acquire() : null;
          try {
            // Every PDF job of these tool calls is counted under this address (shared by reading time: docs/operating/availability.md).
            return await asPdfOwner(pdfOwner(request, deps), () => serveMcp(request, deps, {
              authenticated: caller.authenticated,
              // Set by the app's onRequest hook; correlates a logged failure with the agent's text.
              requestId: String(set.headers["x-request-id"] ?? "") || undefined,
              large,
            }));
          } finally {
            if (release) {
              // Before the next waiting call starts: its memory then reuses this one's.
              collectLargeGarbage();
              release();
            }
          }
        } finally {
          releaseUpload();
        }
      },
      {
        // The body is read in serveMcp (after the gate), never by Elysia.
        parse: "none",
        detail: MCP_OPERATION,
      },
    )
    .get("/mcp", notAllowed, { detail: { hide: true } })
    .delete("/mcp", notAllowed, { detail: { hide: true } });
}
