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
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import { fileTooLarge, maxMcpBodyBytes } from "../mcp/limits.ts";
import { localBackend } from "../mcp/local-backend.ts";
import { createMcpServer } from "../mcp/server.ts";
import { type AppDeps, clientAddress, publicBaseUrl } from "./deps.ts";
import { routeDoc } from "./models.ts";

/** OpenAPI operation of POST /mcp (problem statuses listed under x-problems, see http/openapi). */
const MCP_OPERATION = routeDoc({
  operationId: "mcp",
  summary: "MCP endpoint (Streamable HTTP)",
  description:
    "Model Context Protocol over Streamable HTTP, stateless, JSON responses. Tools: `present_pdf` ({pdf_base64, filename?} → the handoff record) and `check_pdf` ({pdf_base64} → the check report). Send `Accept: application/json, text/event-stream`. A Bearer token gives staged decks the 7-day lifetime; an invalid one is refused with 401. Tool failures are results with `isError: true` whose text starts with the problem code.",
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
  "x-problems": [401, 413],
});

export function mcpController(deps: AppDeps) {
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
        const caller = deps.accessTokens.identify(request.headers.get("authorization"), deps.config.requireAuth);
        const maxBody = maxMcpBodyBytes(deps.config.maxUploadBytes);
        // Refuse a body no allowed PDF needs before reading it (a chunked one is cut off by the transport).
        if (Number(request.headers.get("content-length") ?? 0) > maxBody) {
          // The body stays unread: close the connection rather than leave it waiting on it.
          const { detail } = fileTooLarge(deps.config.maxUploadBytes);
          throw new AppError("FILE_TOO_LARGE", detail, { headers: { connection: "close" } });
        }
        const server = createMcpServer({
          surface: { kind: "http", maxUploadBytes: deps.config.maxUploadBytes },
          logger: deps.logger,
          // Set by the app's onRequest hook; correlates a logged failure with the agent's text.
          requestId: String(set.headers["x-request-id"] ?? "") || undefined,
          backend: localBackend(deps, {
            authenticated: caller.authenticated,
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
          // With JSON responses the body is complete when this resolves, so closing is safe.
          return await transport.handleRequest(request);
        } finally {
          await server.close();
        }
      },
      {
        // The transport reads the JSON-RPC body itself.
        parse: "none",
        detail: MCP_OPERATION,
      },
    )
    .get("/mcp", notAllowed, { detail: { hide: true } })
    .delete("/mcp", notAllowed, { detail: { hide: true } });
}
