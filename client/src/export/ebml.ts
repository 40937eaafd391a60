/**
 * @module client/export/ebml
 * Just enough EBML (the binary format of Matroska and WebM) to write the few elements the
 * muxer does not — chapters, a title tag, Void padding — and to find the elements the muxer
 * wrote in a file's header. An element is its ID, the size of its data as a variable-length
 * integer, then the data. Pure; no DOM.
 */

/** The element IDs this code writes or looks for (Matroska's own numbers, marker bits included). */
export const ID = {
  Segment: 0x18538067,
  SeekHead: 0x114d9b74,
  Seek: 0x4dbb,
  SeekID: 0x53ab,
  SeekPosition: 0x53ac,
  Tags: 0x1254c367,
  Tag: 0x7373,
  Targets: 0x63c0,
  SimpleTag: 0x67c8,
  TagName: 0x45a3,
  TagString: 0x4487,
  Chapters: 0x1043a770,
  EditionEntry: 0x45b9,
  ChapterAtom: 0xb6,
  ChapterUID: 0x73c4,
  ChapterTimeStart: 0x91,
  ChapterTimeEnd: 0x92,
  ChapterDisplay: 0x80,
  ChapString: 0x85,
  ChapLanguage: 0x437c,
  Void: 0xec,
} as const;

/** An element ID as its bytes (IDs carry their own length in their first byte's marker bit). */
export function idBytes(id: number): Uint8Array {
  const length = id >= 0x1000000 ? 4 : id >= 0x10000 ? 3 : id >= 0x100 ? 2 : 1;
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (id >>> (8 * (length - 1 - i))) & 0xff;
  return out;
}

/** Largest value a size of `length` bytes can hold (all ones is reserved for "unknown"). */
const maxSize = (length: number) => 2 ** (7 * length) - 2;

/** A data size as a variable-length integer of `length` bytes (the shortest when not given). */
export function sizeBytes(size: number, length?: number): Uint8Array {
  let n = length ?? 1;
  if (length === undefined) while (size > maxSize(n)) n++;
  if (n > 8 || size > maxSize(n) || size < 0 || !Number.isInteger(size)) throw new RangeError(`EBML size ${size} does not fit in ${n} bytes.`);
  const out = new Uint8Array(n);
  let rest = size;
  for (let i = n - 1; i >= 0; i--) {
    out[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  out[0]! |= 0x80 >> (n - 1);
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A master element: `id` around its children, already encoded. */
export function master(id: number, children: readonly Uint8Array[]): Uint8Array {
  const data = concat(children);
  return concat([idBytes(id), sizeBytes(data.length), data]);
}

/** An unsigned integer element, big-endian in as few bytes as it needs (at least one). */
export function uint(id: number, value: number | bigint): Uint8Array {
  let v = BigInt(value);
  if (v < 0n) throw new RangeError("EBML unsigned integers cannot be negative.");
  const bytes: number[] = [];
  do {
    bytes.unshift(Number(v & 0xffn));
    v >>= 8n;
  } while (v > 0n);
  return concat([idBytes(id), sizeBytes(bytes.length), Uint8Array.from(bytes)]);
}

/** A UTF-8 string element. */
export function utf8(id: number, text: string): Uint8Array {
  const data = new TextEncoder().encode(text);
  return concat([idBytes(id), sizeBytes(data.length), data]);
}

/**
 * A Void element of exactly `total` bytes (at least 2): padding a reader skips, used to fill
 * the room left when an element is written into space another one held.
 */
export function voidElement(total: number): Uint8Array {
  for (let length = 1; length <= 8; length++) {
    const data = total - 1 - length;
    if (data >= 0 && data <= maxSize(length)) return concat([idBytes(ID.Void), sizeBytes(data, length), new Uint8Array(data)]);
  }
  throw new RangeError(`No Void element is ${total} bytes long.`);
}

/** One element found in a buffer: where it starts, where its data starts and ends. */
export interface Found {
  id: number;
  start: number;
  dataStart: number;
  end: number;
}

/** The ID at `at`, or null when the bytes there are no valid ID. */
function readId(bytes: Uint8Array, at: number): { id: number; length: number } | null {
  const first = bytes[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (length > 4 || at + length > bytes.length) return null;
  let id = 0;
  for (let i = 0; i < length; i++) id = id * 256 + bytes[at + i]!;
  return { id, length };
}

/** The size at `at`; `unknown` when every data bit is set (a live stream's open-ended element). */
function readSize(bytes: Uint8Array, at: number): { size: number; length: number; unknown: boolean } | null {
  const first = bytes[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (at + length > bytes.length) return null;
  let size = first & (0xff >> length);
  let allOnes = size === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const b = bytes[at + i]!;
    size = size * 256 + b;
    allOnes &&= b === 0xff;
  }
  return { size, length, unknown: allOnes };
}

/**
 * The elements one after another in `bytes[from, to)`, stopping at the first that is cut off
 * or malformed (a header's last child may continue past the bytes at hand).
 */
export function children(bytes: Uint8Array, from = 0, to = bytes.length): Found[] {
  const out: Found[] = [];
  let at = from;
  while (at < to) {
    const id = readId(bytes, at);
    if (!id) break;
    const size = readSize(bytes, at + id.length);
    if (!size) break;
    const dataStart = at + id.length + size.length;
    const end = size.unknown ? to : dataStart + size.size;
    out.push({ id: id.id, start: at, dataStart, end });
    // An element running past `to` is the last one here (its data goes on beyond these bytes).
    if (end > to) break;
    at = end;
  }
  return out;
}
