/**
 * @module client/lib/handoff
 * The pure logic of claiming a handoff link: reading the link, deciding how to resume a
 * cut download, fetching the deck's notes file, and turning a server problem into the screen
 * that explains it. No DOM, and the network only through a fetch passed in, so it is
 * unit-tested.
 */
import type { ProblemReply } from "../../../src/shared/problem.ts";
import { readProblem } from "./problem.ts";
import type { DeckNotes } from "../storage/schema.ts";

export interface HandoffLink {
  id: string;
  token: string | null;
  /** True when the token came in the query string and must be removed from the address bar. */
  tokenInQuery: boolean;
}

/** Read `/start/{id}#t=TOKEN` (or `?t=TOKEN`). Returns null when the path is not a start link. */
export function parseHandoffLink(url: URL): HandoffLink | null {
  const match = /^\/start\/([A-Za-z0-9_-]{1,128})\/?$/.exec(url.pathname);
  if (!match?.[1]) return null;
  const fragment = new URLSearchParams(url.hash.replace(/^#/, ""));
  const fromHash = fragment.get("t");
  const fromQuery = url.searchParams.get("t");
  return { id: match[1], token: fromHash || fromQuery || null, tokenInQuery: fromQuery !== null };
}

/**
 * The address to show once the token was read: `?t=` moves into the fragment, which never
 * reaches a server log or a Referer header, and a reload still works.
 */
export function cleanedStartUrl(link: HandoffLink, origin: string): string {
  const base = `${origin}/start/${link.id}`;
  return link.token ? `${base}#t=${encodeURIComponent(link.token)}` : base;
}

export type ScreenKind =
  | "claimed"
  | "expired"
  | "not-found"
  | "token-invalid"
  | "token-missing"
  | "checksum"
  | "notes"
  | "offline"
  | "interrupted"
  | "storage-quota"
  | "storage-unavailable"
  | "server";

/** Which failure screen a problem document leads to. Unknown codes fall back on status. */
export function screenForProblem(problem: ProblemReply): ScreenKind {
  switch (problem.code) {
    case "HANDOFF_CLAIMED":
      return "claimed";
    case "HANDOFF_EXPIRED":
      return "expired";
    case "SESSION_NOT_FOUND":
      return "not-found";
    case "TOKEN_INVALID":
      return "token-invalid";
    case "TOKEN_MISSING":
      return "token-missing";
    case "CHECKSUM_MISMATCH":
      return "checksum";
  }
  if (problem.status === 410) return "expired";
  if (problem.status === 404) return "not-found";
  if (problem.status === 403) return "token-invalid";
  if (problem.status === 401) return "token-missing";
  return "server";
}

export interface ScreenText {
  title: string;
  message: string;
  /** True when trying the same link again can help. */
  retry: boolean;
}

export function screenText(kind: ScreenKind): ScreenText {
  switch (kind) {
    case "claimed":
      return {
        title: "This link was already used",
        message: "The deck was opened in a browser already, and a handoff link works only once. Ask for a new link, or open the deck in the browser that claimed it.",
        retry: false,
      };
    case "expired":
      return {
        title: "This link has expired",
        message: "Nobody opened it in time, so the server deleted the deck. Upload the deck again for a new link.",
        retry: false,
      };
    case "not-found":
      return {
        title: "No deck at this link",
        message: "The server does not know this link. Check that you opened the whole link, or upload the deck again.",
        retry: false,
      };
    case "token-invalid":
      return {
        title: "This link is incomplete or altered",
        message: "The key at the end of the link does not match. Open the exact link you were given, including everything after “#”. The link still works.",
        retry: false,
      };
    case "token-missing":
      return {
        title: "The link is missing its key",
        message: "The part after “#” was cut off, perhaps by a chat app. Copy the full link and open it again.",
        retry: false,
      };
    case "checksum":
      return {
        title: "The download arrived damaged",
        message: "What this browser received differs from the server copy. Nothing was used up: try again.",
        retry: true,
      };
    case "notes":
      return {
        title: "The speaker notes did not arrive",
        message: "The deck came with a notes file, and this browser could not fetch it. Nothing was used up: try again, and the deck arrives with its notes.",
        retry: true,
      };
    case "offline":
      return {
        title: "No connection to the server",
        message: "This browser could not reach the deckhand server. Check the network and try again; the link still works.",
        retry: true,
      };
    case "interrupted":
      return {
        title: "The download was interrupted",
        message: "The connection dropped part-way. Try again: the download resumes where it stopped, and the link still works.",
        retry: true,
      };
    case "storage-quota":
      return {
        title: "Not enough storage in this browser",
        message: "The browser has no room for this deck. Delete decks you no longer need from the library, or free disk space, then try again. The link still works.",
        retry: true,
      };
    case "storage-unavailable":
      return {
        title: "This browser refuses to store the deck",
        message: "Private or incognito windows, and some privacy settings, block storage. Open the link in a normal window; the link still works.",
        retry: true,
      };
    case "server":
      return {
        title: "The server could not hand over the deck",
        message: "Something went wrong on the server. Try again in a moment; the link still works.",
        retry: true,
      };
  }
}

/** How to continue a download that stopped after `received` bytes. */
export function resumeHeaders(received: number): Record<string, string> {
  return received > 0 ? { Range: `bytes=${received}-` } : {};
}

/**
 * The download of a staged deck: the controller token travels in `x-controller-token`, never
 * in the URL, so no proxy's access log holds it (the server still accepts the documented `?t=`).
 */
export function handoffDownload(handoffUrl: string, token: string, received: number): { url: string; init: RequestInit } {
  return {
    url: handoffUrl,
    init: { headers: { ...resumeHeaders(received), "x-controller-token": token }, cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer" },
  };
}

/**
 * Whether a response to a resumed request continues the bytes we hold. A 206 must start
 * exactly where we stopped; a 200 means the server sent the whole file again.
 */
export function resumeDecision(status: number, contentRange: string | null, received: number): "append" | "restart" | "invalid" {
  if (status === 200) return "restart";
  if (status !== 206) return "invalid";
  const match = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(contentRange ?? "");
  if (!match || Number(match[1]) !== received) return "invalid";
  return "append";
}

/** The filename the server sent in `X-Filename` (percent-encoded), or a fallback. */
export function decodeFilename(header: string | null, fallback = "presentation"): string {
  if (!header) return fallback;
  try {
    const name = decodeURIComponent(header).replace(/[\u0000-\u001f\u007f]/g, "").trim();
    return name || fallback;
  } catch {
    return fallback;
  }
}

/**
 * Whether the download's answer says the deck has a notes file (`X-Notes`): true or false
 * when the header says so, null when it is absent — then the notes route is asked, which
 * answers 204 for a deck without one. Asking costs one request; guessing "none" would lose
 * the notes with a link that cannot be used again.
 */
export function notesHint(header: string | null): boolean | null {
  const value = header?.trim().toLowerCase();
  if (!value) return null;
  if (value === "0" || value === "none" || value === "false" || value === "no") return false;
  return true;
}

/** A notes file is at most this long as text; the server's own cap is far below (docs/decks/notes-formats.md). */
const MAX_NOTES_TEXT = 16 * 1024 * 1024;

/**
 * Read the notes route's 200 answer: the normalised `.pdfpc` (format 2) JSON, its name and
 * kind in `X-Notes-Filename` (percent-encoded) and `X-Notes-Kind`; or the same three as one
 * JSON object `{ filename, kind, pdfpc }`. Null when the body is neither: the claim must
 * then stop, not go on without the notes.
 */
export function parseNotesAnswer(body: string, headers: { filename: string | null; kind: string | null }): DeckNotes | null {
  if (body.length > MAX_NOTES_TEXT) return null;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  if (typeof record.pdfpc === "string") {
    const inner = parseNotesAnswer(record.pdfpc, {
      filename: typeof record.filename === "string" ? encodeURIComponent(record.filename) : headers.filename,
      kind: typeof record.kind === "string" ? record.kind : headers.kind,
    });
    return inner;
  }
  if (!("pdfpcFormat" in record) && !("pages" in record)) return null;
  const kind = headers.kind?.trim().toLowerCase() === "pptx" ? "pptx" : "pdfpc";
  const filename = decodeFilename(headers.filename, kind === "pptx" ? "notes.pptx" : "notes.pdfpc");
  return { filename, kind, pdfpc: body };
}

/**
 * A step of the claim that failed — the download, the notes, storing, the server's confirmation —
 * with the screen that explains it and the server's problem document when it sent one.
 */
export class ClaimFailure extends Error {
  constructor(readonly kind: ScreenKind, readonly problem?: ProblemReply) {
    super(kind);
    this.name = "ClaimFailure";
  }
}

/**
 * Fetch a deck's notes file before the claim completes: `GET /api/sessions/{id}/notes` with
 * the controller token in `x-controller-token` (never in the URL). Undefined when the deck
 * came without one (the hint said so, or 204). Every failure throws a ClaimFailure — the
 * caller then stops before `complete`, so the link still works for a retry.
 */
export async function fetchHandoffNotes(
  fetcher: typeof fetch,
  sessionId: string,
  token: string,
  hint: boolean | null,
): Promise<DeckNotes | undefined> {
  if (hint === false) return undefined;
  let response: Response;
  try {
    response = await fetcher(`/api/sessions/${encodeURIComponent(sessionId)}/notes`, {
      headers: { "x-controller-token": token },
      cache: "no-store",
      credentials: "omit",
      referrerPolicy: "no-referrer",
    });
  } catch {
    throw new ClaimFailure("offline");
  }
  if (response.status === 204) return undefined;
  if (response.status !== 200) {
    const problem = await readProblem(response);
    // A server error here is about the notes, not the link: say so.
    throw new ClaimFailure(response.status >= 500 ? "notes" : screenForProblem(problem), problem);
  }
  let body: string;
  try {
    body = await response.text();
  } catch {
    throw new ClaimFailure("notes");
  }
  const notes = parseNotesAnswer(body, { filename: response.headers.get("x-notes-filename"), kind: response.headers.get("x-notes-kind") });
  if (!notes) throw new ClaimFailure("notes");
  return notes;
}

/**
 * A request the claim starts early and needs later — the notes file, asked for as soon as the
 * download's headers say whether there is one, and awaited only before the deck is stored.
 * `start()` asks once; `take()` waits for that answer (asking now if nobody did). A failure
 * is forgotten once taken, so the claim's retry asks again; an answer that came is kept.
 */
export class EarlyRequest<T> {
  private pending: Promise<T> | null = null;

  constructor(private readonly ask: () => Promise<T>) {}

  start(): void {
    if (this.pending) return;
    const pending = this.ask();
    // Seen by take(); until then a failure must not surface as unhandled.
    pending.catch(() => {});
    this.pending = pending;
  }

  async take(): Promise<T> {
    this.start();
    const pending = this.pending!;
    try {
      return await pending;
    } catch (error) {
      if (this.pending === pending) this.pending = null;
      throw error;
    }
  }
}
