/**
 * @module security/secrets
 * Random identifiers and tokens, and their storage form. Tokens are stored only as SHA-256
 * digests and compared in constant time.
 * Shared by the handoffs, the live talks and the access tokens (security/: what keeps
 * secrets secret and untrusted input harmless, apart from any one domain).
 */
import { bytesEqual, randomBytes, sha256Hex } from "../tools/random.ts";

export { sha256Hex };

/** 16 random bytes, base64url: 22 characters, unguessable. */
export const newSessionId = (): string => randomBytes(16).toString("base64url");
/** 32 random bytes, base64url: 43 characters. */
export const newControllerToken = (): string => randomBytes(32).toString("base64url");

/**
 * The live grant of a handoff claimed with `controllerToken`: a one-way function of the token
 * (43 characters), so a repeated complete hands out the same grant, and the grant does not
 * give the token away. A label keeps it apart from the token's stored hash.
 */
export const liveGrantFor = (controllerToken: string): string => new Bun.CryptoHasher("sha256").update(`deckhand live grant\0${controllerToken}`).digest("base64url");

export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** Constant-time comparison of a presented token with a stored hash. */
export function tokenMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(sha256Hex(presented), "hex");
  const b = Buffer.from(storedHash, "hex");
  return bytesEqual(a, b);
}
