/**
 * The export's Matroska writing (client/export/ebml, chapters, chapter-slot): the Chapters
 * element read back by an EBML reader of the test's own, Void padding of every length, and the
 * slot in a muxer's header turned into the chapters with its SeekHead entry.
 */
import { describe, expect, test } from "bun:test";
import { chaptersElement, titleTags } from "../../client/src/export/chapters.ts";
import { PatchSet, slotPatches } from "../../client/src/export/chapter-slot.ts";
import { ID, children, idBytes, master, sizeBytes, uint, utf8, voidElement } from "../../client/src/export/ebml.ts";
import { find, findAll, parse, textOf, uintOf } from "../helpers/ebml-read.ts";

describe("EBML pieces", () => {
  test("sizes take the fewest bytes, and a fixed length when asked", () => {
    expect([...sizeBytes(0)]).toEqual([0x80]);
    expect([...sizeBytes(126)]).toEqual([0xfe]);
    // 127 in one byte would be all ones, the "unknown size" marker: two bytes instead.
    expect([...sizeBytes(127)]).toEqual([0x40, 0x7f]);
    expect([...sizeBytes(5, 4)]).toEqual([0x10, 0, 0, 5]);
    expect(() => sizeBytes(300, 1)).toThrow(RangeError);
  });

  test("an unsigned integer is big-endian in as few bytes as it needs", () => {
    const [node] = parse(uint(ID.ChapterTimeStart, 90_000_000_000n));
    expect(node!.id).toBe(ID.ChapterTimeStart);
    expect(node!.size).toBe(5);
    expect(uintOf(node)).toBe(90_000_000_000n);
    expect(uintOf(parse(uint(ID.ChapterUID, 0))[0])).toBe(0n);
  });

  test("a Void element is exactly as long as asked, for every length", () => {
    for (const total of [2, 3, 100, 128, 129, 130, 5000, 16_386, 16_387, 70_000]) {
      const bytes = voidElement(total);
      expect(bytes.length).toBe(total);
      const [node] = parse(bytes);
      expect(node!.id).toBe(ID.Void);
      // Its data runs to the last byte: a reader skipping it lands exactly on what follows.
      expect(node!.data.byteOffset + node!.size).toBe(bytes.byteOffset + total);
    }
    expect(() => voidElement(1)).toThrow(RangeError);
  });

  test("children lists the elements in order and stops at one cut off", () => {
    const a = utf8(ID.TagName, "TITLE");
    const b = master(ID.SimpleTag, [a]);
    const both = new Uint8Array([...a, ...b]);
    expect(children(both).map((e) => e.id)).toEqual([ID.TagName, ID.SimpleTag]);
    const cut = both.subarray(0, both.length - 2);
    const found = children(cut);
    expect(found.map((e) => e.id)).toEqual([ID.TagName, ID.SimpleTag]);
    expect(found[1]!.end).toBeGreaterThan(cut.length);
  });
});

describe("the Chapters element", () => {
  const chapters = [
    { startMs: 0, endMs: 4200, title: "Introduction" },
    { startMs: 4200, endMs: 9000, title: "Slide 2" },
    { startMs: 9000, endMs: 3_600_000, title: "Résumé — ünïcödé ✓" },
  ];

  test("one edition, one atom per chapter with its times in nanoseconds, title and language", () => {
    const [root] = parse(chaptersElement(chapters));
    expect(root!.id).toBe(ID.Chapters);
    const editions = findAll(root!.children, ID.EditionEntry);
    expect(editions).toHaveLength(1);
    const atoms = findAll(editions[0]!.children, ID.ChapterAtom);
    expect(atoms).toHaveLength(3);
    const read = atoms.map((atom) => {
      const display = find(atom.children, ID.ChapterDisplay)!;
      return {
        uid: uintOf(find(atom.children, ID.ChapterUID)),
        start: uintOf(find(atom.children, ID.ChapterTimeStart)),
        end: uintOf(find(atom.children, ID.ChapterTimeEnd)),
        title: textOf(find(display.children, ID.ChapString)),
        language: textOf(find(display.children, ID.ChapLanguage)),
      };
    });
    expect(read).toEqual([
      { uid: 1n, start: 0n, end: 4_200_000_000n, title: "Introduction", language: "und" },
      { uid: 2n, start: 4_200_000_000n, end: 9_000_000_000n, title: "Slide 2", language: "und" },
      { uid: 3n, start: 9_000_000_000n, end: 3_600_000_000_000n, title: "Résumé — ünïcödé ✓", language: "und" },
    ]);
  });

  test("no chapters is a mistake, not an empty element", () => {
    expect(() => chaptersElement([])).toThrow(RangeError);
  });

  test("the title tag names the file", () => {
    const [tags] = parse(titleTags("My talk"));
    const simple = find(find(tags!.children, ID.Tag)!.children, ID.SimpleTag)!;
    expect(textOf(find(simple.children, ID.TagName))).toBe("TITLE");
    expect(textOf(find(simple.children, ID.TagString))).toBe("My talk");
  });
});

