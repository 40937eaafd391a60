/**
 * @module handoff/secrets
 * Random identifiers and tokens, and their storage form. Tokens are stored only as SHA-256
 * digests and compared in constant time.
 */
import { bytesEqual, randomBytes, sha256Hex } from "../tools/random.ts";

export { sha256Hex };

/** 16 random bytes, base64url: 22 characters, unguessable. */
export const newSessionId = (): string => randomBytes(16).toString("base64url");
/** 32 random bytes, base64url: 43 characters. */
export const newControllerToken = (): string => randomBytes(32).toString("base64url");

export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** Constant-time comparison of a presented token with a stored hash. */
export function tokenMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(sha256Hex(presented), "hex");
  const b = Buffer.from(storedHash, "hex");
  return bytesEqual(a, b);
}
