/**
 * @module deck/sidecar/names
 * Attachment names → conventions. Names are matched on their base name because tools store
 * folder prefixes (Typst writes `src/notes-slide-2.json`). Browser-safe.
 */

export type NameMatch =
  | { type: "notes"; slide: number }
  | { type: "media-sidecar"; slide: number; id: string }
  | { type: "media-file"; id: string; extension: string }
  | { type: "poll"; slide: number }
  | { type: "pdfpc" }
  /** Looks like a sidecar but breaks the pattern; `hint` says what the pattern is. */
  | { type: "near-miss"; hint: string }
  | { type: "other" };

/** Last path segment, for both `/` and `\` separators (some Windows tools store `a\b.json`). */
export function baseName(name: string): string {
  const parts = name.split(/[/\\]/);
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i];
    if (part) return part;
  }
  return name;
}

/** Ids are what a browser can use in a URL fragment or a DOM id without escaping surprises. */
const ID = "[A-Za-z0-9][A-Za-z0-9._-]*";
const NOTES = /^notes-slide-(\d{1,6})\.json$/;
const POLL = /^poll-slide-(\d{1,6})\.json$/;
const MEDIA_SIDECAR = new RegExp(`^media-slide-(\\d{1,6})-(${ID})\\.json$`);
const MEDIA_FILE = new RegExp(`^media-(${ID})\\.([A-Za-z0-9]{1,5})$`);

/** Classify a base name. Slide numbers are parsed as written; range checks come later. */
export function matchAttachmentName(base: string): NameMatch {
  let m = NOTES.exec(base);
  if (m) return { type: "notes", slide: Number(m[1]) };
  m = MEDIA_SIDECAR.exec(base);
  if (m) return { type: "media-sidecar", slide: Number(m[1]), id: m[2] as string };
  m = POLL.exec(base);
  if (m) return { type: "poll", slide: Number(m[1]) };
  if (/\.pdfpc$/i.test(base)) return { type: "pdfpc" };
  const lower = base.toLowerCase();
  if (lower.startsWith("notes") && lower.includes("slide")) {
    return { type: "near-miss", hint: "notes sidecars are named notes-slide-{N}.json, e.g. notes-slide-2.json" };
  }
  if (lower.startsWith("poll") && lower.includes("slide")) {
    return { type: "near-miss", hint: "poll sidecars are named poll-slide-{N}.json, e.g. poll-slide-4.json" };
  }
  if (lower.startsWith("media-slide") || (lower.startsWith("media") && lower.includes("slide") && lower.endsWith(".json"))) {
    return { type: "near-miss", hint: "media sidecars are named media-slide-{N}-{id}.json, e.g. media-slide-3-demo.json" };
  }
  m = MEDIA_FILE.exec(base);
  if (m && !base.toLowerCase().endsWith(".json")) return { type: "media-file", id: m[1] as string, extension: (m[2] as string).toLowerCase() };
  return { type: "other" };
}

/** Extensions a media binary may have, in the order a missing `filename` is looked up. */
export const MEDIA_FILE_EXTENSIONS = ["gif", "mp4", "webm"] as const;
