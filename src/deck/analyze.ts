/**
 * @module deck/analyze
 * The one pass that turns an opened PDF into per-slide notes, media and findings. The check
 * report and the presenter's `DeckExtras` both come from here, so the presenter shows
 * exactly what the report says. Browser-safe: mupdf objects come in as parameters.
 *
 * What the presenter shows: per slide, the notes of the first usable source (notes sidecar,
 * then pdfpc, then in-page annotations); each media sidecar that is not invalid (and, for
 * kind "file", whose binary is not invalid); each page-attached media that is not invalid.
 */
import { md5 as md5Hash } from "@noble/hashes/legacy.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { finding, quoteName, slideOutOfRangeMessage, type Finding } from "./sidecar/findings.ts";
import { MAX_SIDECAR_BYTES } from "./sidecar/json-text.ts";
import { checkMediaRect, parseMediaSidecar } from "./sidecar/media.ts";
import { baseName, matchAttachmentName, MEDIA_FILE_EXTENSIONS, type NameMatch } from "./sidecar/names.ts";
import { parseNotesSidecar } from "./sidecar/notes.ts";
import { parsePdfpc, type PdfpcResult } from "./sidecar/pdfpc.ts";
import { EXTENSION_MIME, isExecutable, isMediaMime, mimeAgrees, normalizeMime, PLAYABLE_MIMES, sniffMime, SNIFF_BYTES, UNPLAYABLE_CONTAINERS } from "./sidecar/sniff.ts";
import type { DeckExtras, NotesSource, SlideMedia, TimerSettings } from "./sidecar/types.ts";
import { DEFAULT_DISCOVERY_LIMITS, discoverAttachments, type DiscoveredAttachment, type DiscoveryLimits } from "./attachments.ts";
import type { PdfDoc, PdfObj } from "./mupdf-types.ts";
import { validityOf, type AttachmentKind, type AttachmentResult, type PageResult, type PresenterNotes } from "./report-types.ts";
import { concat, decodeStream } from "./stream-decode.ts";

export interface AnalyzeOptions {
  /** Decoded size cap per attachment; legitimate media hardly compress, so a larger result is a bomb. */
  maxAttachmentBytes: number;
  /**
   * Decoded size budget for all attachments of one document together, charged for every
   * attachment that reads a stream (a stream shared by many attachments is decoded once, but
   * each of them costs its size: that is the work the report does for it).
   */
  maxTotalBytes: number;
  /** Sidecar text (notes, media, pdfpc JSON) parsed per document at most. */
  maxSidecarTotalBytes: number;
  /** Characters of notes text the result carries at most; past it, texts are cut (REPORT_TRUNCATED). */
  maxReportTextChars: number;
  /** Decode every binary fully (size, MD5). False reads only what the presenter needs. */
  verify: boolean;
  limits: DiscoveryLimits;
}

export const DEFAULT_ANALYZE_OPTIONS: AnalyzeOptions = {
  maxAttachmentBytes: 256 * 1024 * 1024,
  // Twice the largest deck a default server accepts: media hardly compress, so a real deck
  // decodes to about its own size.
  maxTotalBytes: 512 * 1024 * 1024,
  // A 3,000-slide deck with a page of notes per slide is ~10 MiB of JSON.
  maxSidecarTotalBytes: 32 * 1024 * 1024,
  // Notes text appears twice in a report (the sidecar's text and the slide's presenter notes).
  maxReportTextChars: 8 * 1024 * 1024,
  verify: true,
  limits: DEFAULT_DISCOVERY_LIMITS,
};

export interface Analysis {
  pages: PageResult[];
  orphans: AttachmentResult[];
  documentAttachments: AttachmentResult[];
  issues: Finding[];
  timer: TimerSettings;
  extras: DeckExtras;
}

