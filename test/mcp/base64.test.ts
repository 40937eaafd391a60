import { describe, expect, test } from "bun:test";
import { AppError } from "../../src/errors.ts";
import { decodePdfBase64 } from "../../src/mcp/base64.ts";

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
      expect(decodePdfBase64(text, 1000)).toEqual(bytes);
    }
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
