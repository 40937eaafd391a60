/**
 * @module client/live/viewer/viewer-id
 * A viewer's identity on live talks: a random per-browser id kept in localStorage
 * and sent in `join`, so a reload keeps this viewer's up-votes and votes. No account: a new
 * browser (or cleared storage) is a new viewer, by design. Storage and randomness are
 * injected, so the rules are tested without a browser.
 */

/** The localStorage key. Changing it gives every viewer a new id (their votes are forgotten). */
export const VIEWER_ID_KEY = "deckhand.viewerId";
/** What the server accepts in `join` (src/shared/live-audience-protocol.ts, LiveViewerId). */
const VALID = /^[A-Za-z0-9_-]{16,64}$/;
/** 16 random bytes: 22 base64url characters, 128 bits — no two browsers meet by chance. */
const BYTES = 16;

type Store = Pick<Storage, "getItem" | "setItem">;

/** Bytes as base64url without padding. */
export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * This browser's viewer id: the kept one when it is valid, else a new one (kept when storage
 * allows; a private window that refuses storage still gets an id for this page's life).
 */
export function viewerId(store: Store | null, random: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  let kept: string | null = null;
  try {
    kept = store?.getItem(VIEWER_ID_KEY) ?? null;
  } catch {
    // Storage disabled (some private modes throw on access): a fresh id for this page.
  }
  if (kept !== null && VALID.test(kept)) return kept;
  const id = base64url(random(new Uint8Array(BYTES)));
  try {
    store?.setItem(VIEWER_ID_KEY, id);
  } catch {
    // Full or refused: the id still works until the page closes.
  }
  return id;
}

/** localStorage, or null where reading it throws (blocked storage). */
export function localStore(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
