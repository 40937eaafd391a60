/**
 * @module mcp/base64
 * Decode the `pdf_base64` (and `notes_base64`) arguments of the MCP tools strictly. Agents produce base64 in many
 * dialects (line-wrapped, URL-safe, with or without padding, as a `data:` URL); all of those
 * are accepted, anything else is a BAD_REQUEST that says what was wrong — never a 500, and
 * never Buffer's silent skipping of bad characters.
 *
 * The text can be 130 MB: it is checked in one scan that builds no new string, then decoded
 * once by `Buffer.from(…, "base64")`, which reads both alphabets and skips whitespace — safe
 * because the scan has already refused everything else it would skip. The decoded Buffer is
 * the only copy made (a `slice` past a `data:` prefix shares the text's characters).
 */
import { AppError } from "../base/errors.ts";
import { fileTooLarge, notesFileTooLarge } from "../tools/upload-limits.ts";

/** `data:application/pdf;base64,` (any media type, optional parameters), after leading whitespace. */
const DATA_URL_PREFIX = /data:[^,;]*(?:;[^,;=]+=[^,;]*)*;base64,/iy;
const LEADING_SPACE = /\s*/y;

const BAD = 0;
const DIGIT = 1;
const PAD = 2;
const SPACE = 3;
/** Class of each ASCII code unit: both alphabets (RFC 4648 §4 and §5), '=', whitespace. */
const ASCII_CLASS = new Uint8Array(128);
for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_") ASCII_CLASS[ch.charCodeAt(0)] = DIGIT;
ASCII_CLASS["=".charCodeAt(0)] = PAD;
for (let c = 0; c < 128; c++) if (/\s/.test(String.fromCharCode(c))) ASCII_CLASS[c] = SPACE;

function classOf(code: number): number {
  if (code < 128) return ASCII_CLASS[code] as number;
  // Unicode whitespace (no-break space, U+2028, BOM, …) is skipped as JavaScript's \s is.
  return /\s/.test(String.fromCharCode(code)) ? SPACE : BAD;
}

/** Which argument is decoded: named in every failure, with what it should hold. */
interface Argument {
  field: string;
  /** e.g. "the whole PDF file". */
  what: string;
  tooLarge: (maxBytes: number) => AppError;
}

const PDF_ARGUMENT: Argument = { field: "pdf_base64", what: "the whole PDF file", tooLarge: fileTooLarge };
const NOTES_ARGUMENT: Argument = { field: "notes_base64", what: "the whole notes file (.pdfpc or .pptx)", tooLarge: notesFileTooLarge };

/**
 * Decode `text` to bytes. Throws BAD_REQUEST for malformed or empty input and FILE_TOO_LARGE
 * when the decoded size would exceed `maxBytes` (checked before decoding anything).
 */
export function decodePdfBase64(text: string, maxBytes: number): Buffer {
  return decodeArgument(text, maxBytes, PDF_ARGUMENT);
}

/** `notes_base64` as `decodePdfBase64` decodes `pdf_base64`; NOTES_FILE_TOO_LARGE past `maxBytes`. */
export function decodeNotesBase64(text: string, maxBytes: number): Buffer {
  return decodeArgument(text, maxBytes, NOTES_ARGUMENT);
}

function decodeArgument(text: string, maxBytes: number, argument: Argument): Buffer {
  const { field, what } = argument;
  const invalid = (reason: string) => new AppError("BAD_REQUEST", `${field} is not valid base64 (${reason}); pass ${what} encoded as standard base64 (RFC 4648).`);
  LEADING_SPACE.lastIndex = 0;
  LEADING_SPACE.test(text);
  DATA_URL_PREFIX.lastIndex = LEADING_SPACE.lastIndex;
  const start = DATA_URL_PREFIX.test(text) ? DATA_URL_PREFIX.lastIndex : LEADING_SPACE.lastIndex;

  // One pass: the first bad character, and the shape of the significant (non-space) text.
  let significant = 0;
  let pads = 0;
  let trailingPads = 0;
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const kind = classOf(code);
    if (kind === DIGIT) {
      significant++;
      trailingPads = 0;
    } else if (kind === PAD) {
      significant++;
      pads++;
      trailingPads++;
    } else if (kind === BAD) {
      // 1-based, counted in the text as given, so the agent can find it.
      throw invalid(`character ${JSON.stringify(text.charAt(i))} at position ${i + 1}`);
    }
  }
  // Up to two '=' may end the text; any other '=' is misplaced.
  const stripped = Math.min(trailingPads, 2);
  const unpadded = significant - stripped;
  if (unpadded === 0) {
    throw new AppError("BAD_REQUEST", `${field} is empty; pass ${what} encoded as base64.`);
  }
  if (pads > stripped) throw invalid("'=' padding may only end it");
  // One leftover character cannot encode a byte: the text was cut off.
  if (unpadded % 4 === 1) {
    throw new AppError("BAD_REQUEST", `${field} is not valid base64 (its length shows it was cut off); pass ${what} encoded as base64.`);
  }
  if (stripped > 0 && significant % 4 !== 0) {
    throw new AppError("BAD_REQUEST", `${field} has misplaced '=' padding; pass ${what} encoded as standard base64 (RFC 4648).`);
  }
  if (Math.floor((unpadded * 3) / 4) > maxBytes) throw argument.tooLarge(maxBytes);
  // The one copy: the decoded bytes, returned as they are (no further Uint8Array copy).
  return Buffer.from(start === 0 ? text : text.slice(start), "base64");
}
