/**
 * @module client/live/code
 * A talk code as someone types it into "Talk code": trimmed and upper-cased, nothing else
 * mapped (a typed 0 or O stays what it is: guessing which look-alike was meant would send
 * people to someone else's talk). Null when what is left cannot be a code.
 */
import { LIVE_CODE_PATTERN } from "../../../src/deck/live-protocol.ts";

const CODE = new RegExp(LIVE_CODE_PATTERN);

export function typedTalkCode(input: string): string | null {
  const code = input.trim().toUpperCase();
  return CODE.test(code) ? code : null;
}

/** The code in a /live/{code} or /live/{code}/control path, upper-cased; null if none. */
export function codeFromPath(pathname: string): string | null {
  const match = /^\/live\/([^/]+)(?:\/control)?\/?$/.exec(pathname);
  if (!match?.[1]) return null;
  const code = decodeURIComponent(match[1]).toUpperCase();
  return CODE.test(code) ? code : null;
}
