/**
 * @module deck/stream-decode
 * Decode an embedded file stream with a cap on the decoded size. FlateDecode (by far the
 * most common filter), ASCIIHex, ASCII85 and RunLength are decoded here, in bounded chunks;
 * anything else goes through mupdf only when its worst-case expansion fits under the cap.
 * Browser-safe: takes mupdf objects, imports no runtime module of mupdf.
 */
import { inflate, InflateError, InflateLimitError } from "./inflate.ts";
import type { PdfObj } from "./mupdf-types.ts";

export type DecodeOutcome =
  | { status: "ok"; bytes: number }
  /** The consumer returned false from onChunk: it has what it needs. */
  | { status: "stopped"; bytes: number }
  | { status: "too-large"; bytes: number }
  | { status: "failed"; reason: string };

/** Worst-case expansion per filter, for the filters mupdf decodes for us. */
const MAX_RATIO: Record<string, number> = {
  LZWDecode: 2600, // a 12-bit code expands to at most ~3,800 bytes
  LZW: 2600,
  FlateDecode: 1032, // zlib's maximum compression ratio
  Fl: 1032,
  RunLengthDecode: 64,
  RL: 64,
  ASCIIHexDecode: 1,
  AHx: 1,
  ASCII85Decode: 1,
  A85: 1,
};

/** Output is handed to the consumer in slices of this size so hashing stays incremental. */
const SLICE = 1 << 20;

class LimitReached extends Error {}
class Stop extends Error {}

interface Filter {
  name: string;
  predictor: boolean;
}

function readFilters(stream: PdfObj): Filter[] | null {
  const filter = stream.get("Filter");
  const parms = stream.get("DecodeParms");
  const names: string[] = [];
  if (filter.isName()) names.push(filter.asName());
  else if (filter.isArray()) {
    for (let i = 0; i < filter.length; i++) {
      const entry = filter.get(i);
      if (!entry.isName()) return null;
      names.push(entry.asName());
    }
  } else if (!filter.isNull()) return null;
  return names.map((name, i) => {
    const parm = parms.isArray() ? parms.get(i) : i === 0 ? parms : null;
    const predictor = !!parm && parm.isDictionary() && parm.get("Predictor").isNumber() && parm.get("Predictor").asNumber() > 1;
    return { name, predictor };
  }).filter((f) => f.name !== "Crypt"); // mupdf's raw stream is already decrypted
}

/**
 * Decode `stream` and pass the output, in order, to `onChunk` (return false to stop early).
 * Never produces more than `maxBytes`; never throws for bad data. `onChunk` must not call
 * mupdf (a chunk may be a view into the WASM heap) and must copy what it keeps.
 */
export function decodeStream(stream: PdfObj, maxBytes: number, onChunk: (chunk: Uint8Array) => boolean | void): DecodeOutcome {
  let total = 0;
  const sink = (chunk: Uint8Array) => {
    for (let offset = 0; offset < chunk.length; offset += SLICE) {
      const slice = chunk.subarray(offset, Math.min(chunk.length, offset + SLICE));
      if (total + slice.length > maxBytes) throw new LimitReached();
      total += slice.length;
      if (onChunk(slice) === false) throw new Stop();
    }
  };
  try {
    const filters = readFilters(stream);
    if (filters === null) return { status: "failed", reason: "its /Filter entry is malformed" };
    const ownDecoders = filters.every((f) => OWN[f.name] && !f.predictor);
    if (ownDecoders) {
      const buffer = stream.readRawStream();
      try {
        // A view into the WASM heap: valid while no mupdf call runs, which holds below.
        let data = buffer.asUint8Array();
        for (let i = 0; i < filters.length; i++) {
          const decode = OWN[(filters[i] as Filter).name] as OwnDecoder;
          if (i === filters.length - 1) decode(data, maxBytes, sink);
          else {
            const parts: Uint8Array[] = [];
            let size = 0;
            decode(data, maxBytes, (chunk) => {
              size += chunk.length;
              if (size > maxBytes) throw new LimitReached();
              parts.push(chunk.slice());
            });
            data = concat(parts, size);
          }
        }
        if (filters.length === 0) sink(data);
      } finally {
        buffer.destroy();
      }
      return { status: "ok", bytes: total };
    }
    // Filters mupdf must run: only when even the worst case fits under the cap.
    const rawLength = measureRaw(stream);
    let bound = rawLength;
    for (const f of filters) bound *= f.predictor && (f.name === "FlateDecode" || f.name === "Fl") ? 1032 : MAX_RATIO[f.name] ?? Number.POSITIVE_INFINITY;
    if (bound > maxBytes && filters.length === 1 && (filters[0]?.name === "FlateDecode" || filters[0]?.name === "Fl")) {
      // Flate with a predictor: measure the inflated size ourselves (predictors never grow data).
      const buffer = stream.readRawStream();
      try {
        inflate(buffer.asUint8Array(), { maxBytes, onChunk: () => {} });
      } finally {
        buffer.destroy();
      }
      bound = 0;
    }
    if (bound > maxBytes) {
      const unknown = filters.filter((f) => !(f.name in MAX_RATIO)).map((f) => f.name);
      return { status: "failed", reason: unknown.length ? `it uses the filter ${unknown.join(", ")}, which deckhand does not decode for attachments` : "its filters could expand it past the size cap" };
    }
    const decoded = stream.readStream();
    try {
      sink(decoded.asUint8Array());
    } finally {
      decoded.destroy();
    }
    return { status: "ok", bytes: total };
  } catch (error) {
    if (error instanceof Stop) return { status: "stopped", bytes: total };
    if (error instanceof LimitReached || error instanceof InflateLimitError) return { status: "too-large", bytes: total };
    if (error instanceof InflateError) return { status: "failed", reason: `its compressed data is corrupt (${error.message})` };
    return { status: "failed", reason: "mupdf cannot read it" };
  }
}

