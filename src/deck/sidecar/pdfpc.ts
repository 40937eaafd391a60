/**
 * @module deck/sidecar/pdfpc
 * pdfpc's JSON file (`pdfpcFormat` 1 or 2): notes per physical page (`pages[].idx`, 0-based),
 * the pages the speaker hid (`pages[].hidden`, pdfpc's Ctrl+H: skipped by next and previous),
 * the pages that are overlays of the slide before them (`pages[].forcedOverlay`: pdfpc's
 * Ctrl+O, and what polylux2pdfpc writes for every build step after a Typst slide's first — the
 * grouping of a deck without page labels; `label` and `overlay` only say where the page was,
 * pdfpc groups by `forcedOverlay` alone),
 * the end of the talk proper (`endSlide`, pdfpc's Ctrl+E) and the presenter timer
 * (`duration`, `endTime`, `lastMinutes`). Notes are markdown unless `disableMarkdown` is true,
 * in both formats, as pdfpc reads them (4.5 wrote format 1 with the same flag); they are kept
 * as written (NFC), never escaped. Browser-safe.
 */
import type { NotesFormat, TimerSettings } from "./types.ts";
import { finding, slideOutOfRangeMessage, type Finding } from "./findings.ts";
import { describeType, isPlainObject, MAX_SIDECAR_BYTES, parseJsonBytes } from "./json-text.ts";
import { normalizeText } from "../text-marks.ts";

export interface PdfpcResult {
  /** slide (1-based) → the note as written, in `notesFormat`. */
  notes: Map<number, string>;
  /** How every note of the file is written: text when `disableMarkdown` is true. */
  notesFormat: NotesFormat;
  timer: TimerSettings;
  issues: Finding[];
  /** False when the file is unusable as a whole (bad JSON, wrong format). */
  usable: boolean;
  format: number | null;
  /** Pages the file names (highest `idx` + 1), null when it names none. */
  pagesNamed: number | null;
  /** Pages (1-based, ascending) marked `"hidden": true`: next and previous pass them by. */
  hidden: number[];
  /**
   * Pages (1-based, ascending, never page 1) marked `"forcedOverlay": true`: each is one more
   * step of the slide before it, whatever the page labels say (pdfpc's add_overlay).
   */
  overlays: number[];
}

const KNOWN_FIELDS = new Set(["pdfpcFormat", "disableMarkdown", "duration", "endTime", "lastMinutes", "endSlide", "savedSlide", "noteFontSize", "pages", "defaultTransition", "lastSlide", "startTime", "$schema"]);

