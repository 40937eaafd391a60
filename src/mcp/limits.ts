/**
 * @module mcp/limits
 * Size limits of the MCP tools, kept equal to the REST upload limit (--max-upload-mb). Their
 * FILE_TOO_LARGE is the uploads' own `fileTooLarge` (tools/upload-limits).
 */
import { notesFileLimit } from "../tools/upload-limits.ts";

const MB = 1024 * 1024;
/** JSON-RPC envelope, the filename and escaping around the base64 text. */
export const JSON_OVERHEAD_BYTES = 1 * MB;

/** The size limit as people write it: "100 MB", "0.5 MB". */
export function formatMegabytes(bytes: number): string {
  return `${Math.round((bytes / MB) * 100) / 100} MB`;
}

/**
 * Largest /mcp request body worth reading: a base64 PDF at the limit is 4/3 of its bytes, and
 * so is a notes file beside it (`notes_base64`) at its own limit.
 */
export function maxMcpBodyBytes(maxUploadBytes: number): number {
  return Math.ceil(((maxUploadBytes + notesFileLimit(maxUploadBytes)) * 4) / 3) + JSON_OVERHEAD_BYTES;
}
