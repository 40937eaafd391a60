/**
 * @module security/filename
 * Turn an untrusted upload name into the display title of a deck.
 * Shared by the handoffs, the live talks and the check (HTTP, CLI, MCP).
 */

/** Longest title kept, in code points: enough for any real deck name. */
const MAX_TITLE_LENGTH = 200;
export const FALLBACK_TITLE = "presentation";

// C0/C1 controls, and the bidi controls that can disguise a name (e.g. U+202E RLO makes
// "gpj.pdf" look like "fdp.jpg"), zero-width and BOM characters.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

export function displayTitle(uploadName: string | null | undefined): string {
  let name = (uploadName ?? "").normalize("NFC");
  name = name.split(/[\\/]/).pop() ?? "";
  name = name.replace(UNSAFE, "").trim();
  name = name.replace(/\.pdf$/i, "").trim();
  // A name made only of dots (".", "..") says nothing.
  if (/^\.*$/.test(name)) return FALLBACK_TITLE;
  const codePoints = Array.from(name);
  return codePoints.length > MAX_TITLE_LENGTH ? codePoints.slice(0, MAX_TITLE_LENGTH).join("").trim() : name;
}

/** Longest notes file name kept, in code points. */
const MAX_NOTES_FILENAME_LENGTH = 200;
/** The name of a notes file that came without a usable one. */
export const FALLBACK_NOTES_FILENAME = "notes";

/**
 * The untrusted name of a notes file beside a deck, made safe to store, show and
 * send in a header: path parts and control/bidi characters removed, its extension kept (the
 * reader notes a name that disagrees with the bytes).
 */
export function notesFilename(uploadName: string | null | undefined): string {
  let name = (uploadName ?? "").normalize("NFC");
  name = name.split(/[\\/]/).pop() ?? "";
  name = name.replace(UNSAFE, "").trim();
  if (/^\.*$/.test(name)) return FALLBACK_NOTES_FILENAME;
  const codePoints = Array.from(name);
  return codePoints.length > MAX_NOTES_FILENAME_LENGTH ? codePoints.slice(codePoints.length - MAX_NOTES_FILENAME_LENGTH).join("").trim() : name;
}
