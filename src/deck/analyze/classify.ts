/**
 * @module deck/analyze/classify
 * Phase 2: give each attachment its kind and slide by its name. Duplicate names, slides out of
 * range and second notes or poll sidecars for a slide become orphans with a finding; notes,
 * media, poll and pdfpc sidecars are parsed (their findings recorded) and placed on their slides.
 */
import { finding, quoteName, slideOutOfRangeMessage } from "../sidecar/findings.ts";
import { checkMediaRect, parseMediaSidecar } from "../sidecar/media.ts";
import { parseNotesSidecar } from "../sidecar/notes.ts";
import { parsePdfpc } from "../sidecar/pdfpc.ts";
import { parsePollSidecar } from "../sidecar/poll.ts";
import { validityOf } from "../report-types.ts";
import type { Entry } from "./entries.ts";
import { kindOfMatch, mediaData, place as placeIn, type Placement } from "./state.ts";

export function classifyEntries(entries: Entry[], state: Placement): void {
  const { discovery, pageCount, byBase, unique, notesBySlide, notesEntries, pollEntries, pollsBySlide, sidecarMedia, documentEntries } = state;
  const place = (entry: Entry, slide: number | null) => placeIn(state, entry, slide);
  // Duplicate base names: the first one is used, the others are orphans.
  for (const entry of entries) {
    const first = byBase.get(entry.found.baseName);
    if (first) {
      entry.kind = kindOfMatch(entry.match);
      entry.issues.push(finding("DUPLICATE_ATTACHMENT_NAME", `${quoteName(entry.found.name)} has the same file name as ${quoteName(first.found.name)}; only the first is used. Rename or remove one.`, { attachment: entry.found.baseName }));
      place(entry, null);
    } else {
      byBase.set(entry.found.baseName, entry);
      unique.push(entry);
    }
  }


  let pdfpc = state.pdfpc;
  // The first .pdfpc is the deck's, read or not (deck/slide-groups groups the slides by it too):
  // one its text could not be read from (a finding says why) is not replaced by a later one.
  let firstPdfpc: Entry | null = pdfpc?.entry ?? null;
  const inRange = (entry: Entry, slide: number): boolean => {
    if (slide >= 1 && slide <= pageCount) return true;
    entry.issues.push(finding("SLIDE_OUT_OF_RANGE", `${quoteName(entry.found.baseName)}: ${slideOutOfRangeMessage(slide, pageCount)}; rename it to a slide between 1 and ${pageCount} or remove it.`, { attachment: entry.found.baseName, slide }));
    return false;
  };
  const pageBinding = (entry: Entry, slide: number) => {
    if (entry.found.source === "page-annotation" && entry.found.page !== undefined && entry.found.page !== slide) {
      entry.issues.push(finding("ATTACHMENT_PAGE_MISMATCH", `${quoteName(entry.found.baseName)} is attached to page ${entry.found.page} but names slide ${slide}; it is used for slide ${slide}. Attach it to that page or rename it.`, { attachment: entry.found.baseName, slide }));
    }
  };


  for (const entry of unique) {
    const { match, found } = entry;
    const base = found.baseName;
    entry.kind = kindOfMatch(match);
    if (match.type === "notes") {
      entry.slide = match.slide;
      if (!inRange(entry, match.slide)) {
        place(entry, null);
        continue;
      }
      pageBinding(entry, match.slide);
      if (notesBySlide.has(match.slide) || notesEntries.some(([s]) => s === match.slide)) {
        const other = notesEntries.find(([s]) => s === match.slide)?.[1].found.baseName ?? "another notes sidecar";
        entry.issues.push(finding("DUPLICATE_NOTES_SIDECAR", `${quoteName(base)} gives notes for slide ${match.slide}, like ${quoteName(other)}; only the first is used. Remove one.`, { attachment: base, slide: match.slide }));
        place(entry, null);
        continue;
      }
      if (entry.text) {
        const parsed = parseNotesSidecar(entry.text, { attachment: base, slide: match.slide });
        entry.issues.push(...parsed.issues);
        if (parsed.markdown !== null) {
          entry.textOut = parsed.markdown;
          if (validityOf(entry.issues) !== "invalid") notesBySlide.set(match.slide, { markdown: parsed.markdown, attachment: base });
        }
      }
      place(entry, match.slide);
    } else if (match.type === "media-sidecar") {
      entry.slide = match.slide;
      if (!inRange(entry, match.slide)) {
        place(entry, null);
        continue;
      }
      pageBinding(entry, match.slide);
      if (entry.text) {
        const parsed = parseMediaSidecar(entry.text, { attachment: base, slide: match.slide, id: match.id });
        entry.issues.push(...parsed.issues);
        if (parsed.media) {
          const box = discovery.pageBoxes[match.slide - 1];
          const rectIssue = box ? checkMediaRect(parsed.media.rect, box, { attachment: base, slide: match.slide }) : null;
          if (rectIssue) entry.issues.push(rectIssue);
          entry.data = mediaData(parsed.media);
          sidecarMedia.push({ entry, media: parsed.media });
        }
      }
      place(entry, match.slide);
    } else if (match.type === "poll") {
      entry.slide = match.slide;
      if (!inRange(entry, match.slide)) {
        place(entry, null);
        continue;
      }
      pageBinding(entry, match.slide);
      // One poll per slide: the presenter opens one poll at a time, so a second is an orphan.
      const other = pollEntries.find(([s]) => s === match.slide)?.[1];
      if (other) {
        entry.issues.push(finding("DUPLICATE_POLL_SIDECAR", `${quoteName(base)} gives a poll for slide ${match.slide}, like ${quoteName(other.found.baseName)}; only the first is used. Remove one.`, { attachment: base, slide: match.slide }));
        place(entry, null);
        continue;
      }
      if (entry.text) {
        const parsed = parsePollSidecar(entry.text, { attachment: base, slide: match.slide });
        entry.issues.push(...parsed.issues);
        if (parsed.poll) {
          entry.data = { question: parsed.poll.question, options: [...parsed.poll.options], multiple: parsed.poll.multiple };
          if (validityOf(entry.issues) !== "invalid") pollsBySlide.set(match.slide, parsed.poll);
        }
      }
      place(entry, match.slide);
    } else if (match.type === "pdfpc") {
      if (firstPdfpc) {
        entry.issues.push(finding("PDFPC_MULTIPLE", `${quoteName(base)} is a second pdfpc file; only ${quoteName(firstPdfpc.found.baseName)} is used. Remove one.`, { attachment: base }));
      } else {
        firstPdfpc = entry;
        if (entry.text) {
          const result = parsePdfpc(entry.text, base, pageCount);
          entry.issues.push(...result.issues);
          pdfpc = { entry, result };
          entry.data = { format: result.format, timer: result.timer, slidesWithNotes: [...result.notes.keys()].sort((a, b) => a - b) };
        }
      }
      entry.placed = true;
      documentEntries.push(entry);
    } else if (match.type === "media-file") {
      // Placed with the sidecar that links it (next phase), or as unreferenced after that.
    } else if (match.type === "near-miss") {
      entry.issues.push(finding("NAME_PATTERN_INVALID", `${quoteName(base)} looks like a sidecar but does not follow the naming convention, so it is ignored; ${match.hint}.`, { attachment: base }));
      place(entry, null);
    }
  }

  state.pdfpc = pdfpc;
}
