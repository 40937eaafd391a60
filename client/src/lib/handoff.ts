/**
 * @module client/lib/handoff
 * The pure logic of claiming a handoff link: reading the link, deciding how to resume a
 * cut download, and turning a server problem into the screen that explains it. No DOM and
 * no network here, so it is unit-tested.
 */

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
  | "offline"
  | "interrupted"
  | "storage-quota"
  | "storage-unavailable"
  | "server";

export interface Problem {
  code?: string;
  status?: number;
  title?: string;
  detail?: string;
}

/** Which failure screen a problem document leads to. Unknown codes fall back on status. */
export function screenForProblem(problem: Problem): ScreenKind {
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
        message: "What this browser stored differs from the server copy. Nothing was used up: try again.",
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
