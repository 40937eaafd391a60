/**
 * @module deck/sidecar/json-text
 * Sidecar bytes → UTF-8 text → JSON value, each failure as a finding. Browser-safe.
 */
import { finding, type Finding } from "./findings.ts";

/** Sidecars are small text files; anything larger is a mistake or an attack. */
export const MAX_SIDECAR_BYTES = 1024 * 1024;

export type ParsedJson = { ok: true; value: unknown; text: string } | { ok: false; issue: Finding };

export function decodeUtf8(bytes: Uint8Array, attachment: string, slide?: number): { ok: true; text: string } | { ok: false; issue: Finding } {
  try {
    // ignoreBOM:false strips a leading BOM, which some Windows editors add.
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return { ok: true, text };
  } catch {
    return { ok: false, issue: finding("INVALID_UTF8", `${attachment} is not valid UTF-8; save it as UTF-8 text.`, { slide, attachment }) };
  }
}

export function parseJsonBytes(bytes: Uint8Array, attachment: string, slide?: number, maxBytes = MAX_SIDECAR_BYTES): ParsedJson {
  if (bytes.length > maxBytes) {
    return { ok: false, issue: finding("SIDECAR_TOO_LARGE", `${attachment} is ${bytes.length} bytes; sidecars must be at most ${maxBytes} bytes (${maxBytes / 1024 / 1024} MiB). Move media into a separate binary attachment.`, { slide, attachment }) };
  }
  const decoded = decodeUtf8(bytes, attachment, slide);
  if (!decoded.ok) return decoded;
  try {
    return { ok: true, value: JSON.parse(decoded.text), text: decoded.text };
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/\s+/g, " ").slice(0, 160) : "syntax error";
    return { ok: false, issue: finding("INVALID_JSON", `${attachment} is not valid JSON (${reason}); fix the syntax.`, { slide, attachment }) };
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** A slide number written as an integer or as a string of digits (Typst writes `"slide": "2"`). */
export function parseSlideField(value: unknown): number | null {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === "string" && /^\s*\d{1,6}\s*$/.test(value)) return Number(value.trim());
  return null;
}
