/**
 * @module client/export/chapter-slot
 * Chapters in a file mediabunny writes, placed where every player finds them: in the Segment
 * before the first Cluster, named in the SeekHead. mediabunny has no chapters, but it writes a
 * `Tags` element there when given metadata, and names it in its SeekHead. So the export asks
 * it for a tag holding as many zero bytes as the chapters (and the title) take — a slot — and,
 * as the header's bytes pass on their way to the file, writes the chapters into the slot, a
 * Void element over what is left of it, and turns the SeekHead's entry for the Tags into an
 * entry for the Chapters (both IDs are four bytes). Nothing moves, so every offset mediabunny
 * wrote (SeekHead, Cues, cluster sizes) stays true, and the file is written in one pass.
 */
import { children, ID, idBytes, voidElement } from "./ebml.ts";

/** The name of the slot's tag; it never reaches the file (the slot is overwritten). */
const SLOT_TAG = "DECKHAND_CHAPTERS";

/** Raw metadata for mediabunny's `Output.setMetadataTags`: a binary tag the size of `content`. */
export function slotTags(content: Uint8Array): Record<string, Uint8Array> {
  return { [SLOT_TAG]: new Uint8Array(content.length) };
}

/** Bytes to write over the file at `at`, whenever a write reaches there. */
export interface Patch {
  at: number;
  bytes: Uint8Array;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number, to: number): number {
  outer: for (let i = from; i + needle.length <= to; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * The patches that put `content` (elements to place at the Segment's top level) into the slot
 * of a Segment header: `header` is what mediabunny reports (`onSegmentHeader`: the Segment
 * element up to its first Cluster) and `position` where it lies in the file. Throws when the
 * header has no slot big enough — a change in mediabunny this code must follow.
 */
export function slotPatches(header: Uint8Array, position: number, content: Uint8Array): Patch[] {
  const segment = children(header).find((e) => e.id === ID.Segment);
  if (!segment) throw new Error("The muxer's header has no Segment.");
  const top = children(header, segment.dataStart, header.length);
  const tags = top.find((e) => e.id === ID.Tags);
  const seekHead = top.find((e) => e.id === ID.SeekHead);
  if (!tags || !seekHead || tags.end > header.length) throw new Error("The muxer wrote no room for the chapters (no Tags element in its header).");
  const room = tags.end - tags.start;
  if (room < content.length + 2) throw new Error(`The muxer's slot holds ${room} bytes; the chapters need ${content.length + 2}.`);
  const fill = new Uint8Array(room);
  fill.set(content, 0);
  fill.set(voidElement(room - content.length), content.length);
  // The SeekHead's entry for the Tags: its SeekID's four data bytes become the Chapters' ID.
  const entry = indexOf(header, idBytes(ID.Tags), seekHead.dataStart, seekHead.end);
  if (entry < 0) throw new Error("The muxer's SeekHead does not name its Tags.");
  return [
    { at: position + tags.start, bytes: fill },
    { at: position + entry, bytes: idBytes(ID.Chapters) },
  ];
}

/**
 * Patches applied to writes as they pass: a write that touches a patch's bytes gets them, so
 * a header written twice (mediabunny rewrites its SeekHead when it finishes) is patched twice.
 * `complete()` says whether every patched byte has gone out at least once.
 */
export class PatchSet {
  private readonly patches: Patch[] = [];
  private readonly seen: Uint8Array[] = [];

  /** Patch every later write (the slot is known once the muxer has laid out its header). */
  add(patches: readonly Patch[]): void {
    for (const patch of patches) {
      this.patches.push(patch);
      this.seen.push(new Uint8Array(patch.bytes.length));
    }
  }

  /** `data` as it should reach the file at `position` (a copy when patched, else itself). */
  apply(data: Uint8Array, position: number): Uint8Array {
    let out = data;
    this.patches.forEach((patch, i) => {
      const from = Math.max(position, patch.at);
      const to = Math.min(position + data.length, patch.at + patch.bytes.length);
      if (from >= to) return;
      if (out === data) out = data.slice();
      out.set(patch.bytes.subarray(from - patch.at, to - patch.at), from - position);
      this.seen[i]!.fill(1, from - patch.at, to - patch.at);
    });
    return out;
  }

  complete(): boolean {
    return this.seen.every((mask) => mask.every((b) => b === 1));
  }
}
