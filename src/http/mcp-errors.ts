/**
 * @module http/mcp-errors
 * HTTP-level failures of /mcp (a body that is not JSON, an empty batch, a wrong Accept or
 * Content-Type) must stay JSON-RPC error objects, which MCP clients read; each also carries
 * deckhand's coded problem document (RFC 9457) in `error.data`, as every other failure does.
 */
import { AppError } from "../base/errors.ts";
import type { ErrorCode } from "../shared/problem.ts";

/** The problem code for an HTTP status the MCP transport answers with. */
function codeFor(status: number): ErrorCode {
  if (status === 405) return "METHOD_NOT_ALLOWED";
  if (status === 406) return "NOT_ACCEPTABLE";
  if (status === 415) return "UNSUPPORTED_MEDIA_TYPE";
  if (status === 413) return "FILE_TOO_LARGE";
  return "BAD_REQUEST";
}

/** A JSON-RPC error answered at the HTTP level (`id` null unless known), with its problem in `data`. */
export function jsonRpcFailure(status: number, rpcCode: number, message: string, requestId?: string, headers: Record<string, string> = {}, id: unknown = null): Response {
  const problem = { ...new AppError(codeFor(status), message).toProblem(requestId), status };
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: rpcCode, message, data: problem }, id }), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
  });
}

/** The transport's own HTTP-level failure, with the problem document added to its error. */
export async function withProblem(response: Response, requestId?: string): Promise<Response> {
  if (response.status < 400 || !response.headers.get("content-type")?.includes("application/json")) return response;
  const text = await response.text();
  let body: { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown }; id?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return new Response(text, response);
  }
  if (body.jsonrpc !== "2.0" || !body.error || typeof body.error.code !== "number" || body.error.data !== undefined) return new Response(text, response);
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== "content-length" && name !== "content-type"));
  return jsonRpcFailure(response.status, body.error.code, String(body.error.message ?? "Invalid request"), requestId, headers, body.id ?? null);
}
