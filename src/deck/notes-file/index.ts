/**
 * @module deck/notes-file
 * A notes file that comes beside the PDF: sniffed (a zip is a PowerPoint .pptx, JSON is a
 * .pdfpc of format 1 or 2), read within caps, checked with coded findings, and normalised to
 * one `.pdfpc` document (format 2, `pages[].idx` 0-based, `note` as written — markdown, or plain
 * text with `disableMarkdown: true` for a .pptx — and the timer fields when known): the form
 * the server stores with a staged deck, hands over, and the browser keeps with the deck and
 * passes to `readDeckExtras({ notesFile })`. Browser-safe.
 */
import { finding, quoteName, type Finding } from "../sidecar/findings.ts";
import { baseName } from "../sidecar/names.ts";
import { parsePdfpc } from "../sidecar/pdfpc.ts";
import type { NotesFormat, TimerSettings } from "../sidecar/types.ts";
import { readPptxNotes } from "./pptx.ts";
import type { NotesFileResult } from "./types.ts";

export type { NotesFileResult } from "./types.ts";

/** A notes file larger than this is refused unread: a 3,000-slide .pptx without media is a few MiB. */
export const MAX_NOTES_FILE_BYTES = 32 * 1024 * 1024;
/** The normalised .pdfpc text at most (UTF-8 bytes): it is stored and handed over with the deck. */
export const MAX_NORMALISED_PDFPC_BYTES = 8 * 1024 * 1024;
/** Notes of one slide at most (characters), as for in-page notes: pages of notes, not pasted documents. */
export const MAX_NOTE_CHARS = 64 * 1024;

function isZip(bytes: Uint8Array): boolean {
  // A local file header, or the end record of an empty archive.
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6));
}

function looksLikeJson(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  return bytes[i] === 0x7b;
}

/**
 * Read a notes file given beside a PDF of `pageCount` pages. Never throws; every problem is a
 * finding in `issues` (errors leave `pdfpc` null, so nothing is stored or shown).
 */
export function readNotesFile(bytes: Uint8Array, filename: string, pageCount: number): NotesFileResult {
  const name = baseName(filename || "notes");
  const result: NotesFileResult = { kind: null, filename: name, notes: new Map(), notesFormat: "markdown", timer: {}, hidden: [], overlays: [], slideCount: null, pdfpc: null, issues: [] };
  const at = { attachment: name };
  if (bytes.length > MAX_NOTES_FILE_BYTES) {
    result.issues.push(finding("NOTES_FILE_TOO_LARGE", `${quoteName(name)} is ${Math.ceil(bytes.length / 1024 / 1024)} MiB; a notes file may be at most ${MAX_NOTES_FILE_BYTES / 1024 / 1024} MiB. Remove the media from the presentation (only its notes are read) or send a .pdfpc file.`, at));
    return result;
  }
  try {
    if (isZip(bytes)) readPptx(bytes, name, pageCount, result);
    else if (looksLikeJson(bytes) || /\.pdfpc$/i.test(name)) readPdfpc(bytes, name, pageCount, result);
    else result.issues.push(finding("NOTES_FILE_UNRECOGNIZED", `${quoteName(name)} is neither a pdfpc file (JSON with "pdfpcFormat") nor a PowerPoint .pptx; send the .pdfpc file pdfpc or Typst wrote, or the .pptx the PDF was exported from.`, at));
  } catch {
    result.issues.push(finding("NOTES_FILE_UNRECOGNIZED", `${quoteName(name)} cannot be read as a pdfpc file or a PowerPoint .pptx; send it again.`, at));
    result.pdfpc = null;
  }
  return result;
}

function readPdfpc(bytes: Uint8Array, name: string, pageCount: number, result: NotesFileResult): void {
  result.kind = "pdfpc";
  const parsed = parsePdfpc(bytes, name, pageCount, MAX_NORMALISED_PDFPC_BYTES);
  result.issues.push(...parsed.issues);
  if (!parsed.usable) return;
  result.timer = parsed.timer;
  result.hidden = parsed.hidden;
  result.overlays = parsed.overlays;
  result.slideCount = parsed.pagesNamed;
  result.notesFormat = parsed.notesFormat;
  finish(parsed.notes, name, result);
}

