/**
 * @module tools/random
 * Random bytes, integers and SHA-256 from the runtime's Web Crypto and Bun's hasher, not
 * node:crypto: loading Bun's node:crypto (and the stream classes it pulls in) took ~15 ms of
 * every server start (cold start: docs/performance.md). The same CSPRNG answers both.
 */

/** `n` bytes from the system's CSPRNG, as a Buffer (for its base64url and hex encodings). */
export function randomBytes(n: number): Buffer {
  const bytes = Buffer.alloc(n);
  crypto.getRandomValues(bytes);
  return bytes;
}

/** A uniform integer in [0, max), max ≤ 2^32, by rejection (no modulo bias). */
export function randomInt(max: number): number {
  if (!Number.isInteger(max) || max < 1 || max > 2 ** 32) throw new RangeError(`randomInt: max must be an integer in 1..2^32, not ${max}`);
  // The largest multiple of max that fits in 32 bits: values at or above it are drawn again.
  const limit = 2 ** 32 - (2 ** 32 % max);
  const word = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(word);
    if (word[0]! < limit) return word[0]! % max;
  }
}

export function sha256Hex(value: string | Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(value).digest("hex");
}

/** Constant-time equality of two byte strings of the same length (false when they differ in length). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
