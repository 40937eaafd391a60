/**
 * @module deck/analyze/entries
 * Phase 1 of the analysis: read every attachment's stream once, within the document's
 * budgets (decoded bytes, sidecar text), and record what it says — size, sniffed type,
 * checksum, the text of a sidecar — as an `Entry` the later phases place and judge.
 */
import { md5 as md5Hash } from "@noble/hashes/legacy.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { Discovery, DiscoveredAttachment } from "../attachments.ts";
import type { PdfObj } from "../mupdf-types.ts";
import type { AttachmentKind } from "../report-types.ts";
import { concat, decodeStream } from "../stream-decode.ts";
import { finding, quoteName, type Finding } from "../sidecar/findings.ts";
import { MAX_SIDECAR_BYTES } from "../sidecar/json-text.ts";
import { matchAttachmentName, type NameMatch } from "../sidecar/names.ts";
import { isExecutable, mimeAgrees, normalizeMime, sniffMime, SNIFF_BYTES } from "../sidecar/sniff.ts";
import type { AnalyzeOptions } from "./options.ts";

export interface Entry {
  found: DiscoveredAttachment;
  match: NameMatch;
  issues: Finding[];
  /** Decoded bytes, kept only for sidecars (text). */
  text: Uint8Array | null;
  /** The first SNIFF_BYTES decoded bytes. */
  head: Uint8Array;
  /** Decoded size when fully decoded. */
  bytes: number | null;
  /** Decoding produced usable bytes (or, when not verifying, a usable head). */
  readable: boolean;
  sniffed: string | null;
  kind: AttachmentKind;
  slide?: number;
  textOut?: string;
  data?: Record<string, unknown>;
  placed: boolean;
}

const MiB = 1024 * 1024;
/**
 * A stream may decode to at most this many times its stored length (above RATIO_FLOOR): real
 * JSON compresses ~10×, media ~1×, while a zip bomb reaches ~1000×. So a bomb is stopped after
 * work proportional to its own size, not at the full per-attachment cap.
 */
const MAX_EXPANSION = 64;
const RATIO_FLOOR = 16 * MiB;

/** One stream's decoded facts, shared by every attachment whose file specification points at it. */
interface Decoded {
  outcome: ReturnType<typeof decodeStream>;
  /** Bytes that went through (also when stopped or too large). */
  seen: number;
  head: Uint8Array;
  /** The first MAX_SIDECAR_BYTES + 1 bytes, when a sidecar (or several attachments) need them. */
  text: Uint8Array | null;
  md5: string | null;
  cap: number;
}

/** What reading the attachments may still cost in this document. */
interface Budget {
  decodedLeft: number;
  sidecarLeft: number;
  cache: Map<number, Decoded>;
  /** Object number → how many attachments point at that stream. */
  refs: Map<number, number>;
}

function sizeText(bytes: number): string {
  return bytes >= MiB ? `${Math.round(bytes / MiB)} MiB` : `${bytes} bytes`;
}

/** Phase 1: an entry per discovered attachment, its stream read within the budgets. */
export function readEntries(attachments: Discovery["attachments"], opts: AnalyzeOptions): Entry[] {
  const budget: Budget = { decodedLeft: opts.maxTotalBytes, sidecarLeft: opts.maxSidecarTotalBytes, cache: new Map(), refs: new Map() };
  for (const found of attachments) {
    const number = streamNumber(found.stream);
    if (number !== null) budget.refs.set(number, (budget.refs.get(number) ?? 0) + 1);
  }
  return attachments.map((found: DiscoveredAttachment) => {
    const match = matchAttachmentName(found.baseName);
    const entry: Entry = { found, match, issues: [...found.issues], text: null, head: new Uint8Array(0), bytes: null, readable: false, sniffed: null, kind: "unknown", placed: false };
    if (!found.stream) return entry;
    const at = { attachment: found.baseName, slide: "slide" in match ? match.slide : undefined };
    if (budget.decodedLeft <= 0) {
      entry.issues.push(budgetFinding(found.baseName, opts.maxTotalBytes, at));
      return entry;
    }
    try {
      readEntry(entry, opts, budget);
    } catch {
      entry.issues.push(finding("STRUCTURE_UNREADABLE", `${quoteName(found.baseName)} cannot be read from the PDF's structure; attach it again.`, at));
    }
    return entry;
  });
}

function budgetFinding(base: string, budget: number, at: { attachment: string; slide: number | undefined }): Finding {
  return finding("DECODE_BUDGET_EXCEEDED", `${quoteName(base)} was not read: together with the attachments before it, it decodes to more than ${sizeText(budget)}, the limit for one deck. Remove large or duplicated attachments.`, at);
}

function streamNumber(stream: PdfObj | null): number | null {
  return stream && stream.isIndirect() ? stream.asIndirect() : null;
}

/** The decode cap of `stream`: the attachment cap, lowered for a stream that is small when stored. */
function expansionCap(stream: PdfObj, cap: number): number {
  const length = stream.get("Length");
  if (!length.isNumber()) return cap;
  const stored = length.asNumber();
  if (!Number.isFinite(stored) || stored < 0) return cap;
  return Math.min(cap, Math.max(RATIO_FLOOR, stored * MAX_EXPANSION));
}

/**
 * Decode `stream` once: its head for sniffing, its text when wanted, its MD5 when wanted.
 * Never more than `cap` bytes; returns early (status "stopped") when `stopEarly` says so.
 */