interface Entry {
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

export function analyzeDeck(doc: PdfDoc, pageCount: number, options: Partial<AnalyzeOptions> = {}): Analysis {
  const opts: AnalyzeOptions = { ...DEFAULT_ANALYZE_OPTIONS, ...options };
  const discovery = discoverAttachments(doc, pageCount, opts.limits);
  const documentIssues: Finding[] = [...discovery.issues];
  const budget: Budget = { decodedLeft: opts.maxTotalBytes, sidecarLeft: opts.maxSidecarTotalBytes, cache: new Map(), refs: new Map() };
  for (const found of discovery.attachments) {
    const number = streamNumber(found.stream);
    if (number !== null) budget.refs.set(number, (budget.refs.get(number) ?? 0) + 1);
  }

  const entries: Entry[] = discovery.attachments.map((found) => {
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

  const pages: PageResult[] = Array.from({ length: pageCount }, (_, i) => ({ page: i + 1, notes: null, media: [], presenterNotes: null, issues: [] }));
  const orphans: Entry[] = [];
  const documentEntries: Entry[] = [];
  const place = (entry: Entry, slide: number | null) => {
    entry.placed = true;
    if (slide === null) orphans.push(entry);
    else (entry.kind === "notes" ? notesEntries : mediaEntries).push([slide, entry]);
  };
  const notesEntries: [number, Entry][] = [];
  const mediaEntries: [number, Entry][] = [];

  // Duplicate base names: the first one is used, the others are orphans.
  const byBase = new Map<string, Entry>();
  const unique: Entry[] = [];
  for (const entry of entries) {
    const first = byBase.get(entry.found.baseName);
    if (first) {
      entry.kind = kindOfMatch(entry.match);
      entry.issues.push(finding("DUPLICATE_ATTACHMENT_NAME", `${quoteName(entry.found.name)} has the same file name as ${quoteName(first.found.name)}; only the first is used. Rename or remove one.`, { attachment: entry.found.baseName }));
      place(entry, null);
    } else {
      byBase.set(entry.found.baseName, entry);
      unique.push(entry);
    }
  }

  const notesBySlide = new Map<number, { markdown: string; attachment: string }>();
  const sidecarMedia: { entry: Entry; media: SlideMedia }[] = [];
  let pdfpc: { entry: Entry; result: PdfpcResult } | null = null;
  const mediaFiles: Entry[] = [];

  const inRange = (entry: Entry, slide: number): boolean => {
    if (slide >= 1 && slide <= pageCount) return true;
    entry.issues.push(finding("SLIDE_OUT_OF_RANGE", `${quoteName(entry.found.baseName)}: ${slideOutOfRangeMessage(slide, pageCount)}; rename it to a slide between 1 and ${pageCount} or remove it.`, { attachment: entry.found.baseName, slide }));
    return false;
  };
  const pageBinding = (entry: Entry, slide: number) => {
    if (entry.found.source === "page-annotation" && entry.found.page !== undefined && entry.found.page !== slide) {
      entry.issues.push(finding("ATTACHMENT_PAGE_MISMATCH", `${quoteName(entry.found.baseName)} is attached to page ${entry.found.page} but names slide ${slide}; it is used for slide ${slide}. Attach it to that page or rename it.`, { attachment: entry.found.baseName, slide }));
    }
  };

  for (const entry of unique) {
    const { match, found } = entry;
    const base = found.baseName;
    entry.kind = kindOfMatch(match);
    if (match.type === "notes") {
      entry.slide = match.slide;
      if (!inRange(entry, match.slide)) {
        place(entry, null);
        continue;
      }
      pageBinding(entry, match.slide);
      if (notesBySlide.has(match.slide) || notesEntries.some(([s]) => s === match.slide)) {
        const other = notesEntries.find(([s]) => s === match.slide)?.[1].found.baseName ?? "another notes sidecar";
        entry.issues.push(finding("DUPLICATE_NOTES_SIDECAR", `${quoteName(base)} gives notes for slide ${match.slide}, like ${quoteName(other)}; only the first is used. Remove one.`, { attachment: base, slide: match.slide }));
        place(entry, null);
        continue;
      }
      if (entry.text) {
        const parsed = parseNotesSidecar(entry.text, { attachment: base, slide: match.slide });
        entry.issues.push(...parsed.issues);
        if (parsed.markdown !== null) {
          entry.textOut = parsed.markdown;
          if (validityOf(entry.issues) !== "invalid") notesBySlide.set(match.slide, { markdown: parsed.markdown, attachment: base });
        }
      }
      place(entry, match.slide);
    } else if (match.type === "media-sidecar") {
      entry.slide = match.slide;
      if (!inRange(entry, match.slide)) {
        place(entry, null);
        continue;
      }
      pageBinding(entry, match.slide);
      if (entry.text) {
        const parsed = parseMediaSidecar(entry.text, { attachment: base, slide: match.slide, id: match.id });
        entry.issues.push(...parsed.issues);
        if (parsed.media) {
          const box = discovery.pageBoxes[match.slide - 1];
          const rectIssue = box ? checkMediaRect(parsed.media.rect, box, { attachment: base, slide: match.slide }) : null;
          if (rectIssue) entry.issues.push(rectIssue);
          entry.data = mediaData(parsed.media);
          sidecarMedia.push({ entry, media: parsed.media });
        }
      }
      place(entry, match.slide);
    } else if (match.type === "pdfpc") {
      if (pdfpc) {
        entry.issues.push(finding("PDFPC_MULTIPLE", `${quoteName(base)} is a second pdfpc file; only ${quoteName(pdfpc.entry.found.baseName)} is used. Remove one.`, { attachment: base }));
      } else if (entry.text) {
        const result = parsePdfpc(entry.text, base, pageCount);
        entry.issues.push(...result.issues);
        pdfpc = { entry, result };
        entry.data = { format: result.format, timer: result.timer, slidesWithNotes: [...result.notes.keys()].sort((a, b) => a - b) };
      }
      entry.placed = true;
      documentEntries.push(entry);
    } else if (match.type === "media-file") {
      mediaFiles.push(entry);
    } else if (match.type === "near-miss") {
      entry.issues.push(finding("NAME_PATTERN_INVALID", `${quoteName(base)} looks like a sidecar but does not follow the naming convention, so it is ignored; ${match.hint}.`, { attachment: base }));
      place(entry, null);
    }
  }

  // kind:"file" media sidecars → their binaries.
  const uniqueByName = (name: string): Entry | undefined => unique.find((e) => e.found.name === name) ?? byBase.get(baseName(name));
  const referenced = new Set<Entry>();
  const shownMedia: SlideMedia[] = [];
  for (const { entry, media } of sidecarMedia) {
    const base = entry.found.baseName;
    const at = { attachment: base, slide: media.slide };
    if (media.kind !== "file") {
      if (validityOf(entry.issues) !== "invalid") shownMedia.push(media);
      continue;
    }
    const binary = media.attachment
      ? uniqueByName(media.attachment)
      : MEDIA_FILE_EXTENSIONS.map((ext) => byBase.get(`media-${media.id}.${ext}`)).find((e) => e !== undefined);
    if (!binary || binary === entry) {
      const wanted = media.attachment ? quoteName(media.attachment) : `media-${media.id}.gif, .mp4 or .webm`;
      entry.issues.push(finding("MEDIA_FILE_MISSING", `${quoteName(base)} needs the binary attachment ${wanted}, which is not in the PDF; attach it.`, at));
      continue;
    }
    referenced.add(binary);
    media.attachment = binary.found.baseName;
    if (binary.kind === "unknown") binary.kind = "media-file";
    checkBinaryMedia(binary, at);
    if (media.mime && binary.sniffed && !mimeAgrees(media.mime, binary.sniffed)) {
      entry.issues.push(finding("MIME_MISMATCH", `${quoteName(base)} declares "mime": "${media.mime}" but ${quoteName(binary.found.baseName)} contains ${binary.sniffed}; correct "mime" or attach the right file.`, at));
    }
    if (!media.mime && binary.sniffed) media.mime = binary.sniffed;
    entry.data = mediaData(media);
    if (!binary.placed) {
      binary.slide = media.slide;
      place(binary, media.slide);
    }
    if (validityOf(entry.issues) !== "invalid" && validityOf(binary.issues) !== "invalid") shownMedia.push(media);
  }

  // Everything not yet placed: unreferenced binaries, page media, unknown files.
  for (const entry of unique) {
    if (entry.placed) continue;
    const { found } = entry;
    const base = found.baseName;
    const pageMedia = found.source === "page-annotation" && found.page !== undefined && entry.sniffed !== null && isMediaMime(entry.sniffed);
    if (pageMedia && found.page !== undefined) {
      entry.kind = "page-media";
      entry.slide = found.page;
      const at = { attachment: base, slide: found.page };
      checkBinaryMedia(entry, at);
      const box = discovery.pageBoxes[found.page - 1];
      const rect = found.rect ?? { x: 0, y: 0, w: box?.width ?? 0, h: box?.height ?? 0 };
      if (rect.w <= 0 || rect.h <= 0) entry.issues.push(finding("MEDIA_RECT_INVALID", `${quoteName(base)}: its annotation's /Rect on page ${found.page} has no area; give the annotation a rectangle where the media should play.`, at));
      else if (box) {
        const rectIssue = checkMediaRect(rect, box, at);
        if (rectIssue) entry.issues.push(rectIssue);
      }
      const media: SlideMedia = {
        id: base.replace(/\.[^.]*$/, "").replace(/[^A-Za-z0-9._-]/g, "_") || `page-${found.page}`,
        kind: "file",
        slide: found.page,
        rect,
        mime: entry.sniffed,
        autoplay: true,
        loop: true,
        attachment: base,
        source: "page-annotation",
      };
      entry.data = { ...mediaData(media), annotation: found.annotation ?? null };
      if (validityOf(entry.issues) !== "invalid") shownMedia.push(media);
      place(entry, found.page);
    } else if (entry.match.type === "media-file" && !referenced.has(entry)) {
      entry.kind = "media-file";
      entry.issues.push(finding("MEDIA_FILE_UNREFERENCED", `${quoteName(base)} is a media binary that no media sidecar references; add media-slide-{N}-${entry.match.id}.json or remove it.`, { attachment: base }));
      place(entry, null);
    } else {
      entry.kind = "unknown";
      entry.issues.push(finding("UNKNOWN_ATTACHMENT", `${quoteName(base)} follows no deckhand convention (notes-slide-{N}.json, media-slide-{N}-{id}.json, media-{id}.{ext}, *.pdfpc) and is ignored.`, { attachment: base }));
      place(entry, null);
    }
  }

  // Presenter notes by priority, and a warning where several sources compete.
  // (TypeScript narrows `pdfpc` to null across the loop above; re-widen it.)
  const pdfpcFound = pdfpc as { entry: Entry; result: PdfpcResult } | null;
  const timer: TimerSettings = pdfpcFound ? { ...pdfpcFound.result.timer } : {};
  const pdfpcUsable = pdfpcFound && pdfpcFound.result.usable ? pdfpcFound : null;
  const extras: DeckExtras = { notes: {}, notesSource: {}, media: [], timer };
  const sourceLabel: Record<NotesSource, string> = { "notes-sidecar": "a notes sidecar", pdfpc: "the pdfpc file", annotation: "in-page note annotations" };
  for (const page of pages) {
    const candidates: PresenterNotes[] = [];
    const sidecar = notesBySlide.get(page.page);
    if (sidecar && sidecar.markdown.trim()) candidates.push({ source: "notes-sidecar", text: sidecar.markdown, attachment: sidecar.attachment });
    const fromPdfpc = pdfpcUsable?.result.notes.get(page.page);
    if (pdfpcUsable && fromPdfpc) candidates.push({ source: "pdfpc", text: fromPdfpc, attachment: pdfpcUsable.entry.found.baseName });
    const fromAnnotation = discovery.textNotes.get(page.page);
    if (fromAnnotation) candidates.push({ source: "annotation", text: fromAnnotation });
    const chosen = candidates[0];
    if (!chosen) continue;
    page.presenterNotes = chosen;
    extras.notes[page.page] = chosen.text;
    extras.notesSource[page.page] = chosen.source;
    if (candidates.length > 1) {
      const names = candidates.map((c) => (c.attachment ? `${sourceLabel[c.source]} (${c.attachment})` : sourceLabel[c.source]));
      page.issues.push(finding("NOTES_MULTIPLE_SOURCES", `Slide ${page.page} has notes from ${names.join(" and ")}; the presenter shows those from ${names[0]}. Keep one source.`, { slide: page.page }));
    }
  }
  extras.media = shownMedia.sort((a, b) => a.slide - b.slide);

  // Notes text, the one part of a report whose size the deck's author controls: capped.
  let textLeft = opts.maxReportTextChars;
  let textCut = false;
  const clip = (text: string): string => {
    if (text.length <= textLeft) {
      textLeft -= text.length;
      return text;
    }
    textCut = true;
    const kept = textLeft > 0 ? `${text.slice(0, textLeft)}…` : "";
    textLeft = 0;
    return kept;
  };
  for (const page of pages) {
    if (!page.presenterNotes) continue;
    page.presenterNotes.text = clip(page.presenterNotes.text);
    extras.notes[page.page] = page.presenterNotes.text;
  }

  const toResult = (entry: Entry): AttachmentResult => {
    const { found } = entry;
    const result: AttachmentResult = {
      filename: found.baseName,
      name: found.name,
      kind: entry.kind,
      source: found.source,
      validity: validityOf(entry.issues),
      issues: entry.issues.map((i) => ({ ...i })),
      bytes: entry.bytes,
      mimeType: found.declaredMime ? normalizeMime(found.declaredMime) : null,
      sniffedType: entry.sniffed,
    };
    if (entry.slide !== undefined) result.slide = entry.slide;
    if (found.page !== undefined) result.page = found.page;
    if (entry.textOut !== undefined) result.text = clip(entry.textOut);
    if (entry.data !== undefined) result.data = entry.data;
    return result;
  };
  for (const [slide, entry] of notesEntries) (pages[slide - 1] as PageResult).notes = toResult(entry);
  for (const [slide, entry] of mediaEntries) (pages[slide - 1] as PageResult).media.push(toResult(entry));
  const orphanResults = orphans.map(toResult);
  const documentResults = documentEntries.map(toResult);
  if (textCut) {
    documentIssues.push(finding("REPORT_TRUNCATED", `The notes in this PDF add up to more than ${opts.maxReportTextChars} characters; the report leaves out the text past that point (every finding is still listed). Keep speaker notes short.`));
  }

  return {
    pages,
    orphans: orphanResults,
    documentAttachments: documentResults,
    issues: documentIssues,
    timer,
    extras,
  };

  /** Checks of a media binary's bytes; findings name the binary and the slide it plays on. */
  function checkBinaryMedia(binary: Entry, where: { slide: number }): void {
    if (!binary.readable) return;
    const base = binary.found.baseName;
    const at = { attachment: base, slide: where.slide };
    const sniffed = binary.sniffed;
    const extension = base.includes(".") ? (base.split(".").pop() as string).toLowerCase() : "";
    const byExtension = EXTENSION_MIME[extension];
    if (!sniffed || !isMediaMime(sniffed)) {
      binary.issues.push(finding("MEDIA_TYPE_UNSUPPORTED", `${quoteName(base)} is ${sniffed ? `${sniffed}, not` : "not"} audio, video or an image a browser can show; attach a GIF, MP4 or WebM file.`, at));
      return;
    }
    if (byExtension && !mimeAgrees(byExtension, sniffed)) {
      binary.issues.push(finding("MIME_MISMATCH", `${quoteName(base)} is named .${extension} but contains ${sniffed}; rename it or attach the right file.`, at));
    }
    if (UNPLAYABLE_CONTAINERS.has(sniffed)) {
      binary.issues.push(finding("UNPLAYABLE_CONTAINER", `${quoteName(base)} is ${sniffed}, which most browsers cannot play; convert it to MP4 (H.264) or WebM.`, at));
    } else if (!PLAYABLE_MIMES.has(sniffed)) {
      binary.issues.push(finding("UNPLAYABLE_CONTAINER", `${quoteName(base)} is ${sniffed}, which browsers may not play; convert it to MP4 (H.264) or WebM.`, at));
    }
  }
}

function kindOfMatch(match: NameMatch): AttachmentKind {
  switch (match.type) {
    case "notes":
      return "notes";
    case "media-sidecar":
      return "media";
    case "media-file":
      return "media-file";
    case "pdfpc":
      return "pdfpc";
    default:
      return "unknown";
  }
}

function mediaData(media: SlideMedia): Record<string, unknown> {
  const data: Record<string, unknown> = { kind: media.kind, id: media.id, slide: media.slide, rect: { ...media.rect }, mime: media.mime, autoplay: media.autoplay, loop: media.loop };
  if (media.attachment !== undefined) data.attachment = media.attachment;
  if (media.url !== undefined) data.url = media.url;
  if (media.videoId !== undefined) data.videoId = media.videoId;
  return data;
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
  const isSidecar = match.type === "notes" || match.type === "media-sidecar" || match.type === "pdfpc";
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
