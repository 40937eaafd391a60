/**
 * @module pdf/inflate
 * A streaming, size-capped inflate (RFC 1950/1951) for PDF FlateDecode streams. mupdf's
 * own `readStream()` decodes without any limit, so a 1 KB "decompression bomb" can expand
 * to gigabytes inside the WASM heap; this decoder hands out bounded chunks and stops at a
 * cap. Pure JS so that the browser worker runs the same code. Browser-safe.
 */

export class InflateError extends Error {
  override readonly name = "InflateError";
}

/** Thrown when the output would pass `maxBytes`; `produced` is how far it got. */
export class InflateLimitError extends Error {
  override readonly name = "InflateLimitError";
  constructor(readonly produced: number) {
    super("inflated data exceeds the size cap");
  }
}

/** Deflate's window: back-references reach at most 32 KiB behind. */
const WINDOW = 32768;
/** Output is handed out in chunks of this size (plus the kept window). */
const CHUNK = 65536;

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** A lookup table indexed by the next `bits` input bits: entry = symbol << 4 | code length (0 = invalid). */
interface Table {
  entries: Int32Array;
  bits: number;
}

function buildTable(lengths: Uint8Array | number[], count: number): Table {
  let maxLength = 0;
  const lengthCount = new Int32Array(16);
  for (let i = 0; i < count; i++) {
    const l = lengths[i] as number;
    lengthCount[l]!++;
    if (l > maxLength) maxLength = l;
  }
  lengthCount[0] = 0;
  // Over-subscribed code sets are invalid; incomplete ones are allowed (their holes stay 0).
  let left = 1;
  for (let l = 1; l <= 15; l++) {
    left = (left << 1) - lengthCount[l]!;
    if (left < 0) throw new InflateError("over-subscribed Huffman code");
  }
  const bits = Math.max(maxLength, 1);
  const entries = new Int32Array(1 << bits);
  const nextCode = new Int32Array(16);
  let code = 0;
  for (let l = 1; l <= 15; l++) {
    code = (code + lengthCount[l - 1]!) << 1;
    nextCode[l] = code;
  }
  for (let symbol = 0; symbol < count; symbol++) {
    const l = lengths[symbol] as number;
    if (l === 0) continue;
    let c = nextCode[l]!++;
    // Deflate sends Huffman codes most-significant bit first: reverse to index by LSB-first input.
    let reversed = 0;
    for (let i = 0; i < l; i++) {
      reversed = (reversed << 1) | (c & 1);
      c >>= 1;
    }
    for (let i = reversed; i < entries.length; i += 1 << l) entries[i] = (symbol << 4) | l;
  }
  return { entries, bits };
}

let fixedLiteral: Table | undefined;
let fixedDistance: Table | undefined;
function fixedTables(): [Table, Table] {
  if (!fixedLiteral || !fixedDistance) {
    const lengths = new Uint8Array(288);
    lengths.fill(8, 0, 144);
    lengths.fill(9, 144, 256);
    lengths.fill(7, 256, 280);
    lengths.fill(8, 280, 288);
    fixedLiteral = buildTable(lengths, 288);
    fixedDistance = buildTable(new Uint8Array(30).fill(5), 30);
  }
  return [fixedLiteral, fixedDistance];
}

export interface InflateOptions {
  /** Stop with `InflateLimitError` once the output would exceed this many bytes. */
  maxBytes: number;
  /** Receives each output chunk (a copy the callee may keep). Return `false` to stop early. */
  onChunk: (chunk: Uint8Array) => boolean | void;
}

/**
 * Inflate `input` (zlib-wrapped or raw deflate, as PDF writers produce both) and stream the
 * output to `onChunk`. Returns the total number of bytes produced. Throws `InflateError` on
 * corrupt data and `InflateLimitError` past `maxBytes`.
 */