function decodeOnce(stream: PdfObj, cap: number, wantText: boolean, wantMd5: boolean, stopEarly: boolean): Decoded {
  // MD5 only compares with what the PDF declares; pure JS as the browser's crypto.subtle has none.
  const md5 = wantMd5 ? md5Hash.create() : null;
  const head = new Uint8Array(SNIFF_BYTES);
  let headLength = 0;
  const textParts: Uint8Array[] = [];
  let textLength = 0;
  let seen = 0;
  const outcome = decodeStream(stream, cap, (chunk) => {
    if (headLength < SNIFF_BYTES) {
      const take = Math.min(SNIFF_BYTES - headLength, chunk.length);
      head.set(chunk.subarray(0, take), headLength);
      headLength += take;
    }
    if (wantText && textLength <= MAX_SIDECAR_BYTES) {
      textParts.push(chunk.slice(0, MAX_SIDECAR_BYTES + 1 - textLength));
      textLength += Math.min(chunk.length, MAX_SIDECAR_BYTES + 1 - textLength);
    }
    md5?.update(chunk);
    seen += chunk.length;
    // The presenter only needs the head of a binary and the whole of a (small) sidecar.
    if (stopEarly && (wantText ? textLength > MAX_SIDECAR_BYTES : headLength >= SNIFF_BYTES)) return false;
    return true;
  });
  return {
    outcome,
    seen,
    head: head.slice(0, headLength),
    text: wantText && outcome.status !== "failed" ? concat(textParts, textLength) : null,
    md5: md5 && outcome.status === "ok" ? bytesToHex(md5.digest()) : null,
    cap,
  };
}

/**
 * Read one attachment's stream (from the cache when another attachment already decoded it)
 * and record what it says: size, type, checksum, the text of a sidecar. Charges the budget.
 */
function readEntry(entry: Entry, opts: AnalyzeOptions, budget: Budget): void {
  const { found, match } = entry;
  const stream = found.stream;
  if (!stream) return;
  const base = found.baseName;
  const at = { attachment: base, slide: "slide" in match ? match.slide : undefined };
  const isSidecar = match.type === "notes" || match.type === "media-sidecar" || match.type === "poll" || match.type === "pdfpc";
  if (isSidecar && budget.sidecarLeft <= 0) {
    entry.issues.push(finding("DECODE_BUDGET_EXCEEDED", `${quoteName(base)} was not read: the sidecars before it already hold more than ${sizeText(opts.maxSidecarTotalBytes)} of text, the limit for one deck. Remove duplicated or oversized sidecars.`, at));
    return;
  }
  const left = budget.decodedLeft;
  const number = streamNumber(stream);
  const shared = number !== null && (budget.refs.get(number) ?? 0) > 1;
  let decoded = number !== null ? budget.cache.get(number) : undefined;
  if (!decoded || (isSidecar && decoded.text === null)) {
    const cap = expansionCap(stream, Math.min(opts.maxAttachmentBytes, left));
    decoded = decodeOnce(stream, cap, isSidecar || shared, opts.verify && (found.declaredChecksum !== null || shared), !opts.verify);
    if (number !== null && shared) budget.cache.set(number, decoded);
  }
  budget.decodedLeft -= decoded.seen;
  const { outcome } = decoded;
  entry.head = decoded.head;
  if (outcome.status === "too-large") {
    entry.issues.push(
      // The deck's budget, not this attachment's own cap, was the limit it ran into.
      decoded.cap === left && left < opts.maxAttachmentBytes
        ? budgetFinding(base, opts.maxTotalBytes, at)
        : finding("ATTACHMENT_TOO_LARGE", `${quoteName(base)} decodes to more than ${sizeText(decoded.cap)}, the limit for this attachment (a compressed file that expands this much is a decompression bomb or far too large for a talk); it was not read. Remove it or attach a smaller file.`, at),
    );
    entry.bytes = null;
    return;
  }
  if (outcome.status === "failed") {
    entry.issues.push(finding("STREAM_DECODE_FAILED", `${quoteName(base)} cannot be decoded: ${outcome.reason}. Attach the file again.`, at));
    return;
  }
  entry.readable = true;
  entry.sniffed = sniffMime(entry.head);
  if (isSidecar && decoded.text) {
    entry.text = decoded.text;
    budget.sidecarLeft -= decoded.text.length;
  }
  if (outcome.status === "ok") {
    entry.bytes = decoded.seen;
    if (opts.verify && found.declaredSize !== null && found.declaredSize !== decoded.seen) {
      entry.issues.push(finding("SIZE_MISMATCH", `${quoteName(base)} declares /Size ${found.declaredSize} but decodes to ${decoded.seen} bytes; the file was changed after it was attached. Attach it again.`, at));
    }
    if (decoded.md5 && found.declaredChecksum) {
      const declared = bytesToHex(found.declaredChecksum);
      if (declared !== decoded.md5) {
        entry.issues.push(finding("CHECKSUM_MISMATCH", `${quoteName(base)} declares the MD5 checksum ${declared.slice(0, 32)} but its bytes hash to ${decoded.md5}; the file is damaged or was changed after it was attached. Attach it again.`, at));
      }
    }
  }
  if (isExecutable(base, entry.sniffed)) {
    entry.issues.push(finding("EXECUTABLE_ATTACHMENT", `${quoteName(base)} is an executable or script${entry.sniffed ? ` (${entry.sniffed})` : ""}; decks must not carry programs. Remove it.`, at));
  }
  if (!isSidecar && found.declaredMime && entry.sniffed) {
    const declared = normalizeMime(found.declaredMime);
    if (declared !== "application/octet-stream" && !mimeAgrees(declared, entry.sniffed)) {
      entry.issues.push(finding("EMBEDDED_MIME_MISMATCH", `${quoteName(base)} is recorded in the PDF as ${declared} but contains ${entry.sniffed}; re-attach it with the right type.`, at));
    }
  }
}
