/**
 * @module pdf/report-types
 * The check report (DESIGN §3.4), as TypeScript types. `schemas/check-report.schema.json`
 * is the published form of the same shape; test/helpers/report-schema.ts keeps them in step.
 * Browser-safe (types only).
 */
import type { Finding, FindingLevel, FindingCode } from "../sidecar/findings.ts";
import type { NotesSource, TimerSettings } from "../sidecar/types.ts";
import type { AttachmentSource } from "./attachments.ts";

/** Served path of the report schema; every report's `$schema` points here. */
export const CHECK_REPORT_SCHEMA_PATH = "/schema/check-report.schema.json";

export type Validity = "valid" | "warning" | "invalid";

/**
 * - `notes`: a notes sidecar `notes-slide-{N}.json`
 * - `media`: a media sidecar `media-slide-{N}-{id}.json`
 * - `media-file`: a media binary `media-{id}.{ext}` referenced by a media sidecar
 * - `page-media`: audio/video/GIF attached to a page (FileAttachment, Screen, RichMedia)
 * - `pdfpc`: a pdfpc file
 * - `unknown`: follows no convention (always an orphan)
 */
export type AttachmentKind = "notes" | "media" | "media-file" | "page-media" | "pdfpc" | "unknown";

export interface ReportIssue {
  code: FindingCode;
  level: "error" | "warning";
  message: string;
  slide?: number;
  attachment?: string;
}

export interface AttachmentResult {
  /** Base name (what conventions match on). */
  filename: string;
  /** Name as stored in the PDF, e.g. `src/notes-slide-2.json`. */
  name: string;
  kind: AttachmentKind;
  /** The slide the attachment belongs to, when it names or sits on one. */
  slide?: number;
  source: AttachmentSource;
  /** For source "page-annotation": the page whose annotation holds it. */
  page?: number;
  validity: Validity;
  issues: ReportIssue[];
  /** For kind "notes": the markdown the sidecar renders to. */
  text?: string;
  /** Kind-specific details: the placed media (media, page-media), the binary's name, pdfpc's timer. */
  data?: Record<string, unknown>;
  /** Decoded size in bytes, or null when the stream could not be decoded (or was not read). */
  bytes: number | null;
  /** MIME type the PDF declares for the embedded file (/Subtype), if any. */
  mimeType: string | null;
  /** MIME type sniffed from the decoded bytes, if recognised. */
  sniffedType: string | null;
}

export interface PresenterNotes {
  source: NotesSource;
  /** Markdown (untrusted: render it sanitised). */
  text: string;
  /** The attachment it comes from (notes sidecar or pdfpc file); absent for annotations. */
  attachment?: string;
}

export interface PageResult {
  page: number;
  /** The notes sidecar for this slide, if there is one. */
  notes: AttachmentResult | null;
  /** Media sidecars, their binaries, and page-attached media of this slide. */
  media: AttachmentResult[];
  /** The notes the presenter shows on this slide, after resolving sources by priority. */
  presenterNotes: PresenterNotes | null;
  /** Slide-level findings (several notes sources). */
  issues: ReportIssue[];
}

export interface DocumentMeta {
  bytes: number;
  sha256: string;
  pdfVersion: string | null;
  title: string | null;
  pageCount: number;
}

export interface CheckReport {
  $schema: string;
  /** True when nothing is invalid (warnings allowed). */
  ok: boolean;
  document: DocumentMeta;
  pageCount: number;
  summary: { total: number; valid: number; warning: number; invalid: number };
  pages: PageResult[];
  /** Attachments that belong to no slide: unknown files, unreferenced binaries, out-of-range or duplicate sidecars. */
  orphans: AttachmentResult[];
  /** Attachments that belong to the whole deck (pdfpc files). */
  documentAttachments: AttachmentResult[];
  /** Document-level findings (PDF structure, caps). */
  issues: ReportIssue[];
  /** Presenter timer settings (from pdfpc). */
  timer: TimerSettings;
}

export function toReportIssue(f: Finding): ReportIssue {
  return { ...f };
}

export function validityOf(issues: { level: FindingLevel }[]): Validity {
  if (issues.some((i) => i.level === "error")) return "invalid";
  if (issues.length > 0) return "warning";
  return "valid";
}
