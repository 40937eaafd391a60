/**
 * @module deck/analyze/layout
 * Phase 4b: the notes the deck carries besides its attachments — pdfpc.sty's XMP metadata, the
 * notes layout (detected, or the presenter's override) and, with a Beamer notes layout, the
 * text of every page's notes half — and the notes file that came beside the PDF.
 */
import type { PdfDoc } from "../mupdf-types.ts";
import { layoutOf } from "../notes-layout.ts";
import { detectNotesLayout } from "../notes-layout-detect.ts";
import { readNotesText } from "../notes-text.ts";
import { parsePdfpc } from "../sidecar/pdfpc.ts";
import { readPdfpcMetadata } from "../xmp.ts";
import { MAX_NORMALISED_PDFPC_BYTES } from "../notes-file/index.ts";
import type { AnalyzeOptions } from "./options.ts";
import type { Placement } from "./state.ts";

/** The name the notes file's findings carry when they are re-read from the normalised text. */
export const NOTES_FILE_LABEL = "notes file";

export function readDeckNotes(doc: PdfDoc, state: Placement, opts: AnalyzeOptions): void {
  const { pageCount } = state;
  const metadata = readPdfpcMetadata(doc);
  state.metadata = metadata.metadata;
  state.discovery.issues.push(...metadata.issues);
  if (opts.notesPosition !== undefined) {
    state.layout = layoutOf(opts.notesPosition, "override");
  } else {
    const detected = detectNotesLayout(doc, pageCount, metadata.metadata);
    state.layout = detected.layout;
    state.discovery.issues.push(...detected.issues);
  }
  if (state.layout.kind === "beamer-second-screen") {
    for (let i = 0; i < pageCount; i++) {
      const text = readNotesText(doc, i, state.layout.position);
      if (text) state.notesPages.set(i + 1, text);
    }
  }
  if (opts.notesFile) {
    // Already checked when it arrived (readNotesFile); only its notes and timer are needed here.
    const parsed = parsePdfpc(new TextEncoder().encode(opts.notesFile), NOTES_FILE_LABEL, pageCount, MAX_NORMALISED_PDFPC_BYTES);
    if (parsed.usable) state.notesFile = parsed;
  }
}