/** `maxBytes`: the JSON's size cap (an attached sidecar's by default; a notes file beside the PDF allows more). */
export function parsePdfpc(bytes: Uint8Array, attachment: string, pageCount: number, maxBytes = MAX_SIDECAR_BYTES): PdfpcResult {
  const result: PdfpcResult = { notes: new Map(), notesFormat: "markdown", timer: {}, issues: [], usable: false, format: null, pagesNamed: null, hidden: [], overlays: [] };
  // The pre-4.5 pdfpc format is INI-like text ("[file]", "[notes]"); it is not JSON.
  const head = new TextDecoder().decode(bytes.subarray(0, 64)).trimStart();
  if (head.startsWith("[")  && /^\[(file|notes|duration|end_time|last_minutes|font_size|skip|end_user_slide|last_saved_slide)\]/.test(head)) {
    result.issues.push(finding("PDFPC_FORMAT_UNSUPPORTED", `${attachment} uses pdfpc's old text format; open and save it with pdfpc 4.5 or later (JSON, "pdfpcFormat": 2).`, { attachment }));
    return result;
  }
  const parsed = parseJsonBytes(bytes, attachment, undefined, maxBytes);
  if (!parsed.ok) {
    result.issues.push(parsed.issue);
    return result;
  }
  const value = parsed.value;
  if (!isPlainObject(value)) {
    result.issues.push(finding("INVALID_FIELD", `${attachment} is ${describeType(value)}; a .pdfpc file is a JSON object with "pdfpcFormat" and "pages".`, { attachment }));
    return result;
  }
  if (!("pdfpcFormat" in value)) {
    result.issues.push(finding("MISSING_FIELD", `${attachment} has no "pdfpcFormat"; add "pdfpcFormat": 2.`, { attachment }));
    return result;
  }
  if (value.pdfpcFormat !== 1 && value.pdfpcFormat !== 2) {
    result.issues.push(finding("PDFPC_FORMAT_UNSUPPORTED", `${attachment} has "pdfpcFormat": ${JSON.stringify(value.pdfpcFormat)?.slice(0, 40)}; deckhand reads formats 1 and 2.`, { attachment }));
    return result;
  }
  result.format = value.pdfpcFormat;
  for (const key of Object.keys(value)) {
    if (!KNOWN_FIELDS.has(key)) result.issues.push(finding("UNKNOWN_FIELD", `${attachment}: the field "${key.slice(0, 60)}" is not a pdfpc field and is ignored.`, { attachment }));
  }
  if (value.disableMarkdown === true) result.notesFormat = "text";
  if ("disableMarkdown" in value && typeof value.disableMarkdown !== "boolean") {
    result.issues.push(finding("INVALID_FIELD", `${attachment}: "disableMarkdown" must be true or false.`, { attachment }));
  }
  readTimer(value, attachment, result);
  if (!("pages" in value)) {
    result.issues.push(finding("MISSING_FIELD", `${attachment} has no "pages" array; add the pages with their notes.`, { attachment }));
    return result;
  }
  if (!Array.isArray(value.pages)) {
    result.issues.push(finding("INVALID_FIELD", `${attachment}: "pages" is ${describeType(value.pages)}; it must be an array of {"idx", "note"} objects.`, { attachment }));
    return result;
  }
  result.usable = true;
  const collected = new Map<number, string[]>();
  const hidden = new Set<number>();
  const overlays = new Set<number>();
  for (const [index, page] of value.pages.entries()) {
    if (!isPlainObject(page)) {
      result.issues.push(finding("INVALID_FIELD", `${attachment}: pages[${index}] is ${describeType(page)}; it must be an object with "idx".`, { attachment }));
      continue;
    }
    if (!("idx" in page)) {
      result.issues.push(finding("MISSING_FIELD", `${attachment}: pages[${index}] has no "idx" (the 0-based page index).`, { attachment }));
      continue;
    }
    const idx = page.idx;
    if (typeof idx !== "number" || !Number.isInteger(idx) || idx < 0) {
      result.issues.push(finding("INVALID_FIELD", `${attachment}: pages[${index}].idx must be a 0-based page index, not ${JSON.stringify(idx)?.slice(0, 40)}.`, { attachment }));
      continue;
    }
    const slide = idx + 1;
    result.pagesNamed = Math.max(result.pagesNamed ?? 0, slide);
    if ("hidden" in page) {
      if (typeof page.hidden !== "boolean") result.issues.push(finding("INVALID_FIELD", `${attachment}: pages[${index}].hidden must be true or false.`, { attachment, slide: slide <= pageCount ? slide : undefined }));
      // pdfpc never hides the first page (its Ctrl+H refuses it): the talk must start somewhere.
      else if (page.hidden && slide > 1 && slide <= pageCount && !hidden.has(slide)) hidden.add(slide);
    }
    readGrouping(page, index, slide, pageCount, attachment, result, overlays);
    if (!("note" in page) || page.note === "") continue;
    if (typeof page.note !== "string") {
      result.issues.push(finding("INVALID_FIELD", `${attachment}: pages[${index}].note is ${describeType(page.note)}; it must be a string.`, { attachment, slide: slide <= pageCount ? slide : undefined }));
      continue;
    }
    if (slide > pageCount) {
      result.issues.push(finding("SLIDE_OUT_OF_RANGE", `${attachment}: pages[${index}] (idx ${idx}) is slide ${slide}. ${slideOutOfRangeMessage(slide, pageCount)}; pdfpc's idx is 0-based.`, { attachment, slide }));
      continue;
    }
    const note = normalizeText(page.note.trim());
    // Overlays of one physical page may repeat the same note: keep each distinct text once.
    const list = collected.get(slide) ?? [];
    if (note && !list.includes(note)) list.push(note);
    collected.set(slide, list);
  }
  for (const [slide, list] of collected) if (list.length > 0) result.notes.set(slide, list.join("\n\n"));
  result.hidden = [...hidden].sort((a, b) => a - b);
  result.overlays = [...overlays].sort((a, b) => a - b);
  return result;
}

