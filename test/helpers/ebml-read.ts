/**
 * A small EBML reader for the tests, written apart from the export's own EBML code
 * (client/export/ebml.ts) so a round trip checks the writer against an independent reading of
 * the format: element IDs with their length marker, variable-length sizes (the all-ones
 * "unknown" size included), and the master elements of a WebM file's structure parsed into a
 * tree down to the leaves the tests read.
 */

export interface Node {
  id: number;
  /** Offset of the element's first byte in the buffer. */
  offset: number;
  size: number;
  data: Uint8Array;
  children: Node[];
}

/** Master elements (their data is more elements) in the parts of a WebM file the tests read. */
const MASTERS = new Set([
  0x1a45dfa3, // EBML
  0x18538067, // Segment
  0x114d9b74, // SeekHead
  0x4dbb, // Seek
  0x1549a966, // Info
  0x1654ae6b, // Tracks
  0xae, // TrackEntry
  0x1043a770, // Chapters
  0x45b9, // EditionEntry
  0xb6, // ChapterAtom
  0x80, // ChapterDisplay
  0x1254c367, // Tags
  0x7373, // Tag
  0x67c8, // SimpleTag
  0x1c53bb6b, // Cues
  0xbb, // CuePoint
  0xb7, // CueTrackPositions
]);

function vint(bytes: Uint8Array, at: number, keepMarker: boolean): { value: number; length: number; allOnes: boolean } {
  const first = bytes[at]!;
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  if (length > 8) throw new Error(`bad vint at ${at}`);
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = (first & (0xff >> length)) === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + bytes[at + i]!;
    allOnes &&= bytes[at + i] === 0xff;
  }
  return { value, length, allOnes };
}

/** Parse `bytes[from, to)` into elements, descending into the masters listed above (Clusters are skipped whole). */
export function parse(bytes: Uint8Array, from = 0, to = bytes.length): Node[] {
  const out: Node[] = [];
  let at = from;
  while (at < to) {
    const id = vint(bytes, at, true);
    const size = vint(bytes, at + id.length, false);
    const start = at + id.length + size.length;
    const end = size.allOnes ? to : Math.min(to, start + size.value);
    const data = bytes.subarray(start, end);
    out.push({ id: id.value, offset: at, size: end - start, data, children: MASTERS.has(id.value) ? parse(bytes, start, end) : [] });
    at = end;
  }
  return out;
}

export const find = (nodes: Node[], id: number): Node | undefined => nodes.find((n) => n.id === id);
export const findAll = (nodes: Node[], id: number): Node[] => nodes.filter((n) => n.id === id);
export const uintOf = (node: Node | undefined): bigint => (node ? node.data.reduce((v, b) => v * 256n + BigInt(b), 0n) : -1n);
export const textOf = (node: Node | undefined): string => (node ? new TextDecoder().decode(node.data) : "");
