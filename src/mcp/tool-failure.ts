/**
 * @module mcp/tool-failure
 * A tool failure whose code is not one of the server's own problem codes: a problem relayed
 * from a remote deckhand server, or SERVER_UNAVAILABLE when none answers (stdio only).
 */
export class ToolFailure extends Error {
  override name = "ToolFailure";
  constructor(
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}
