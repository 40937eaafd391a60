/**
 * @module http/well-known
 * GET /.well-known/mcp.json — discovery of the MCP endpoint: where it is, which transport it
 * speaks, whether it needs a token, and its tools, so a client can configure itself without
 * a handshake. The shape follows the MCP "server card" proposal (SEP-1649) as drafted; the
 * fields are plain enough to read without it.
 */
import { Elysia } from "elysia";
import type { AppDeps } from "../composition/deps.ts";
import { publicBaseUrl } from "./host.ts";
import { routeDoc } from "./models.ts";

export const MCP_PATH = "/mcp";

export function wellKnownController(deps: AppDeps) {
  // The MCP SDK and the tools' schemas load on the first request, not at start-up (see http/mcp).
  let card: Promise<{ LATEST_PROTOCOL_VERSION: string; SERVER_NAME: string; INSTRUCTIONS: string; tools: unknown }> | null = null;
  const loadCard = () =>
    (card ??= Promise.all([import("@modelcontextprotocol/sdk/types.js"), import("../mcp/server.ts"), import("../mcp/tools.ts")]).then(([types, server, tools]) => ({
      LATEST_PROTOCOL_VERSION: types.LATEST_PROTOCOL_VERSION,
      SERVER_NAME: server.SERVER_NAME,
      INSTRUCTIONS: server.INSTRUCTIONS,
      tools: tools.toolList({ kind: "http", maxUploadBytes: deps.config.maxUploadBytes }),
    })));
  return new Elysia({ name: "well-known" }).get(
    "/.well-known/mcp.json",
    async ({ request }) => {
      const { LATEST_PROTOCOL_VERSION, SERVER_NAME, INSTRUCTIONS, tools } = await loadCard();
      return new Response(
        JSON.stringify({
          serverInfo: { name: SERVER_NAME, title: "deckhand", version: deps.version },
          description: "Hand PDF slide decks to a browser for offline presenting, and check their speaker notes and media sidecars.",
          protocolVersion: LATEST_PROTOCOL_VERSION,
          transport: {
            type: "streamable-http",
            endpoint: MCP_PATH,
            url: `${publicBaseUrl(request, deps.config)}${MCP_PATH}`,
            // Stateless: POST only, JSON responses, no session id, no SSE stream.
            stateless: true,
            methods: ["POST"],
          },
          capabilities: { tools: {} },
          authentication: {
            required: deps.config.requireAuth,
            schemes: ["bearer"],
            description:
              "Send \"Authorization: Bearer dh_…\" (create a token with `deckhand token create`) for 7-day handoff links" +
              (deps.config.requireAuth ? "; this server requires it." : "; without one, links last 24 hours."),
          },
          instructions: INSTRUCTIONS,
          tools,
        }),
        {
          headers: {
            "content-type": "application/json",
            // Changes only with the binary or its flags…
            "cache-control": "public, max-age=300",
            // …and, without --base-url, with the name the client used (the URL above).
            ...(deps.config.baseUrl ? {} : { vary: "Host, X-Forwarded-Host, X-Forwarded-Proto" }),
            // Discovery is meant to be read from anywhere (browser-based MCP clients included).
            "access-control-allow-origin": "*",
          },
        },
      );
    },
    {
      detail: routeDoc({
        operationId: "mcpDiscovery",
        summary: "Discover the MCP endpoint",
        description:
          "Describes the MCP endpoint: its URL and transport (Streamable HTTP, stateless, JSON responses), whether a Bearer token is required, and the tools with their input and output schemas.",
        tags: ["Description"],
        security: [{}],
        responses: {
          200: { description: "The MCP server card.", content: { "application/json": { schema: { type: "object" } } } },
        },
        "x-problems": [500],
      }),
    },
  );
}
