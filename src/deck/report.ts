/**
 * @module deck/report
 * Build the check report (DESIGN §3.4) for an opened PDF. Browser-safe: the caller opens the
 * document (server: file-backed stream; browser: bytes in a worker) and supplies what only it
 * knows (file size, SHA-256).
 */
import { finding } from "./sidecar/findings.ts";
import { analyzeDeck, type AnalyzeOptions } from "./analyze.ts";
import type { MupdfModule, PdfDoc } from "./mupdf-types.ts";
import { CHECK_REPORT_SCHEMA_PATH, validityOf, type CheckReport, type DocumentMeta } from "./report-types.ts";

export type { CheckReport, DocumentMeta } from "./report-types.ts";

export function buildCheckReport(_mupdf: MupdfModule, doc: PdfDoc, documentMeta: DocumentMeta, options: Partial<AnalyzeOptions> = {}): CheckReport {
  const pageCount = documentMeta.pageCount;
  let analysis: ReturnType<typeof analyzeDeck>;
  try {
    analysis = analyzeDeck(doc, pageCount, { ...options, verify: true });
  } catch {
    // Every part of the analysis guards itself; this is the last line against a hostile
    // structure nobody foresaw: a report that says so beats a 500.
    analysis = {
      pages: Array.from({ length: pageCount }, (_, i) => ({ page: i + 1, notes: null, media: [], presenterNotes: null, issues: [] })),
      orphans: [],
      documentAttachments: [],
      issues: [finding("STRUCTURE_UNREADABLE", "The PDF's attachments and annotations cannot be read; export the deck again with a current tool.")],
      timer: {},
      extras: { notes: {}, notesSource: {}, media: [], timer: {} },
    };
  }
  const attachments = [
    ...analysis.pages.flatMap((p) => (p.notes ? [p.notes, ...p.media] : p.media)),
    ...analysis.orphans,
    ...analysis.documentAttachments,
  ];
  const summary = { total: attachments.length, valid: 0, warning: 0, invalid: 0 };
  for (const a of attachments) summary[a.validity]++;
  const structural = [...analysis.issues, ...analysis.pages.flatMap((p) => p.issues)];
  return {
    $schema: CHECK_REPORT_SCHEMA_PATH,
    ok: summary.invalid === 0 && validityOf(structural) !== "invalid",
    document: { ...documentMeta },
    pageCount,
    summary,
    pages: analysis.pages,
    orphans: analysis.orphans,
    documentAttachments: analysis.documentAttachments,
    issues: analysis.issues.map((i) => ({ ...i })),
    timer: analysis.timer,
  };
}
