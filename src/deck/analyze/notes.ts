/**
 * @module deck/analyze/notes
 * Phase 5: the notes the presenter shows on each slide — the first usable source of notes
 * sidecar, pdfpc file and in-page annotations — with a warning where several compete; and the
 * presenter's extras (notes, media, timer) that come with them.
 */
import { finding } from "../sidecar/findings.ts";
import type { DeckExtras, NotesSource, TimerSettings } from "../sidecar/types.ts";
import type { PresenterNotes } from "../report-types.ts";
import type { Placement } from "./state.ts";

export function resolvePresenterNotes(state: Placement): { timer: TimerSettings; extras: DeckExtras } {
  const { pdfpc, pages, notesBySlide, discovery, shownMedia } = state;
  const pdfpcFound = pdfpc;
  const timer: TimerSettings = pdfpcFound ? { ...pdfpcFound.result.timer } : {};
  const pdfpcUsable = pdfpcFound && pdfpcFound.result.usable ? pdfpcFound : null;
  const extras: DeckExtras = { notes: {}, notesSource: {}, media: [], timer };
  const sourceLabel: Record<NotesSource, string> = { "notes-sidecar": "a notes sidecar", pdfpc: "the pdfpc file", annotation: "in-page note annotations" };
  for (const page of pages) {
    const candidates: PresenterNotes[] = [];
    const sidecar = notesBySlide.get(page.page);
    if (sidecar && sidecar.markdown.trim()) candidates.push({ source: "notes-sidecar", text: sidecar.markdown, attachment: sidecar.attachment });
    const fromPdfpc = pdfpcUsable?.result.notes.get(page.page);
    if (pdfpcUsable && fromPdfpc) candidates.push({ source: "pdfpc", text: fromPdfpc, attachment: pdfpcUsable.entry.found.baseName });
    const fromAnnotation = discovery.textNotes.get(page.page);
    if (fromAnnotation) candidates.push({ source: "annotation", text: fromAnnotation });
    const chosen = candidates[0];
    if (!chosen) continue;
    page.presenterNotes = chosen;
    extras.notes[page.page] = chosen.text;
    extras.notesSource[page.page] = chosen.source;
    if (candidates.length > 1) {
      const names = candidates.map((c) => (c.attachment ? `${sourceLabel[c.source]} (${c.attachment})` : sourceLabel[c.source]));
      page.issues.push(finding("NOTES_MULTIPLE_SOURCES", `Slide ${page.page} has notes from ${names.join(" and ")}; the presenter shows those from ${names[0]}. Keep one source.`, { slide: page.page }));
    }
  }
  extras.media = shownMedia.sort((a, b) => a.slide - b.slide);

  return { timer, extras };
}
