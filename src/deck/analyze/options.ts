/**
 * @module deck/analyze/options
 * What one analysis may cost: the caps and budgets every phase reads.
 */
import { DEFAULT_DISCOVERY_LIMITS, type DiscoveryLimits } from "../attachments.ts";
import type { NotesPosition } from "../notes-layout.ts";

export interface AnalyzeOptions {
  /** Decoded size cap per attachment; legitimate media hardly compress, so a larger result is a bomb. */
  maxAttachmentBytes: number;
  /**
   * Decoded size budget for all attachments of one document together, charged for every
   * attachment that reads a stream (a stream shared by many attachments is decoded once, but
   * each of them costs its size: that is the work the report does for it).
   */
  maxTotalBytes: number;
  /** Sidecar text (notes, media, pdfpc JSON) parsed per document at most. */
  maxSidecarTotalBytes: number;
  /** Characters of notes text the result carries at most; past it, texts are cut (REPORT_TRUNCATED). */
  maxReportTextChars: number;
  /** Decode every binary fully (size, MD5). False reads only what the presenter needs. */
  verify: boolean;
  limits: DiscoveryLimits;
  /**
   * A notes file that came beside the PDF, as the normalised `.pdfpc` text readNotesFile made
   * (what the server stores and the browser keeps with the deck); its notes have the source
   * "notes-file". Null or absent: none.
   */
  notesFile?: string | null;
  /** The presenter's per-deck override of the notes layout (pdfpc's `-n`); absent: detected. */
  notesPosition?: NotesPosition;
}

export const DEFAULT_ANALYZE_OPTIONS: AnalyzeOptions = {
  maxAttachmentBytes: 256 * 1024 * 1024,
  // Twice the largest deck a default server accepts: media hardly compress, so a real deck
  // decodes to about its own size.
  maxTotalBytes: 512 * 1024 * 1024,
  // A 3,000-slide deck with a page of notes per slide is ~10 MiB of JSON.
  maxSidecarTotalBytes: 32 * 1024 * 1024,
  // Notes text appears twice in a report (the sidecar's text and the slide's presenter notes).
  maxReportTextChars: 8 * 1024 * 1024,
  verify: true,
  limits: DEFAULT_DISCOVERY_LIMITS,
};