export function inflate(input: Uint8Array, options: InflateOptions): number {
  let pos = 0;
  // A zlib header is CMF FLG with CM = 8 and (CMF*256 + FLG) % 31 == 0 (RFC 1950 §2.2).
  if (input.length >= 2 && ((input[0] as number) & 0x0f) === 8 && (((input[0] as number) << 8) | (input[1] as number)) % 31 === 0) {
    if (((input[1] as number) & 0x20) !== 0) throw new InflateError("preset dictionaries are not supported");
    pos = 2;
  }
  let bitBuffer = 0;
  let bitCount = 0;
  const end = input.length;

  const out = new Uint8Array(WINDOW + CHUNK);
  let outPos = 0;
  let flushedTo = 0;
  let total = 0;
  let stopped = false;

  const flush = () => {
    if (outPos > flushedTo && !stopped) {
      if (options.onChunk(out.slice(flushedTo, outPos)) === false) stopped = true;
    }
    if (outPos === out.length) {
      out.copyWithin(0, outPos - WINDOW, outPos);
      outPos = WINDOW;
    }
    flushedTo = outPos;
  };
  const emit = (byte: number) => {
    if (outPos === out.length) flush();
    out[outPos++] = byte;
  };

  // Reads past the end yield zero bits; `overrun` tells whether real data ran out.
  const need = (n: number) => {
    while (bitCount < n) {
      const byte = pos < end ? (input[pos] as number) : 0;
      pos++;
      bitBuffer |= byte << bitCount;
      bitCount += 8;
    }
  };
  const bits = (n: number): number => {
    if (n === 0) return 0;
    need(n);
    const value = bitBuffer & ((1 << n) - 1);
    bitBuffer >>>= n;
    bitCount -= n;
    return value;
  };
  const checkOverrun = () => {
    // Bytes pulled past the end that are still unconsumed bits are padding, not data.
    if (pos - (bitCount >> 3) > end) throw new InflateError("unexpected end of compressed data");
  };
  const decode = (table: Table): number => {
    need(table.bits);
    const entry = table.entries[bitBuffer & ((1 << table.bits) - 1)] as number;
    const length = entry & 15;
    if (length === 0) throw new InflateError("invalid Huffman code");
    bitBuffer >>>= length;
    bitCount -= length;
    return entry >> 4;
  };

  let last = false;
  while (!last && !stopped) {
    last = bits(1) === 1;
    const type = bits(2);
    if (type === 0) {
      // Stored block: skip to a byte boundary, hand back whole buffered bytes, copy LEN bytes.
      bitBuffer >>>= bitCount & 7;
      bitCount -= bitCount & 7;
      const len = bits(16);
      const nlen = bits(16);
      if ((len ^ 0xffff) !== nlen) throw new InflateError("stored block length check failed");
      pos -= bitCount >> 3;
      bitBuffer = 0;
      bitCount = 0;
      if (pos + len > end) throw new InflateError("unexpected end of compressed data");
      if (total + len > options.maxBytes) throw new InflateLimitError(total);
      let copied = 0;
      while (copied < len) {
        if (outPos === out.length) flush();
        const take = Math.min(len - copied, out.length - outPos);
        out.set(input.subarray(pos + copied, pos + copied + take), outPos);
        outPos += take;
        copied += take;
      }
      pos += len;
      total += len;
      continue;
    }
    let literal: Table;
    let distance: Table;
    if (type === 1) [literal, distance] = fixedTables();
    else if (type === 2) {
      const hlit = bits(5) + 257;
      const hdist = bits(5) + 1;
      const hclen = bits(4) + 4;
      const codeLengths = new Uint8Array(19);
      for (let i = 0; i < hclen; i++) codeLengths[CODE_LENGTH_ORDER[i] as number] = bits(3);
      const codeTable = buildTable(codeLengths, 19);
      const lengths = new Uint8Array(hlit + hdist);
      let i = 0;
      while (i < hlit + hdist) {
        const symbol = decode(codeTable);
        if (symbol < 16) lengths[i++] = symbol;
        else {
          let repeat: number;
          let value = 0;
          if (symbol === 16) {
            if (i === 0) throw new InflateError("repeat with no previous length");
            value = lengths[i - 1] as number;
            repeat = 3 + bits(2);
          } else if (symbol === 17) repeat = 3 + bits(3);
          else repeat = 11 + bits(7);
          if (i + repeat > hlit + hdist) throw new InflateError("too many code lengths");
          lengths.fill(value, i, i + repeat);
          i += repeat;
        }
        checkOverrun();
      }
      if (lengths[256] === 0) throw new InflateError("no end-of-block code");
      literal = buildTable(lengths.subarray(0, hlit), hlit);
      distance = buildTable(lengths.subarray(hlit), hdist);
    } else throw new InflateError("invalid block type");

    for (;;) {
      const symbol = decode(literal);
      if (symbol < 256) {
        if (total >= options.maxBytes) throw new InflateLimitError(total);
        emit(symbol);
        total++;
        continue;
      }
      if (symbol === 256) break;
      const lengthIndex = symbol - 257;
      if (lengthIndex >= 29) throw new InflateError("invalid length symbol");
      const length = (LENGTH_BASE[lengthIndex] as number) + bits(LENGTH_EXTRA[lengthIndex] as number);
      const distanceSymbol = decode(distance);
      if (distanceSymbol >= 30) throw new InflateError("invalid distance symbol");
      const dist = (DIST_BASE[distanceSymbol] as number) + bits(DIST_EXTRA[distanceSymbol] as number);
      if (dist > total) throw new InflateError("distance reaches before the start of the data");
      if (total + length > options.maxBytes) throw new InflateLimitError(total);
      for (let k = 0; k < length; k++) {
        if (outPos === out.length) flush();
        out[outPos] = out[outPos - dist] as number;
        outPos++;
      }
      total += length;
      if (stopped) break;
    }
    checkOverrun();
    if (outPos - flushedTo >= CHUNK) flush();
  }
  flush();
  return total;
}
