/**
 * @module http/pdf-response
 * How a deck's bytes go out, for the handoff download and a live talk's deck alike: a single
 * `Range` (RFC 9110), the digest (`Repr-Digest`, RFC 9530), the deck's facts in headers, and
 * no caching or sniffing.
 */
import type { ResponseBody } from "../core/blobs.ts";
import { AppError } from "../base/errors.ts";

/** Parse a single `bytes=a-b` range (RFC 9110 §14.1.2). Null: serve the whole file. */
export function parseRange(header: string | null, size: number): { start: number; end: number } | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Multiple or malformed ranges: a server may ignore Range and send 200 (RFC 9110 §14.2).
  if (!match || (match[1] === "" && match[2] === "")) return null;
  let start: number;
  let end: number;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) throw unsatisfiable(size);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    if (match[2] !== "" && Number(match[2]) < start) return null; // invalid: ignored (RFC 9110 §14.1.1)
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size) throw unsatisfiable(size);
  return { start, end };
}

function unsatisfiable(size: number): AppError {
  return new AppError("RANGE_NOT_SATISFIABLE", undefined, { headers: { "content-range": `bytes */${size}` } });
}

/** A deck's facts that travel with its bytes. */
interface DeckFacts {
  sha256: string;
  bytes: number;
  totalSlides: number;
  filename: string;
}

/** The deck's bytes (`body`: the whole deck, or exactly `range` of it) as 200 or 206. */
export function pdfResponse(body: ResponseBody, deck: DeckFacts, range: { start: number; end: number } | null, extra: Record<string, string> = {}): Response {
  const headers: Record<string, string> = {
    "content-type": "application/pdf",
    ...extra,
    "x-filename": encodeURIComponent(deck.filename),
    "x-total-slides": String(deck.totalSlides),
    "repr-digest": `sha-256=:${Buffer.from(deck.sha256, "hex").toString("base64")}:`,
    "accept-ranges": "bytes",
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
  };
  if (range) {
    headers["content-range"] = `bytes ${range.start}-${range.end}/${deck.bytes}`;
    headers["content-length"] = String(range.end - range.start + 1);
    return new Response(body, { status: 206, headers });
  }
  headers["content-length"] = String(deck.bytes);
  return new Response(body, { status: 200, headers });
}
