/**
 * @module client/export/chapters
 * A Matroska `Chapters` element: one edition whose chapters are the talk's slide spans, each
 * with its start and end and its title, so a player's chapter list (ffprobe's
 * `-show_chapters`, VLC's Playback › Chapter) is the talk's path through the deck. mediabunny
 * writes no chapters; this is the one element it lacks, in the subset WebM allows (EditionEntry,
 * ChapterAtom, ChapterUID, ChapterTimeStart/End, ChapterDisplay, ChapString, ChapLanguage).
 * Also the small `Tags` element with the file's title written beside it. Pure; no DOM.
 */
import type { Chapter } from "../record/timeline.ts";
import { ID, master, uint, utf8 } from "./ebml.ts";

/** Matroska counts chapter times in nanoseconds (unscaled, unlike block timestamps). */
const NS_PER_MS = 1_000_000n;

/**
 * "und": the titles come from the deck (its outline or its slide labels), whose language is
 * not known. ChapLanguage is ISO 639-2; an absent one would read as English.
 */
const UNDETERMINED = "und";

/** The Chapters element for `chapters` (in time order, non-empty), ready to place in a Segment. */
export function chaptersElement(chapters: readonly Chapter[]): Uint8Array {
  if (!chapters.length) throw new RangeError("A Chapters element needs at least one chapter.");
  const atoms = chapters.map((chapter, i) =>
    master(ID.ChapterAtom, [
      // Unique and non-zero within the file; the chapter's place is stable for one export.
      uint(ID.ChapterUID, i + 1),
      uint(ID.ChapterTimeStart, BigInt(Math.max(0, Math.round(chapter.startMs))) * NS_PER_MS),
      uint(ID.ChapterTimeEnd, BigInt(Math.max(0, Math.round(chapter.endMs))) * NS_PER_MS),
      master(ID.ChapterDisplay, [utf8(ID.ChapString, chapter.title), utf8(ID.ChapLanguage, UNDETERMINED)]),
    ]),
  );
  return master(ID.Chapters, [master(ID.EditionEntry, atoms)]);
}

/** A Tags element giving the whole file its title (what VLC and ffprobe show as the title). */
export function titleTags(title: string): Uint8Array {
  return master(ID.Tags, [master(ID.Tag, [master(ID.Targets, []), master(ID.SimpleTag, [utf8(ID.TagName, "TITLE"), utf8(ID.TagString, title)])])]);
}
