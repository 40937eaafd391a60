/**
 * @module deck/sidecar/notes
 * `notes-slide-{N}.json`: `{ "slide"?: "N", "notes": string | TypstNode | (string|TypstNode)[] }`.
 * A string is markdown; a Typst content tree is rendered to markdown; an array is several
 * blocks for one slide, joined by a blank line. Browser-safe.
 */
import { finding, type Finding } from "./findings.ts";
import { describeType, isPlainObject, parseJsonBytes, parseSlideField } from "./json-text.ts";
import { renderTypst } from "./typst.ts";
import { normalizeText } from "../text-marks.ts";

export interface NotesSidecarResult {
  /** Markdown the presenter shows, or null when the sidecar is unusable. */
  markdown: string | null;
  issues: Finding[];
}

const KNOWN_FIELDS = new Set(["slide", "notes", "$schema"]);

/** Render one notes value (string, Typst node or array) to markdown. */
export function renderNotesValue(value: unknown, where: { attachment: string; slide: number }, issues: Finding[]): string | null {
  const blocks = Array.isArray(value) ? value : [value];
  const rendered: string[] = [];
  const unsupported = new Set<string>();
  for (const [index, block] of blocks.entries()) {
    if (typeof block === "string") rendered.push(block.trim());
    else if (isPlainObject(block) && typeof block.func === "string") {
      const result = renderTypst(block);
      for (const func of result.unsupported) unsupported.add(func);
      rendered.push(result.markdown);
    } else {
      const path = Array.isArray(value) ? `"notes"[${index}]` : `"notes"`;
      issues.push(finding("INVALID_FIELD", `${where.attachment}: ${path} is ${describeType(block)}; use a markdown string or a Typst content object with a "func" field.`, where));
      return null;
    }
  }
  for (const func of unsupported) {
    issues.push(finding("TYPST_ELEMENT_UNSUPPORTED", `${where.attachment}: the Typst element "${func}" has no markdown form; only its text is shown. Simplify the note if its layout matters.`, where));
  }
  return normalizeText(rendered.filter((block) => block.length > 0).join("\n\n"));
}

/** Parse a notes sidecar whose filename names slide `slide`. */
export function parseNotesSidecar(bytes: Uint8Array, where: { attachment: string; slide: number }): NotesSidecarResult {
  const parsed = parseJsonBytes(bytes, where.attachment, where.slide);
  if (!parsed.ok) return { markdown: null, issues: [parsed.issue] };
  return readNotesSidecar(parsed.value, where);
}

/** Validate an already parsed notes sidecar value. */
export function readNotesSidecar(value: unknown, where: { attachment: string; slide: number }): NotesSidecarResult {
  const issues: Finding[] = [];
  if (!isPlainObject(value)) {
    issues.push(finding("INVALID_FIELD", `${where.attachment} is ${describeType(value)}; a notes sidecar is a JSON object like {"notes": "…"}.`, where));
    return { markdown: null, issues };
  }
  for (const key of Object.keys(value)) {
    if (!KNOWN_FIELDS.has(key)) issues.push(finding("UNKNOWN_FIELD", `${where.attachment}: the field "${key.slice(0, 60)}" is not part of a notes sidecar and is ignored; the fields are "slide" and "notes".`, where));
  }
  let usable = true;
  if ("slide" in value) {
    const slide = parseSlideField(value.slide);
    if (slide === null) {
      issues.push(finding("INVALID_FIELD", `${where.attachment}: "slide" is ${describeType(value.slide)}; write the slide number, e.g. "slide": "${where.slide}".`, where));
      usable = false;
    } else if (slide !== where.slide) {
      issues.push(finding("SLIDE_MISMATCH", `${where.attachment} says "slide": ${slide} but its filename names slide ${where.slide}; make them agree.`, where));
      usable = false;
    }
  }
  if (!("notes" in value)) {
    issues.push(finding("MISSING_FIELD", `${where.attachment} has no "notes" field; add the notes as a markdown string or Typst content.`, where));
    return { markdown: null, issues };
  }
  const markdown = renderNotesValue(value.notes, where, issues);
  if (markdown === null) return { markdown: null, issues };
  if (markdown.trim() === "") issues.push(finding("NOTES_EMPTY", `${where.attachment} has empty notes; write the notes or remove the sidecar.`, where));
  return { markdown: usable ? markdown : null, issues };
}
