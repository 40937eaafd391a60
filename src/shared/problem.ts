/**
 * @module shared/problem
 * The problem documents (RFC 9457) deckhand answers with, and their stable codes: the one
 * vocabulary of failure that the server (src/base/errors.ts raises them), the MCP tools, the REST
 * documentation (/openapi.json publishes `ProblemSchema`) and the browser client (which reads
 * them off the wire) share. Browser-safe: plain TypeBox, nothing of Bun, Node or Elysia, so
 * the stdio `deckhand mcp` and the client bundle can import it.
 */
import { type Static, Type } from "@sinclair/typebox";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/** Stable codes that clients branch on. Never rename one: add a new code instead. */
export const ERROR_CODES = {
  FILE_MISSING: { status: 400, title: "File missing" },
  BAD_REQUEST: { status: 400, title: "Bad request" },
  UNAUTHORIZED: { status: 401, title: "Unauthorized" },
  TOKEN_MISSING: { status: 401, title: "Controller token missing" },
  TOKEN_INVALID: { status: 403, title: "Controller token invalid" },
  ORIGIN_NOT_ALLOWED: { status: 403, title: "Origin not allowed" },
  HOST_NOT_ALLOWED: { status: 403, title: "Host not allowed" },
  SESSION_NOT_FOUND: { status: 404, title: "Session not found" },
  LIVE_NOT_FOUND: { status: 404, title: "Live session not found" },
  LIVE_NOTES_NOT_FOUND: { status: 404, title: "Live session has no notes file" },
  LIVE_SECRET_MISSING: { status: 401, title: "Presenter secret missing" },
  LIVE_SECRET_INVALID: { status: 403, title: "Presenter secret invalid" },
  LIVE_GRANT_INVALID: { status: 403, title: "Live grant invalid" },
  LIVE_ENDED: { status: 410, title: "Live session ended" },
  LIVE_FULL: { status: 503, title: "Live session full" },
  LIVE_SOCKETS_FULL: { status: 503, title: "Live connections full" },
  NOT_FOUND: { status: 404, title: "Not found" },
  METHOD_NOT_ALLOWED: { status: 405, title: "Method not allowed" },
  NOT_ACCEPTABLE: { status: 406, title: "Not acceptable" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: "Unsupported media type" },
  CHECKSUM_MISMATCH: { status: 409, title: "Checksum mismatch" },
  HANDOFF_CLAIMED: { status: 410, title: "Handoff already claimed" },
  HANDOFF_EXPIRED: { status: 410, title: "Handoff expired" },
  FILE_TOO_LARGE: { status: 413, title: "File too large" },
  NOTES_FILE_TOO_LARGE: { status: 413, title: "Notes file too large" },
  NOT_A_PDF: { status: 415, title: "Not a PDF" },
  RANGE_NOT_SATISFIABLE: { status: 416, title: "Range not satisfiable" },
  PDF_UNREADABLE: { status: 422, title: "PDF unreadable" },
  PDF_ENCRYPTED: { status: 422, title: "PDF encrypted" },
  PDF_NO_PAGES: { status: 422, title: "PDF has no pages" },
  TOO_MANY_PAGES: { status: 422, title: "Too many pages" },
  PDF_TOO_COMPLEX: { status: 422, title: "PDF too complex" },
  NOTES_FILE_UNREADABLE: { status: 422, title: "Notes file unreadable" },
  NOTES_FILE_INVALID: { status: 422, title: "Notes file invalid" },
  REQUEST_TIMEOUT: { status: 408, title: "Request timeout" },
  RATE_LIMITED: { status: 429, title: "Too many requests" },
  TOO_MANY_UPLOADS: { status: 429, title: "Too many uploads at once" },
  TOO_MANY_LIVE_SOCKETS: { status: 429, title: "Too many live connections from this address" },
  PDF_TOO_SLOW: { status: 429, title: "Too much PDF reading time" },
  INTERNAL: { status: 500, title: "Internal error" },
  SERVER_UNAVAILABLE: { status: 502, title: "Server unavailable" },
  SERVER_BUSY: { status: 503, title: "Server busy" },
  STORAGE_UNAVAILABLE: { status: 503, title: "Storage unavailable" },
  STORAGE_FULL: { status: 507, title: "Storage full" },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

const CODES = Object.keys(ERROR_CODES) as ErrorCode[];

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ format: "uri", description: "Identifier of the problem type." }),
    title: Type.String({ description: "Short summary of the problem type." }),
    status: Type.Integer({ description: "The HTTP status code." }),
    detail: Type.String({ description: "What happened and what to do about it." }),
    code: Type.Union(
      CODES.map((code) => Type.Literal(code)),
      { description: "Stable machine-readable error code." },
    ),
    requestId: Type.Optional(Type.String({ description: "Request id, also in the X-Request-Id header and the server log." })),
  },
  { title: "Problem", description: "RFC 9457 problem details." },
);

/** A problem document as the server sends it. */
export type Problem = Static<typeof ProblemSchema>;

/**
 * A problem document as a client reads it off the wire: any field may be missing (a proxy's
 * error page, a body that was not JSON), and `code` may be one this client does not know yet
 * (codes are only ever added), so it stays a string.
 */
export type ProblemReply = Partial<Omit<Problem, "code">> & { code?: string };

/** A stable, dereferenceable-looking identifier per code (RFC 9457 §3.1.1). */
export function problemType(code: ErrorCode): string {
  return `https://deckhand.dev/problems/${code.toLowerCase().replaceAll("_", "-")}`;
}
