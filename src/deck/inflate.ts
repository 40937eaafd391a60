/**
 * @module deck/inflate
 * A streaming, size-capped inflate (RFC 1950/1951) for PDF FlateDecode streams. mupdf's
 * own `readStream()` decodes without any limit, so a 1 KB "decompression bomb" can expand
 * to gigabytes inside the WASM heap; this wrapper around fflate's streaming `Inflate` feeds
 * the input in slices small enough that one slice can never expand past the cap (plus one
 * chunk), hands the output out per slice and stops at the cap. Browser-safe (fflate's
 * browser build has no node: imports).
 */
import { Inflate } from "fflate";

export class InflateError extends Error {
  override readonly name = "InflateError";
}

/** Thrown when the output would pass `maxBytes`; `produced` is how much was handed to `onChunk`. */
export class InflateLimitError extends Error {
  override readonly name = "InflateLimitError";
  constructor(readonly produced: number) {
    super("inflated data exceeds the size cap");
  }
}

/**
 * Deflate's worst-case expansion per input byte: a 258-byte match coded in 1 + 1 bits (a
 * one-symbol distance code) gives 4 matches per byte. A slice of n bytes, plus the few bytes
 * fflate carries over from the previous slice, never inflates to more than about 1032 n (a
 * pending stored block adds at most its own 64 KiB).
 */
const MAX_RATIO = 1032;
/** One slice's worst-case output stays under this (bounds memory per step, not the total). */
const STEP_OUTPUT = 4 * 1024 * 1024;
/** Smallest slice: near the cap a step may still produce up to ~64 KiB past it. */
const MIN_SLICE = 64;

export interface InflateOptions {
  /** Stop with `InflateLimitError` once the output would exceed this many bytes. */
  maxBytes: number;
  /** Receives each output chunk (a copy the callee may keep). Return `false` to stop early. */
  onChunk: (chunk: Uint8Array) => boolean | void;
}

/** fflate keeps its decoder state in `s`: `f` = the last block has started, `l` = inside a Huffman block. */
interface FflateState {
  s?: { f?: number; l?: unknown };
}

/**
 * Whether the final block has been decoded. fflate has no public "done" signal and, once done,
 * keeps every further byte pushed, so trailing data (an Adler-32, or megabytes of junk) would
 * cost quadratic copying. Reads fflate's private state (pinned at 0.8.3; test/sidecar/inflate
 * fails fast if that changes); if it is missing, decoding stays correct, only slower on junk.
 */
function finished(inflater: Inflate): boolean {
  const s = (inflater as unknown as FflateState).s;
  return s !== undefined && s.f === 1 && !s.l;
}

/**
 * Inflate `input` (zlib-wrapped or raw deflate, as PDF writers produce both) and stream the
 * output to `onChunk`. Returns the total number of bytes produced. Throws `InflateError` on
 * corrupt or truncated data and `InflateLimitError` past `maxBytes`. Data after the final
 * block (the zlib Adler-32, padding) is ignored, as the checksum is not verified.
 */
export function inflate(input: Uint8Array, options: InflateOptions): number {
  const { maxBytes, onChunk } = options;
  let pos = 0;
  // A zlib header is CMF FLG with CM = 8 and (CMF*256 + FLG) % 31 == 0 (RFC 1950 §2.2).
  if (input.length >= 2 && ((input[0] as number) & 0x0f) === 8 && (((input[0] as number) << 8) | (input[1] as number)) % 31 === 0) {
    if (((input[1] as number) & 0x20) !== 0) throw new InflateError("preset dictionaries are not supported");
    pos = 2;
  }
  // fflate returns nothing, not an error, for a final push with no data at all.
  if (pos >= input.length) throw new InflateError("unexpected end of compressed data");

  let total = 0;
  let stopped = false;
  let callbackError: { error: unknown } | undefined;
  const inflater = new Inflate((chunk) => {
    if (chunk.length === 0 || stopped) return;
    if (total + chunk.length > maxBytes) throw new InflateLimitError(total);
    total += chunk.length;
    try {
      if (onChunk(chunk) === false) stopped = true;
    } catch (error) {
      callbackError = { error };
      throw error;
    }
  });

  try {
    while (pos < input.length && !stopped && !finished(inflater)) {
      const slice = Math.max(MIN_SLICE, Math.floor(Math.min(maxBytes - total, STEP_OUTPUT) / MAX_RATIO));
      const end = Math.min(input.length, pos + slice);
      inflater.push(input.subarray(pos, end), end === input.length);
      pos = end;
    }
  } catch (error) {
    if (error instanceof InflateLimitError || (callbackError && error === callbackError.error)) throw error;
    // fflate throws plain Errors ("unexpected EOF", "invalid block type", "invalid distance", …).
    throw new InflateError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  return total;
}
