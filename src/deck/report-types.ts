/**
 * @module deck/report-types
 * The check report (docs/decks/check-report.md): its types are generated from the published schema
 * (`schemas/check-report.schema.json` → deck/check-report.gen.ts, scripts/gen-types.ts), the
 * one definition the server, the MCP tools and the browser client share; the names the
 * report builder uses are aliases of them. Browser-safe.
 */
import type { Attachment, CheckReport, Issue, Page, PresenterNotes } from "./check-report.gen.ts";
import type { FindingLevel } from "./sidecar/findings.ts";

/** Served path of the report schema; every report's `$schema` points here. */
export const CHECK_REPORT_SCHEMA_PATH = "/schema/check-report.schema.json" as const;

export type { CheckReport };
export type AttachmentResult = Attachment;
export type PageResult = Page;
export type ReportIssue = Issue;
export type { PresenterNotes };
export type Validity = Attachment["validity"];
/**
 * - `notes`: a notes sidecar `notes-slide-{N}.json`
 * - `media`: a media sidecar `media-slide-{N}-{id}.json`
 * - `media-file`: a media binary `media-{id}.{ext}` referenced by a media sidecar
 * - `page-media`: audio/video/GIF attached to a page (FileAttachment, Screen, RichMedia)
 * - `pdfpc`: a pdfpc file
 * - `unknown`: follows no convention (always an orphan)
 */
export type AttachmentKind = Attachment["kind"];
export type DocumentMeta = CheckReport["document"];

export function validityOf(issues: { level: FindingLevel }[]): Validity {
  if (issues.some((i) => i.level === "error")) return "invalid";
  if (issues.length > 0) return "warning";
  return "valid";
}
