/**
 * @module deck/report
 * Build the check report (DESIGN §3.4) for an opened PDF. Browser-safe: the caller opens the
 * document (server: file-backed stream; browser: bytes in a worker) and supplies what only it
 * knows (file size, SHA-256) and, when one came beside the PDF, the notes file.
 */
import { finding } from "./sidecar/findings.ts";
import { analyzeDeck, type AnalyzeOptions } from "./analyze.ts";
import type { MupdfModule, PdfDoc } from "./mupdf-types.ts";
import { NO_NOTES_LAYOUT } from "./notes-layout.ts";
import { nameSlidesIn } from "./page-names.ts";
import { readSlideLabels } from "./slide-groups.ts";
import { readPageDurations } from "./page-durations.ts";
import { readNotesFile } from "./notes-file/index.ts";
import type { NotesFileResult } from "./notes-file/types.ts";
import { CHECK_REPORT_SCHEMA_PATH, validityOf, type CheckReport, type DocumentMeta } from "./report-types.ts";

export type { CheckReport, DocumentMeta } from "./report-types.ts";

/**
 * Options of buildCheckReport: the analysis options, and a notes file beside the PDF — as it
 * was received (bytes and name), or already normalised (.pdfpc text, as readDeckExtras takes it).
 */
export type ReportOptions = Partial<Omit<AnalyzeOptions, "notesFile">> & { notesFile?: { bytes: Uint8Array; filename: string } | string | null };

export function buildCheckReport(_mupdf: MupdfModule, doc: PdfDoc, documentMeta: DocumentMeta, options: ReportOptions = {}): CheckReport {
  const pageCount = documentMeta.pageCount;
  const { notesFile: given, ...analyzeOptions } = options;
  let notesFile: NotesFileResult | null = null;
  if (typeof given === "string") notesFile = readNotesFile(new TextEncoder().encode(given), "notes.pdfpc", pageCount);
  else if (given) notesFile = readNotesFile(given.bytes, given.filename, pageCount);
  let analysis: ReturnType<typeof analyzeDeck>;
  try {
    analysis = analyzeDeck(doc, pageCount, { ...analyzeOptions, notesFile: notesFile?.pdfpc ?? null, verify: true });
  } catch {
    // Every part of the analysis guards itself; this is the last line against a hostile
    // structure nobody foresaw: a report that says so beats a 500.
    analysis = {
      pages: Array.from({ length: pageCount }, (_, i) => ({ page: i + 1, notes: null, media: [], presenterNotes: null, issues: [] })),
      orphans: [],
      documentAttachments: [],
      issues: [finding("STRUCTURE_UNREADABLE", "The PDF's attachments and annotations cannot be read; export the deck again with a current tool.")],
      timer: {},
      extras: { layout: NO_NOTES_LAYOUT, notes: {}, notesSource: {}, notesFormat: {}, media: [], timer: {} },
      layout: NO_NOTES_LAYOUT,
      metadata: null,
      notesSources: [],
    };
  }
  const attachments = [
    ...analysis.pages.flatMap((p) => [...(p.notes ? [p.notes] : []), ...p.media, ...(p.poll ? [p.poll] : [])]),
    ...analysis.orphans,
    ...analysis.documentAttachments,
  ];
  const summary = { total: attachments.length, valid: 0, warning: 0, invalid: 0 };
  for (const a of attachments) summary[a.validity]++;
  const structural = [...analysis.issues, ...analysis.pages.flatMap((p) => p.issues)];
  const fileIssues = notesFile?.issues ?? [];
  // The slides the presenter counts, by the presenter's own route (deck/slide-groups): page
  // labels, joined by the .pdfpc's forced overlays.
  const labels = slideLabels(doc, pageCount, notesFile?.pdfpc ?? null);
  labelPages(analysis, fileIssues, labels);
  const durations = readPageDurations(doc, pageCount);
  for (const page of analysis.pages) if (durations[page.page] !== undefined) page.duration = durations[page.page];
  return {
    $schema: CHECK_REPORT_SCHEMA_PATH,
    ok: summary.invalid === 0 && validityOf(structural) !== "invalid" && validityOf(fileIssues) !== "invalid",
    document: { ...documentMeta },
    pageCount,
    summary,
    pages: analysis.pages,
    orphans: analysis.orphans,
    documentAttachments: analysis.documentAttachments,
    issues: analysis.issues.map((i) => ({ ...i })),
    timer: analysis.timer,
    notesLayout: { ...analysis.layout },
    notesSources: analysis.notesSources,
    pdfpcMetadata: analysis.metadata ? { ...analysis.metadata } : null,
    notesFile: notesFile
      ? {
          filename: notesFile.filename,
          kind: notesFile.kind,
          validity: validityOf(fileIssues),
          issues: fileIssues.map((i) => ({ ...i })),
          slideCount: notesFile.slideCount,
          slidesWithNotes: [...notesFile.notes.keys()].sort((a, b) => a - b),
        }
      : null,
  };
}

/** The presenter's slide labels; page numbers when they cannot be read (never a failed report). */
function slideLabels(doc: PdfDoc, pageCount: number, notesFile: string | null): string[] {
  try {
    return readSlideLabels(doc, pageCount, notesFile);
  } catch {
    return Array.from({ length: pageCount }, (_, i) => String(i + 1));
  }
}

/**
 * Each page gets its label, and every finding about a page names it as the presenter counts:
 * "page 14 (slide 10)" in a deck with builds (deck/page-names), so an author looks at the
 * right slide.
 */
function labelPages(analysis: ReturnType<typeof analyzeDeck>, fileIssues: { message: string; slide?: number }[], labels: string[]): void {
  const rename = (issues: { message: string; slide?: number }[]) => {
    for (const issue of issues) issue.message = nameSlidesIn(issue.message, issue.slide, labels);
  };
  for (const page of analysis.pages) {
    const label = labels[page.page - 1];
    if (label !== undefined) page.label = label;
    rename(page.issues);
    if (page.notes) rename(page.notes.issues);
    for (const media of page.media) rename(media.issues);
    if (page.poll) rename(page.poll.issues);
  }
  rename(analysis.issues);
  for (const a of [...analysis.orphans, ...analysis.documentAttachments]) rename(a.issues);
  rename(fileIssues);
}
