/**
 * @module mcp/base64
 * Decode the `pdf_base64` argument of the MCP tools strictly. Agents produce base64 in many
 * dialects (line-wrapped, URL-safe, with or without padding, as a `data:` URL); all of those
 * are accepted, anything else is a BAD_REQUEST that says what was wrong — never a 500, and
 * never Buffer's silent skipping of bad characters.
 */
import { AppError } from "../errors.ts";
import { fileTooLarge } from "./limits.ts";

/** `data:application/pdf;base64,` (any media type, optional parameters). */
const DATA_URL_PREFIX = /^data:[^,;]*(?:;[^,;=]+=[^,;]*)*;base64,/i;
const BASE64_BODY = /^[A-Za-z0-9+/]*$/;

/** Decoded length of a base64 text of `length` characters without padding. */
function decodedLength(length: number): number {
  return Math.floor((length * 3) / 4);
}

/**
 * Decode `text` to bytes. Throws BAD_REQUEST for malformed or empty input and FILE_TOO_LARGE
 * when the decoded size would exceed `maxBytes` (checked before decoding anything).
 */
export function decodePdfBase64(text: string, maxBytes: number): Uint8Array {
  const prefix = /^\s*/.exec(text)![0].length + (DATA_URL_PREFIX.exec(text.trim())?.[0].length ?? 0);
  const bad = /[^A-Za-z0-9+/=\-_\s]/.exec(text.slice(prefix));
  if (bad) {
    // 1-based, counted in the text as given, so the agent can find it.
    const position = prefix + bad.index + 1;
    throw new AppError(
      "BAD_REQUEST",
      `pdf_base64 is not valid base64 (character ${JSON.stringify(bad[0])} at position ${position}); pass the whole PDF file encoded as standard base64 (RFC 4648).`,
    );
  }
  let body = text.trim().replace(DATA_URL_PREFIX, "");
  // Line breaks and spaces appear in MIME-style (76-column) base64; they carry nothing.
  body = body.replace(/[\s]+/g, "");
  // URL-safe alphabet (RFC 4648 §5) maps one to one onto the standard one.
  body = body.replaceAll("-", "+").replaceAll("_", "/");
  const unpadded = body.replace(/={1,2}$/, "");
  if (unpadded.length === 0) {
    throw new AppError("BAD_REQUEST", "pdf_base64 is empty; pass the whole PDF file encoded as base64.");
  }
  if (!BASE64_BODY.test(unpadded)) {
    throw new AppError("BAD_REQUEST", "pdf_base64 is not valid base64 ('=' padding may only end it); pass the whole PDF file encoded as standard base64 (RFC 4648).");
  }
  // One leftover character cannot encode a byte: the text was cut off.
  if (unpadded.length % 4 === 1) {
    throw new AppError("BAD_REQUEST", "pdf_base64 is not valid base64 (its length shows it was cut off); pass the whole PDF file encoded as base64.");
  }
  if (body.length !== unpadded.length && body.length % 4 !== 0) {
    throw new AppError("BAD_REQUEST", "pdf_base64 has misplaced '=' padding; pass the whole PDF file encoded as standard base64 (RFC 4648).");
  }
  if (decodedLength(unpadded.length) > maxBytes) throw fileTooLarge(maxBytes);
  return new Uint8Array(Buffer.from(unpadded, "base64"));
}
