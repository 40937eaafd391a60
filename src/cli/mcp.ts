/**
 * @module cli/mcp
 * `deckhand mcp` — placeholder until the stdio MCP server lands (issue 4).
 */
export async function runMcpCommand(_argv: string[]): Promise<number> {
  console.error("deckhand mcp is not available in this build.");
  return 2;
}
