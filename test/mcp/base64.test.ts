import { describe, expect, setDefaultTimeout, test } from "bun:test";
import fc from "fast-check";
import { AppError } from "../../src/base/errors.ts";
import { decodePdfBase64 } from "../../src/mcp/base64.ts";
import { fileTooLarge } from "../../src/tools/upload-limits.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (2.2 s).
setDefaultTimeout(30_000);

const bytes = new Uint8Array(Array.from({ length: 300 }, (_, i) => (i * 37) % 256));
const std = Buffer.from(bytes).toString("base64");

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return `${error.code}: ${error.detail}`;
    throw error;
  }
  return "no error";
}

describe("decodePdfBase64", () => {
  test("decodes standard, unpadded, URL-safe, line-wrapped and data: URL forms to the same bytes", () => {
    for (const text of [
      std,
      std.replace(/=+$/, ""),
      Buffer.from(bytes).toString("base64url"),
      std.replace(/.{76}/g, "$&\n"),
      `  data:application/pdf;base64,${std}\n`,
      `data:application/pdf;name=deck.pdf;base64,${std}`,
    ]) {
      expect(new Uint8Array(decodePdfBase64(text, 1000))).toEqual(bytes);
    }
  });

  test("also mixed alphabets and any whitespace JavaScript knows (CR LF, tab, no-break space, U+2028)", () => {
    const url = Buffer.from(bytes).toString("base64url");
    for (const text of [std.slice(0, 40) + url.slice(40), std.replace(/.{10}/g, "$&\r\n\t \u00a0\u2028\v\f")]) {
      expect(new Uint8Array(decodePdfBase64(text, 1000))).toEqual(bytes);
    }
  });

  test("returns the decoded Buffer itself: exactly the PDF's bytes, no second copy", () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 1, 0x5a);
    for (const text of [big.toString("base64"), `data:application/pdf;base64,${big.toString("base64").replace(/.{76}/g, "$&\n")}`]) {
      const decoded = decodePdfBase64(text, big.length);
      expect(decoded).toBeInstanceOf(Buffer);
      expect(decoded.buffer.byteLength).toBe(big.length);
      expect(decoded.equals(big)).toBe(true);
    }
  });

  test("accepts and refuses exactly what the earlier regex-and-replace decoder did, with the same messages", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("", " ", "\n ", "data:application/pdf;base64,", " data:application/pdf;name=a.pdf;base64,"),
        fc.array(fc.constantFrom(..."AZaz09+/-_==  \n\r\t\u00a0\u2028!.:;,é"), { maxLength: 14 }),
        fc.nat(12),
        (prefix, chars, max) => {
          const text = prefix + chars.join("");
          expect(outcome(() => decodePdfBase64(text, max))).toBe(outcome(() => referenceDecode(text, max)));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  test("names the first bad character and its 1-based position in the text as given", () => {
    expect(codeOf(() => decodePdfBase64("  abcd!", 1000))).toStartWith('BAD_REQUEST: pdf_base64 is not valid base64 (character "!" at position 7)');
    expect(codeOf(() => decodePdfBase64("data:application/pdf;base64,ab.d", 1000))).toContain("at position 31");
  });

  test("refuses empty input, misplaced padding and cut-off text", () => {
    expect(codeOf(() => decodePdfBase64("", 1000))).toContain("empty");
    expect(codeOf(() => decodePdfBase64(" \n ", 1000))).toContain("empty");
    expect(codeOf(() => decodePdfBase64("data:application/pdf;base64,", 1000))).toContain("empty");
    expect(codeOf(() => decodePdfBase64("ab=cd", 1000))).toStartWith("BAD_REQUEST");
    expect(codeOf(() => decodePdfBase64("abcde", 1000))).toContain("cut off");
    expect(codeOf(() => decodePdfBase64("abc==", 1000))).toContain("padding");
  });

  test("checks the decoded size before decoding: the limit is inclusive", () => {
    expect(decodePdfBase64(std, 300)).toHaveLength(300);
    expect(codeOf(() => decodePdfBase64(std, 299))).toStartWith("FILE_TOO_LARGE");
  });
});

function outcome(fn: () => Uint8Array): string {
  try {
    return `ok ${Buffer.from(fn()).toString("hex")}`;
  } catch (error) {
    if (error instanceof AppError) return `${error.code}: ${error.detail}`;
    throw error;
  }
}

/** The decoder before the one-scan rewrite (six copies of the text), kept as the oracle. */
function referenceDecode(text: string, maxBytes: number): Uint8Array {
  const DATA_URL_PREFIX = /^data:[^,;]*(?:;[^,;=]+=[^,;]*)*;base64,/i;
  const prefix = /^\s*/.exec(text)![0].length + (DATA_URL_PREFIX.exec(text.trim())?.[0].length ?? 0);
  const bad = /[^A-Za-z0-9+/=\-_\s]/.exec(text.slice(prefix));
  if (bad) {
    throw new AppError(
      "BAD_REQUEST",
      `pdf_base64 is not valid base64 (character ${JSON.stringify(bad[0])} at position ${prefix + bad.index + 1}); pass the whole PDF file encoded as standard base64 (RFC 4648).`,
    );
  }
  const body = text.trim().replace(DATA_URL_PREFIX, "").replace(/[\s]+/g, "").replaceAll("-", "+").replaceAll("_", "/");
  const unpadded = body.replace(/={1,2}$/, "");
  if (unpadded.length === 0) throw new AppError("BAD_REQUEST", "pdf_base64 is empty; pass the whole PDF file encoded as base64.");
  if (!/^[A-Za-z0-9+/]*$/.test(unpadded)) {
    throw new AppError("BAD_REQUEST", "pdf_base64 is not valid base64 ('=' padding may only end it); pass the whole PDF file encoded as standard base64 (RFC 4648).");
  }
  if (unpadded.length % 4 === 1) {
    throw new AppError("BAD_REQUEST", "pdf_base64 is not valid base64 (its length shows it was cut off); pass the whole PDF file encoded as base64.");
  }
  if (body.length !== unpadded.length && body.length % 4 !== 0) {
    throw new AppError("BAD_REQUEST", "pdf_base64 has misplaced '=' padding; pass the whole PDF file encoded as standard base64 (RFC 4648).");
  }
  if (Math.floor((unpadded.length * 3) / 4) > maxBytes) throw fileTooLarge(maxBytes);
  return new Uint8Array(Buffer.from(unpadded, "base64"));
}
