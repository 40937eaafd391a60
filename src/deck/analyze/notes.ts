/**
 * @module deck/analyze/notes
 * Phase 5: the notes the presenter shows on each slide — the first usable source, in this
 * order — with a warning (NOTES_MULTIPLE_SOURCES, naming the one used) where several compete:
 *
 *   1. a notes sidecar attached to the PDF (`notes-slide-{N}.json`): written for this deck;
 *   2. a notes file beside the PDF (.pdfpc or .pptx): chosen by the speaker for this talk;
 *   3. a .pdfpc attached to the PDF;
 *   4. the notes half of the page (Beamer's notes on a second screen): text read back from
 *      a drawing, the least exact of the written sources;
 *   5. in-page note annotations (`\pdfpcnote`).
 *
 * Each note keeps the format its source writes (NotesFormat): a notes sidecar is markdown; a
 * notes file or .pdfpc is markdown unless `disableMarkdown`, a .pptx plain text; the notes half
 * is plain text; in-page annotations are markdown where pdfpc.sty's XMP says so
 * (`DisableMarkdown` false, as pdfpc renders them), plain text otherwise.
 *
 * The timer takes each setting from the first that gives it: the notes file beside the PDF,
 * the attached .pdfpc, then pdfpc.sty's XMP metadata (the presenter's own settings override
 * them all, in the client). Also the presenter's extras (notes, media, timer, layout).
 */
import { finding } from "../sidecar/findings.ts";
import type { DeckExtras, NotesFormat, NotesSource, TimerSettings, TimerSource } from "../sidecar/types.ts";
import type { PresenterNotes } from "../report-types.ts";
import type { Placement } from "./state.ts";

/** The order of precedence, first wins. */
export const NOTES_PRECEDENCE: readonly NotesSource[] = ["notes-sidecar", "notes-file", "pdfpc", "notes-page", "annotation"];

const SOURCE_LABEL: Record<NotesSource, string> = {
  "notes-sidecar": "a notes sidecar",
  "notes-file": "the notes file beside the PDF",
  pdfpc: "the pdfpc file",
  "notes-page": "the notes half of the page",
  annotation: "in-page note annotations",
};

type TimerField = keyof NonNullable<TimerSettings["sources"]>;
const TIMER_FIELDS: TimerField[] = ["durationMinutes", "startTime", "endTime", "lastMinutes", "endSlide"];

/** Each timer setting from the first source that gives it, with its source. */
export function mergeTimer(layers: [TimerSource, TimerSettings | null | undefined][]): TimerSettings {
  const timer: TimerSettings = {};
  const sources: NonNullable<TimerSettings["sources"]> = {};
  for (const field of TIMER_FIELDS) {
    for (const [source, settings] of layers) {
      const value = settings?.[field];
      if (value === undefined) continue;
      (timer as Record<string, unknown>)[field] = value;
      sources[field] = source;
      break;
    }
  }
  if (Object.keys(sources).length > 0) timer.sources = sources;
  return timer;
}

export function resolvePresenterNotes(state: Placement): { timer: TimerSettings; extras: DeckExtras; sources: NotesSource[] } {
  const { pdfpc, pages, notesBySlide, discovery, shownMedia, notesFile, metadata, notesPages, layout } = state;
  const xmpTimer: TimerSettings | null = metadata
    ? {
        ...(metadata.duration !== undefined ? { durationMinutes: metadata.duration } : {}),
        ...(metadata.startTime !== undefined ? { startTime: metadata.startTime } : {}),
        ...(metadata.endTime !== undefined ? { endTime: metadata.endTime } : {}),
        ...(metadata.lastMinutes !== undefined ? { lastMinutes: metadata.lastMinutes } : {}),
        ...(metadata.endUserSlide !== undefined ? { endSlide: metadata.endUserSlide } : {}),
      }
    : null;
  const timer = mergeTimer([
    ["notes-file", notesFile?.timer],
    ["pdfpc", pdfpc?.result.timer],
    ["xmp", xmpTimer],
  ]);
  const pdfpcUsable = pdfpc && pdfpc.result.usable ? pdfpc : null;
  const fileUsable = notesFile && notesFile.usable ? notesFile : null;
  const extras: DeckExtras = { layout, notes: {}, notesSource: {}, notesFormat: {}, media: [], timer };
  // pdfpc renders in-page notes as markdown unless told not to; other tools' annotations are text.
  const annotationFormat: NotesFormat = metadata?.disableMarkdown === false ? "markdown" : "text";
  // Hidden pages, like the timer, from the notes file first: the speaker chose it for this talk.
  // (The slide grouping is not decided here: deck/slide-groups reads it for every window.)
  const hidden = [fileUsable?.hidden, pdfpcUsable?.result.hidden].find((list) => list && list.length > 0);
  if (hidden) extras.hidden = hidden;
  const found = new Set<NotesSource>();
  for (const page of pages) {
    const candidates: PresenterNotes[] = [];
    const sidecar = notesBySlide.get(page.page);
    if (sidecar && sidecar.markdown.trim()) candidates.push({ source: "notes-sidecar", text: sidecar.markdown, format: "markdown", attachment: sidecar.attachment });
    const fromFile = fileUsable?.notes.get(page.page);
    if (fileUsable && fromFile) candidates.push({ source: "notes-file", text: fromFile, format: fileUsable.notesFormat });
    const fromPdfpc = pdfpcUsable?.result.notes.get(page.page);
    if (pdfpcUsable && fromPdfpc) candidates.push({ source: "pdfpc", text: fromPdfpc, format: pdfpcUsable.result.notesFormat, attachment: pdfpcUsable.entry.found.baseName });
    const fromNotesPage = notesPages.get(page.page);
    if (fromNotesPage) candidates.push({ source: "notes-page", text: fromNotesPage, format: "text" });
    const fromAnnotation = discovery.textNotes.get(page.page);
    if (fromAnnotation) candidates.push({ source: "annotation", text: fromAnnotation, format: annotationFormat });
    for (const c of candidates) found.add(c.source);
    const chosen = candidates[0];
    if (!chosen) continue;
    page.presenterNotes = chosen;
    extras.notes[page.page] = chosen.text;
    extras.notesSource[page.page] = chosen.source;
    extras.notesFormat[page.page] = chosen.format ?? "markdown";
    if (candidates.length > 1) {
      const names = candidates.map((c) => (c.attachment ? `${SOURCE_LABEL[c.source]} (${c.attachment})` : SOURCE_LABEL[c.source]));
      page.issues.push(finding("NOTES_MULTIPLE_SOURCES", `Slide ${page.page} has notes from ${names.join(" and ")}; the presenter shows those from ${names[0]}. Keep one source.`, { slide: page.page }));
    }
  }
  extras.media = shownMedia.sort((a, b) => a.slide - b.slide);
  // Only valid polls: the presenter opens what the report calls usable, nothing else.
  if (state.pollsBySlide.size > 0) extras.polls = [...state.pollsBySlide.values()].sort((a, b) => a.slide - b.slide);

  return { timer, extras, sources: NOTES_PRECEDENCE.filter((s) => found.has(s)) };
}