describe("the slot in the muxer's header", () => {
  // A header laid out as mediabunny lays it out: SeekHead (Info, Tracks, Tags, Cues), Info, Tracks, Tags.
  const content = new Uint8Array([...chaptersElement([{ startMs: 0, endMs: 1000, title: "One" }]), ...titleTags("T")]);
  // SeekID: its 2-byte ID, a size of 4, then the 4-byte ID of the element it names.
  const seek = (id: number, at: number) => master(ID.Seek, [new Uint8Array([0x53, 0xab, 0x84, ...idBytes(id)]), uint(ID.SeekPosition, at)]);
  const seekHead = master(ID.SeekHead, [seek(0x1549a966, 0), seek(0x1654ae6b, 0), seek(ID.Tags, 0), seek(0x1c53bb6b, 0)]);
  const info = master(0x1549a966, [uint(0x2ad7b1, 1_000_000)]);
  const tracks = master(0x1654ae6b, []);
  const slot = master(ID.Tags, [master(ID.Tag, [master(ID.SimpleTag, [utf8(ID.TagName, "DECKHAND_CHAPTERS"), master(0x4485, [new Uint8Array(content.length)])])])]);
  const body = new Uint8Array([...seekHead, ...info, ...tracks, ...slot]);
  const header = new Uint8Array([0x18, 0x53, 0x80, 0x67, ...sizeBytes(body.length, 6), ...body]);
  const position = 40;

  test("the Tags become the chapters and the title, Void after them, and the SeekHead names the Chapters", () => {
    const patches = new PatchSet();
    patches.add(slotPatches(header, position, content));
    // The header reaches the file in two writes, the second one overlapping the first.
    const file = new Uint8Array(position + header.length);
    const first = patches.apply(header.subarray(0, 30), position);
    const second = patches.apply(header.subarray(20), position + 20);
    file.set(first, position);
    file.set(second, position + 20);
    expect(patches.complete()).toBe(true);
    const [segment] = parse(file, position);
    const top = segment!.children;
    expect(top.map((n) => n.id)).toEqual([ID.SeekHead, 0x1549a966, 0x1654ae6b, ID.Chapters, ID.Tags, ID.Void]);
    // Nothing moved: the Chapters start where the Tags did.
    expect(top[3]!.offset - position).toBe(header.length - slot.length);
    const ids = findAll(top[0]!.children, ID.Seek).map((s) => textOf(find(s.children, ID.SeekID)));
    expect(ids[2]).toBe(new TextDecoder().decode(new Uint8Array([0x10, 0x43, 0xa7, 0x70])));
    expect(textOf(find(find(find(top[4]!.children, ID.Tag)!.children, ID.SimpleTag)!.children, ID.TagString))).toBe("T");
  });

  test("a write that misses the slot is passed on untouched, and an unpatched slot is reported", () => {
    const patches = new PatchSet();
    patches.add(slotPatches(header, position, content));
    const elsewhere = new Uint8Array([1, 2, 3]);
    expect(patches.apply(elsewhere, position + header.length + 100)).toBe(elsewhere);
    expect(patches.complete()).toBe(false);
  });

  test("a header without room for the chapters is refused", () => {
    expect(() => slotPatches(header, 0, new Uint8Array(content.length + slot.length))).toThrow(/slot holds/);
    const noTags = new Uint8Array([0x18, 0x53, 0x80, 0x67, ...sizeBytes(seekHead.length + info.length, 6), ...seekHead, ...info]);
    expect(() => slotPatches(noTags, 0, content)).toThrow(/no room/);
  });
});
