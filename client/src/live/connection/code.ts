/**
 * @module client/live/connection/code
 * Talk codes in the viewer's and the remote's paths. What someone types into "Talk code" goes
 * through the protocol's `normalizeLiveCode` (upper-cased, spaces and dashes dropped, nothing
 * else mapped — a typed 0 or O stays what it is: guessing which look-alike was meant would
 * send people to someone else's talk).
 */
import { LIVE_CODE_PATTERN } from "../../../../src/shared/live-protocol.ts";

const CODE = new RegExp(LIVE_CODE_PATTERN);

/** The code in a /live/{code} or /live/{code}/control path, upper-cased; null if none. */
export function codeFromPath(pathname: string): string | null {
  const match = /^\/live\/([^/]+)(?:\/control)?\/?$/.exec(pathname);
  if (!match?.[1]) return null;
  const code = decodeURIComponent(match[1]).toUpperCase();
  return CODE.test(code) ? code : null;
}