function readPptx(bytes: Uint8Array, name: string, pageCount: number, result: NotesFileResult): void {
  result.kind = "pptx";
  const parsed = readPptxNotes(bytes, name, pageCount);
  result.issues.push(...parsed.issues);
  result.slideCount = parsed.slideCount;
  if (!parsed.usable || parsed.issues.some((i) => i.level === "error")) return;
  // PowerPoint notes are plain text: kept as written, marked so (pdfpc's own flag) in the normalised file.
  result.notesFormat = "text";
  finish(parsed.notes, name, result);
}

/** Cap the notes, warn when there are none, and write the normalised .pdfpc text. */
function finish(notes: Map<number, string>, name: string, result: NotesFileResult): void {
  const at = { attachment: name };
  let bytesLeft = MAX_NORMALISED_PDFPC_BYTES - 1024;
  const pages: { idx: number; note: string }[] = [];
  for (const slide of [...notes.keys()].sort((a, b) => a - b)) {
    let note = notes.get(slide) as string;
    if (note.length > MAX_NOTE_CHARS) {
      note = `${note.slice(0, MAX_NOTE_CHARS)}…`;
      result.issues.push(finding("NOTES_FILE_TRUNCATED", `${quoteName(name)}: the notes of slide ${slide} are longer than ${MAX_NOTE_CHARS} characters; the rest is left out. Keep speaker notes short.`, { ...at, slide }));
    }
    const cost = new TextEncoder().encode(JSON.stringify(note)).length + 24;
    if (cost > bytesLeft) {
      result.issues.push(finding("NOTES_FILE_TRUNCATED", `${quoteName(name)}: the notes add up to more than ${MAX_NORMALISED_PDFPC_BYTES / 1024 / 1024} MiB; the notes from slide ${slide} on are left out. Keep speaker notes short.`, { ...at, slide }));
      break;
    }
    bytesLeft -= cost;
    result.notes.set(slide, note);
    pages.push({ idx: slide - 1, note });
  }
  if (result.notes.size === 0 && result.hidden.length === 0 && result.overlays.length === 0) result.issues.push(finding("NOTES_FILE_EMPTY", `${quoteName(name)} gives no notes for any slide; check that it belongs to this deck.`, at));
  result.pdfpc = normalisedPdfpc(withFlags(pages, result.hidden, result.overlays), result.timer, result.notesFormat);
}

/** A page of the normalised .pdfpc: its notes and pdfpc's flags. */
type NormalisedPage = { idx: number; note?: string; hidden?: true; forcedOverlay?: true };

/**
 * The pages with their `hidden` flags (pdfpc's Ctrl+H) and `forcedOverlay` flags (the slide
 * grouping of a deck without page labels: pdfpc's Ctrl+O, polylux2pdfpc) added, in page order.
 */
function withFlags(pages: { idx: number; note: string }[], hidden: number[], overlays: number[]): NormalisedPage[] {
  const byIdx = new Map<number, NormalisedPage>(pages.map((p) => [p.idx, { ...p }]));
  for (const page of hidden) byIdx.set(page - 1, { ...(byIdx.get(page - 1) ?? { idx: page - 1 }), hidden: true });
  for (const page of overlays) byIdx.set(page - 1, { ...(byIdx.get(page - 1) ?? { idx: page - 1 }), forcedOverlay: true });
  return [...byIdx.values()].sort((a, b) => a.idx - b.idx);
}

/** The .pdfpc (format 2) text for these notes (written in `format`) and timer settings. */
export function normalisedPdfpc(pages: NormalisedPage[], timer: TimerSettings, format: NotesFormat = "markdown"): string {
  const doc: Record<string, unknown> = { pdfpcFormat: 2, disableMarkdown: format === "text" };
  if (timer.durationMinutes !== undefined) doc.duration = timer.durationMinutes;
  if (timer.startTime !== undefined) doc.startTime = timer.startTime;
  if (timer.endTime !== undefined) doc.endTime = timer.endTime;
  if (timer.lastMinutes !== undefined) doc.lastMinutes = timer.lastMinutes;
  // pdfpc's own 0-based index of the last user slide (TimerSettings keeps it 1-based).
  if (timer.endSlide !== undefined) doc.endSlide = timer.endSlide - 1;
  doc.pages = pages;
  return JSON.stringify(doc);
}
