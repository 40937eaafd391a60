/**
 * @module base/errors
 * The one error type of deckhand. Every failure a caller can cause is an `AppError` with a
 * stable `code`; its public part becomes an RFC 9457 problem document, while `cause` (which
 * may hold paths or stack traces) only ever reaches the log.
 */

import { ERROR_CODES, type ErrorCode, PROBLEM_CONTENT_TYPE, type Problem, problemType } from "../shared/problem.ts";

/** The default sentence for each code: what happened and what to do about it. */
const DEFAULT_DETAIL: Record<ErrorCode, string> = {
  FILE_MISSING: "Send the PDF as the multipart/form-data field named \"file\".",
  BAD_REQUEST: "The request is malformed; check its body and parameters against /openapi.json.",
  UNAUTHORIZED: "Send a valid access token as \"Authorization: Bearer dh_…\" (create one with `deckhand token create`).",
  TOKEN_MISSING: "Open the full handoff link, including the part after '#'; the controller token is missing.",
  TOKEN_INVALID: "The controller token does not match this handoff; open the exact link you were given.",
  ORIGIN_NOT_ALLOWED: "Web pages at this origin may not call this endpoint; start deckhand with --allow-origin ORIGIN to allow one.",
  HOST_NOT_ALLOWED: "This server answers only for the names it is reached by (localhost, 127.0.0.1, [::1], --base-url, --allow-origin); open it by one of those.",
  SESSION_NOT_FOUND: "No handoff has this id; check the link or upload the deck again.",
  LIVE_NOT_FOUND: "No live talk has this code; check the code with the presenter (letters and digits, no 0, O, 1, I or L).",
  LIVE_NOTES_NOT_FOUND: "This live talk went live without a notes file; the remote shows the notes the PDF carries. To add one, end the talk and go live again from a deck that has a notes file (or send it as the `notes` part of POST /api/live).",
  LIVE_SECRET_MISSING: "Send the presenter secret you got when going live in the x-presenter-secret header.",
  LIVE_SECRET_INVALID: "The presenter secret does not match this live talk; only the window that went live can do this.",
  LIVE_GRANT_INVALID: "The live grant is unknown, expired, or was issued for another deck; send an access token as \"Authorization: Bearer dh_…\", or open a new handoff link for this deck.",
  LIVE_ENDED: "This live talk has ended; ask the presenter for a new code.",
  LIVE_FULL: "This live talk has as many viewers as the server admits; try again later, or ask the presenter to raise --max-viewers.",
  LIVE_SOCKETS_FULL: "This server holds as many live connections as it can (--max-live-sockets, below its file-descriptor limit); try again after the time given in Retry-After.",
  NOT_FOUND: "Nothing is served at this address; see /openapi.json for the API.",
  METHOD_NOT_ALLOWED: "This method is not supported at this address; see /openapi.json.",
  NOT_ACCEPTABLE: "This endpoint answers only in the media types its documentation names; send an Accept header that includes them (for /mcp: application/json and text/event-stream).",
  UNSUPPORTED_MEDIA_TYPE: "The request body has a media type this endpoint does not take; send it as the documentation says (for /mcp: Content-Type: application/json).",
  CHECKSUM_MISMATCH: "The bytes the browser stored differ from the server copy; download the deck again (the link still works).",
  HANDOFF_CLAIMED: "This deck was already opened in a browser and the link no longer works; upload the deck again for a new link.",
  HANDOFF_EXPIRED: "This handoff link expired before anyone opened it; upload the deck again for a new link.",
  FILE_TOO_LARGE: "The upload is larger than this server accepts; make the PDF smaller or raise --max-upload-mb.",
  NOTES_FILE_TOO_LARGE: "The notes file is larger than this server accepts beside a PDF; save the PowerPoint file without its pictures and media (only its notes are read), or send a .pdfpc file instead.",
  NOT_A_PDF: "The uploaded bytes are not a PDF; export the deck as PDF and upload that file.",
  RANGE_NOT_SATISFIABLE: "The requested byte range lies outside the file; request a range within its length.",
  PDF_UNREADABLE: "The PDF is damaged and cannot be read; export it again from its source.",
  PDF_ENCRYPTED: "The PDF needs a password to open; export it without a password and upload again.",
  PDF_NO_PAGES: "The PDF has no pages; export the deck again.",
  TOO_MANY_PAGES: "The PDF has more pages than deckhand presents; split the deck.",
  PDF_TOO_COMPLEX: "Reading this PDF took more time or memory than the server allows for one file (a damaged cross-reference table, or an extreme number of objects); export it again from its source.",
  NOTES_FILE_UNREADABLE: "The notes file is neither a .pdfpc file nor a PowerPoint .pptx that can be read safely; send the deck's .pdfpc or .pptx as saved by its own tool.",
  NOTES_FILE_INVALID: "The notes file has errors; fix them (POST /api/check with the same notes part lists every finding) and send the deck again.",
  REQUEST_TIMEOUT: "The request body stopped arriving before it was complete; send the request again on a steadier connection.",
  TOO_MANY_UPLOADS: "This address has as many uploads in progress as the server takes at once; wait for one to finish, then send again.",
  TOO_MANY_LIVE_SOCKETS: "This address holds its share of the server's live connections (the share shrinks as they fill, so other networks still get in); close some, or retry after the time given in Retry-After.",
  PDF_TOO_SLOW: "PDFs from this address have used as much of the server's PDF reading time as one address gets (files that ran long, or past the bounds); export the deck again from its source and send it after the time given in Retry-After.",
  RATE_LIMITED: "Too many uploads from this address; wait for the time given in Retry-After, or use an access token.",
  INTERNAL: "Something went wrong on the server; try again, and report the request id if it persists.",
  SERVER_UNAVAILABLE: "No deckhand server answers at the configured address; start one with `deckhand serve`, or point --server at one.",
  SERVER_BUSY: "The server is busy with other large requests; wait for the time given in Retry-After and send the request again.",
  STORAGE_UNAVAILABLE: "The database or storage bucket behind this server does not answer; wait for the time given in Retry-After and try again.",
  STORAGE_FULL: "The server's staging space is full; claim or let expire existing handoffs, or raise --max-staged-gb.",
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail: string;
  /** Extra response headers, e.g. Retry-After or WWW-Authenticate. */
  readonly headers: Record<string, string>;
  /**
   * A problem another deckhand server answered (relayed by `deckhand present` or the stdio MCP
   * tools): its detail is that server's own sentence, safe to show even for INTERNAL.
   */
  readonly relayed: boolean;

  constructor(code: ErrorCode, detail?: string, options?: { cause?: unknown; headers?: Record<string, string>; relayed?: boolean }) {
    super(detail ?? DEFAULT_DETAIL[code], { cause: options?.cause });
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.detail = detail ?? DEFAULT_DETAIL[code];
    this.headers = options?.headers ?? {};
    this.relayed = options?.relayed ?? false;
  }

  toProblem(requestId?: string): Problem {
    const problem: Problem = {
      type: problemType(this.code),
      title: ERROR_CODES[this.code].title,
      status: this.status,
      detail: this.detail,
      code: this.code,
    };
    if (requestId) problem.requestId = requestId;
    return problem;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** Render any error as a problem Response. Unknown errors become INTERNAL with no detail leaked. */
export function problemResponse(error: unknown, requestId?: string): Response {
  const appError = isAppError(error) ? error : new AppError("INTERNAL");
  return new Response(JSON.stringify(appError.toProblem(requestId)), {
    status: appError.status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, "cache-control": "no-store", ...appError.headers },
  });
}

/** Error codes of a full disk: the OS's, and SQLite's when it cannot grow its files. */
const DISK_FULL_CODES = new Set(["ENOSPC", "EDQUOT", "SQLITE_FULL"]);

/**
 * A failure of our own storage, not of the caller's request: 507 STORAGE_FULL when the disk
 * (or SQLite's file) is full, else 500. The cause (with its path) goes to the log only.
 */
export function storageFailure(cause: unknown): AppError {
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code === "string" && DISK_FULL_CODES.has(code)) {
    return new AppError("STORAGE_FULL", "The server's disk is full; free space on it (or wait for unclaimed decks to expire), then try again.", { cause });
  }
  return new AppError("INTERNAL", undefined, { cause });
}
