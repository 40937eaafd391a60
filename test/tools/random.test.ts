/**
 * tools/random: the Web Crypto and Bun hasher forms of what node:crypto gave (deckhand moved
 * off node:crypto to spare every start its load). Same encodings, same digests.
 */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { bytesEqual, randomBytes, randomInt, sha256Hex } from "../../src/tools/random.ts";

describe("tools/random", () => {
  test("randomBytes: the length asked, a Buffer with its encodings, never the same twice", () => {
    const a = randomBytes(32);
    expect(a).toBeInstanceOf(Buffer);
    expect(a.length).toBe(32);
    expect(a.toString("base64url")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomBytes(32).equals(a)).toBe(false);
  });

  test("randomInt: every value in [0, max) comes up, none outside; bad bounds are refused", () => {
    const seen = new Set<number>();
    for (let i = 0; i < 4000; i++) {
      const n = randomInt(31);
      expect(Number.isInteger(n) && n >= 0 && n < 31).toBe(true);
      seen.add(n);
    }
    expect(seen.size).toBe(31);
    expect(randomInt(1)).toBe(0);
    for (const bad of [0, -1, 1.5, 2 ** 32 + 1]) expect(() => randomInt(bad)).toThrow(RangeError);
  });

  test("sha256Hex matches node:crypto's digest of text and bytes", () => {
    for (const value of ["", "dh_token", new Uint8Array([0, 1, 2, 255])]) {
      expect(sha256Hex(value)).toBe(createHash("sha256").update(value).digest("hex"));
    }
  });

  test("bytesEqual: equal bytes, different bytes, different lengths", () => {
    expect(bytesEqual(Buffer.from("abc"), Buffer.from("abc"))).toBe(true);
    expect(bytesEqual(Buffer.from("abc"), Buffer.from("abd"))).toBe(false);
    expect(bytesEqual(Buffer.from("abc"), Buffer.from("ab"))).toBe(false);
  });
});
