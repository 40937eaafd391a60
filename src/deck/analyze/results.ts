/**
 * @module deck/analyze/results
 * Phase 6: the entries as report attachments on their slides, among the orphans or with the
 * document, with the notes text capped (the one part of a report whose size the deck's
 * author controls).
 */
import { finding, type Finding } from "../sidecar/findings.ts";
import { normalizeMime } from "../sidecar/sniff.ts";
import type { DeckExtras, NotesSource, TimerSettings } from "../sidecar/types.ts";
import type { NotesLayout } from "../notes-layout.ts";
import type { PdfpcMetadata } from "../xmp.ts";
import { validityOf, type AttachmentResult, type PageResult } from "../report-types.ts";
import type { Entry } from "./entries.ts";
import type { AnalyzeOptions } from "./options.ts";
import type { Placement } from "./state.ts";

export interface Analysis {
  pages: PageResult[];
  orphans: AttachmentResult[];
  documentAttachments: AttachmentResult[];
  issues: Finding[];
  timer: TimerSettings;
  extras: DeckExtras;
  layout: NotesLayout;
  metadata: PdfpcMetadata | null;
  /** Every source that gave notes for at least one slide, in the order of precedence. */
  notesSources: NotesSource[];
}

export function buildResults(state: Placement, notes: { timer: TimerSettings; extras: DeckExtras; sources: NotesSource[] }, opts: AnalyzeOptions): Analysis {
  const { pages, notesEntries, mediaEntries, pollEntries, orphans, documentEntries } = state;
  const { timer, extras } = notes;
  const documentIssues: Finding[] = [...state.discovery.issues];
  // Notes text, the one part of a report whose size the deck's author controls: capped.
  let textLeft = opts.maxReportTextChars;
  let textCut = false;
  const clip = (text: string): string => {
    if (text.length <= textLeft) {
      textLeft -= text.length;
      return text;
    }
    textCut = true;
    const kept = textLeft > 0 ? `${text.slice(0, textLeft)}…` : "";
    textLeft = 0;
    return kept;
  };
  for (const page of pages) {
    if (!page.presenterNotes) continue;
    page.presenterNotes.text = clip(page.presenterNotes.text);
    extras.notes[page.page] = page.presenterNotes.text;
  }

  const toResult = (entry: Entry): AttachmentResult => {
    const { found } = entry;
    const result: AttachmentResult = {
      filename: found.baseName,
      name: found.name,
      kind: entry.kind,
      source: found.source,
      validity: validityOf(entry.issues),
      issues: entry.issues.map((i) => ({ ...i })),
      bytes: entry.bytes,
      mimeType: found.declaredMime ? normalizeMime(found.declaredMime) : null,
      sniffedType: entry.sniffed,
    };
    if (entry.slide !== undefined) result.slide = entry.slide;
    if (found.page !== undefined) result.page = found.page;
    if (entry.textOut !== undefined) result.text = clip(entry.textOut);
    if (entry.data !== undefined) result.data = entry.data;
    return result;
  };
  for (const [slide, entry] of notesEntries) (pages[slide - 1] as PageResult).notes = toResult(entry);
  for (const [slide, entry] of mediaEntries) (pages[slide - 1] as PageResult).media.push(toResult(entry));
  for (const [slide, entry] of pollEntries) (pages[slide - 1] as PageResult).poll = toResult(entry);
  const orphanResults = orphans.map(toResult);
  const documentResults = documentEntries.map(toResult);
  if (textCut) {
    documentIssues.push(finding("REPORT_TRUNCATED", `The notes in this PDF add up to more than ${opts.maxReportTextChars} characters; the report leaves out the text past that point (every finding is still listed). Keep speaker notes short.`));
  }

  return {
    pages,
    orphans: orphanResults,
    documentAttachments: documentResults,
    issues: documentIssues,
    timer,
    extras,
    layout: state.layout,
    metadata: state.metadata,
    notesSources: notes.sources,
  };
}
