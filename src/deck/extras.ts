/**
 * @module deck/extras
 * What the presenter needs besides the pages — notes, media, timer — and the bytes of a
 * `kind:"file"` media attachment. Runs in the browser's Web Worker on mupdf's WASM as well
 * as on the server. Browser-safe: mupdf comes in as a parameter.
 */
import type { DeckExtras } from "./sidecar/types.ts";
import { analyzeDeck, DEFAULT_ANALYZE_OPTIONS, type AnalyzeOptions } from "./analyze.ts";
import { discoverAttachments, type Discovery } from "./attachments.ts";
import type { MupdfModule, PdfDoc } from "./mupdf-types.ts";
import { concat, decodeStream } from "./stream-decode.ts";
import { layoutOf, NO_NOTES_LAYOUT } from "./notes-layout.ts";

function pageCountOf(doc: PdfDoc): number {
  try {
    return Math.max(0, doc.countPages());
  } catch {
    return 0;
  }
}

/**
 * Notes per slide (resolved by priority), the media to place on each slide, the timer and the
 * notes layout — exactly what the check report lists as shown (so binaries are verified here
 * too: a media file whose checksum fails is not shown). Never throws for a readable document.
 *
 * `options.notesFile`: the deck's notes file beside the PDF, as the normalised .pdfpc text
 * readNotesFile made (deck record `notes.pdfpc`); `options.notesPosition`: the presenter's
 * per-deck override of the notes layout. With a Beamer layout, each slide's notes come from its
 * notes half's text (source "notes-page") unless a stronger source gives some.
 */
export function readDeckExtras(_mupdf: MupdfModule, doc: PdfDoc, options: Partial<Omit<AnalyzeOptions, "verify">> = {}): DeckExtras {
  try {
    return analyzeDeck(doc, pageCountOf(doc), { ...options, verify: true }).extras;
  } catch {
    return { layout: options.notesPosition ? layoutOf(options.notesPosition, "override") : NO_NOTES_LAYOUT, notes: {}, notesSource: {}, notesFormat: {}, media: [], timer: {} };
  }
}

const discoveries = new WeakMap<PdfDoc, Discovery>();

/**
 * The decoded bytes of the attachment called `name` (as stored, or its base name, as in
 * `SlideMedia.attachment`), or null when there is none or it cannot be decoded within the cap.
 */
export function readAttachmentBytes(_mupdf: MupdfModule, doc: PdfDoc, name: string, maxBytes = DEFAULT_ANALYZE_OPTIONS.maxAttachmentBytes): Uint8Array | null {
  try {
    let discovery = discoveries.get(doc);
    if (!discovery) {
      discovery = discoverAttachments(doc, pageCountOf(doc));
      discoveries.set(doc, discovery);
    }
    const found = discovery.attachments.find((a) => a.name === name) ?? discovery.attachments.find((a) => a.baseName === name);
    if (!found?.stream) return null;
    const parts: Uint8Array[] = [];
    let size = 0;
    const outcome = decodeStream(found.stream, maxBytes, (chunk) => {
      parts.push(chunk.slice());
      size += chunk.length;
    });
    if (outcome.status !== "ok") return null;
    return concat(parts, size);
  } catch {
    return null;
  }
}