function measureRaw(stream: PdfObj): number {
  const buffer = stream.readRawStream();
  try {
    return buffer.getLength();
  } finally {
    buffer.destroy();
  }
}

export type OwnDecoder = (data: Uint8Array, maxBytes: number, sink: (chunk: Uint8Array) => void) => void;

const flate: OwnDecoder = (data, maxBytes, sink) => {
  inflate(data, { maxBytes, onChunk: (chunk) => sink(chunk) });
};

const asciiHex: OwnDecoder = (data, _maxBytes, sink) => {
  const out = new Uint8Array(Math.ceil(data.length / 2));
  let n = 0;
  let high = -1;
  for (const c of data) {
    if (c === 0x3e) break; // '>' ends the data
    const v = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 55 : c >= 0x61 && c <= 0x66 ? c - 87 : -1;
    if (v < 0) {
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00) continue;
      throw new InflateError("invalid ASCIIHex character");
    }
    if (high < 0) high = v;
    else {
      out[n++] = (high << 4) | v;
      high = -1;
    }
  }
  if (high >= 0) out[n++] = high << 4;
  sink(out.subarray(0, n));
};

/** Exported for its tests. */
export const ascii85: OwnDecoder = (data, _maxBytes, sink) => {
  // Each "z" stands for four zero bytes, so the output can be 4× the input: it goes to the
  // sink (which copies and enforces the cap) a slice at a time, never whole.
  const out = new Uint8Array(SLICE + 8);
  let n = 0;
  const flushIfFull = () => {
    if (n >= SLICE) {
      sink(out.subarray(0, n));
      n = 0;
    }
  };
  let group = 0;
  let count = 0;
  let i = 0;
  if (data[0] === 0x3c && data[1] === 0x7e) i = 2; // optional "<~"
  for (; i < data.length; i++) {
    const c = data[i] as number;
    if (c === 0x7e) break; // "~>" ends the data
    if (c === 0x7a && count === 0) {
      out.fill(0, n, n + 4);
      n += 4;
      flushIfFull();
      continue;
    }
    if (c < 0x21 || c > 0x75) {
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00) continue;
      throw new InflateError("invalid ASCII85 character");
    }
    group = group * 85 + (c - 0x21);
    if (++count === 5) {
      if (group > 0xffffffff) throw new InflateError("ASCII85 group overflow");
      out[n++] = (group >>> 24) & 0xff;
      out[n++] = (group >>> 16) & 0xff;
      out[n++] = (group >>> 8) & 0xff;
      out[n++] = group & 0xff;
      group = 0;
      count = 0;
      flushIfFull();
    }
  }
  if (count === 1) throw new InflateError("ASCII85 ends with a lone character");
  if (count > 1) {
    for (let k = count; k < 5; k++) group = group * 85 + 84;
    for (let k = 0; k < count - 1; k++) out[n++] = (group >>> (24 - 8 * k)) & 0xff;
  }
  sink(out.subarray(0, n));
};

const runLength: OwnDecoder = (data, maxBytes, sink) => {
  const parts: Uint8Array[] = [];
  let size = 0;
  let i = 0;
  while (i < data.length) {
    const length = data[i++] as number;
    if (length === 128) break;
    let piece: Uint8Array;
    if (length < 128) {
      piece = data.slice(i, i + length + 1);
      i += length + 1;
    } else {
      piece = new Uint8Array(257 - length).fill(data[i++] ?? 0);
    }
    size += piece.length;
    if (size > maxBytes) throw new LimitReached();
    parts.push(piece);
  }
  sink(concat(parts, size));
};

const OWN: Record<string, OwnDecoder> = {
  FlateDecode: flate,
  Fl: flate,
  ASCIIHexDecode: asciiHex,
  AHx: asciiHex,
  ASCII85Decode: ascii85,
  A85: ascii85,
  RunLengthDecode: runLength,
  RL: runLength,
};

/** Join decoded pieces into one array of `size` bytes. */
export function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
