import { describe, expect, test } from "bun:test";
import {
  cleanedStartUrl,
  decodeFilename,
  parseHandoffLink,
  resumeDecision,
  resumeHeaders,
  screenForProblem,
  screenText,
  type ScreenKind,
} from "../../client/src/lib/handoff.ts";
import { reprDigestToHex, sha256Hex } from "../../client/src/lib/sha256.ts";

describe("parseHandoffLink", () => {
  test("reads the id and the token from the fragment", () => {
    expect(parseHandoffLink(new URL("http://h/start/AbC_-12#t=tok"))).toEqual({ id: "AbC_-12", token: "tok", tokenInQuery: false });
  });
  test("accepts ?t= and flags it for removal", () => {
    expect(parseHandoffLink(new URL("http://h/start/abc?t=tok"))).toEqual({ id: "abc", token: "tok", tokenInQuery: true });
  });
  test("a link without a token has token null", () => {
    expect(parseHandoffLink(new URL("http://h/start/abc"))?.token).toBeNull();
  });
  test("other paths are not start links", () => {
    expect(parseHandoffLink(new URL("http://h/present/abc#t=x"))).toBeNull();
    expect(parseHandoffLink(new URL("http://h/start/../x"))).toBeNull();
  });
  test("the cleaned address keeps the token only in the fragment", () => {
    const link = parseHandoffLink(new URL("http://h/start/abc?t=a%2Bb"))!;
    expect(cleanedStartUrl(link, "http://h")).toBe("http://h/start/abc#t=a%2Bb");
  });
});

describe("screenForProblem", () => {
  const cases: [string, number, ScreenKind][] = [
    ["HANDOFF_CLAIMED", 410, "claimed"],
    ["HANDOFF_EXPIRED", 410, "expired"],
    ["SESSION_NOT_FOUND", 404, "not-found"],
    ["TOKEN_INVALID", 403, "token-invalid"],
    ["TOKEN_MISSING", 401, "token-missing"],
    ["CHECKSUM_MISMATCH", 409, "checksum"],
  ];
  for (const [code, status, kind] of cases) {
    test(`${code} shows the ${kind} screen`, () => expect(screenForProblem({ code, status })).toBe(kind));
  }
  test("an unknown code falls back on the status", () => {
    expect(screenForProblem({ status: 410 })).toBe("expired");
    expect(screenForProblem({ status: 500, code: "INTERNAL" })).toBe("server");
  });
  test("dead links offer no retry, transient failures do", () => {
    expect(screenText("claimed").retry).toBe(false);
    expect(screenText("expired").retry).toBe(false);
    expect(screenText("interrupted").retry).toBe(true);
    expect(screenText("storage-quota").retry).toBe(true);
  });
});

describe("resume", () => {
  test("asks for the rest with Range", () => {
    expect(resumeHeaders(0)).toEqual({});
    expect(resumeHeaders(1024)).toEqual({ Range: "bytes=1024-" });
  });
  test("appends a 206 that starts where we stopped", () => {
    expect(resumeDecision(206, "bytes 1024-2047/2048", 1024)).toBe("append");
  });
  test("restarts on a full 200", () => {
    expect(resumeDecision(200, null, 1024)).toBe("restart");
  });
  test("rejects a 206 for the wrong offset", () => {
    expect(resumeDecision(206, "bytes 0-2047/2048", 1024)).toBe("invalid");
    expect(resumeDecision(416, null, 1024)).toBe("invalid");
  });
});

describe("filenames and digests", () => {
  test("decodes X-Filename and strips control characters", () => {
    expect(decodeFilename("Q3%20review%E2%80%94final")).toBe("Q3 review—final");
    expect(decodeFilename("a%0Ab")).toBe("ab");
    expect(decodeFilename("%E0%A4%A")).toBe("presentation");
    expect(decodeFilename(null)).toBe("presentation");
  });

  test("the fallback hasher agrees with crypto.subtle", async () => {
    const data = new Uint8Array(5 * 1024 * 1024).map((_, i) => i * 31);
    expect(await sha256Hex(data, { forceFallback: true })).toBe(await sha256Hex(data));
    expect(await sha256Hex(new TextEncoder().encode("abc"), { forceFallback: true })).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  test("Repr-Digest is decoded to hex", () => {
    const hex = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    const b64 = Buffer.from(hex, "hex").toString("base64");
    expect(reprDigestToHex(`sha-256=:${b64}:`)).toBe(hex);
    expect(reprDigestToHex("md5=:abc:")).toBeNull();
    expect(reprDigestToHex(null)).toBeNull();
  });
});

describe("streaming digest", () => {
  test("chunks fed as they arrive give the digest of the whole", async () => {
    const { StreamingSha256 } = await import("../../client/src/lib/sha256.ts");
    const data = new Uint8Array(300_000).map((_, i) => (i * 7) & 255);
    const streaming = new StreamingSha256();
    for (let i = 0; i < data.length; i += 65_536) streaming.update(data.subarray(i, i + 65_536));
    expect(streaming.hex()).toBe(await sha256Hex(data));
  });
});