/**
 * A page's grouping fields: `forcedOverlay` joins the page to the slide before it (the first
 * page cannot join anything: pdfpc refuses it too). `label` (pdfpc writes the PDF's page label,
 * polylux2pdfpc the logical slide's number) and `overlay` (the step within it) are checked for
 * their type only: pdfpc uses them to find the page again when the PDF changed, not to group.
 */
function readGrouping(page: Record<string, unknown>, index: number, slide: number, pageCount: number, attachment: string, result: PdfpcResult, overlays: Set<number>): void {
  const at = { attachment, slide: slide <= pageCount ? slide : undefined };
  if ("label" in page && typeof page.label !== "string" && !(typeof page.label === "number" && Number.isFinite(page.label))) {
    result.issues.push(finding("INVALID_FIELD", `${attachment}: pages[${index}].label must be the page's label (a string, or a slide number).`, at));
  }
  if ("overlay" in page && !(typeof page.overlay === "number" && Number.isInteger(page.overlay) && page.overlay >= 0)) {
    result.issues.push(finding("INVALID_FIELD", `${attachment}: pages[${index}].overlay must be the 0-based step of the page within its slide.`, at));
  }
  if (!("forcedOverlay" in page)) return;
  if (typeof page.forcedOverlay !== "boolean") result.issues.push(finding("INVALID_FIELD", `${attachment}: pages[${index}].forcedOverlay must be true or false.`, at));
  else if (page.forcedOverlay && slide > 1 && slide <= pageCount) overlays.add(slide);
}

function readTimer(value: Record<string, unknown>, attachment: string, result: PdfpcResult): void {
  if ("duration" in value) {
    if (typeof value.duration === "number" && Number.isFinite(value.duration) && value.duration >= 0) result.timer.durationMinutes = value.duration;
    else result.issues.push(finding("INVALID_FIELD", `${attachment}: "duration" must be the talk length in minutes, e.g. "duration": 20.`, { attachment }));
  }
  if ("lastMinutes" in value) {
    if (typeof value.lastMinutes === "number" && Number.isFinite(value.lastMinutes) && value.lastMinutes >= 0) result.timer.lastMinutes = value.lastMinutes;
    else result.issues.push(finding("INVALID_FIELD", `${attachment}: "lastMinutes" must be a number of minutes, e.g. "lastMinutes": 5.`, { attachment }));
  }
  if ("startTime" in value) {
    const startTime = typeof value.startTime === "string" ? normalizeEndTime(value.startTime) : null;
    if (startTime) result.timer.startTime = startTime;
    else result.issues.push(finding("INVALID_FIELD", `${attachment}: "startTime" must be a time of day "HH:MM" (or an ISO date-time).`, { attachment }));
  }
  if ("endSlide" in value) {
    // pdfpc writes its own 0-based index of the last user slide (Ctrl+E on the fourth slide
    // writes 3; pdfpc.sty's XMP EndUserSlide is 1-based and pdfpc subtracts one from it);
    // -1 is pdfpc's "not set". Kept 1-based here, like the XMP field.
    if (typeof value.endSlide === "number" && Number.isSafeInteger(value.endSlide)) {
      if (value.endSlide >= 0) result.timer.endSlide = value.endSlide + 1;
    } else result.issues.push(finding("INVALID_FIELD", `${attachment}: "endSlide" must be the 0-based index of the talk's last slide, as pdfpc writes it.`, { attachment }));
  }
  if ("endTime" in value) {
    const endTime = typeof value.endTime === "string" ? normalizeEndTime(value.endTime) : null;
    if (endTime) result.timer.endTime = endTime;
    else result.issues.push(finding("INVALID_FIELD", `${attachment}: "endTime" must be a time of day "HH:MM" (or an ISO date-time).`, { attachment }));
  }
}

/** "HH:MM", "HH:MM:SS" or an ISO date-time → "HH:MM". */
export function normalizeEndTime(text: string): string | null {
  const m = /^(?:\d{4}-\d{2}-\d{2}[T ])?(\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/.exec(text.trim());
  if (!m) return null;
  const hours = Number(m[1]);
  const minutes = Number(m[2]);
  if (hours > 23 || minutes > 59) return null;
  return `${String(hours).padStart(2, "0")}:${m[2]}`;
}
