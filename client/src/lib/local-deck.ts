/**
 * @module client/lib/local-deck
 * Open a PDF from this computer without uploading it: check the header, count its pages
 * with the render worker, and store it like a claimed deck.
 */
import { REFUSAL_DETAIL, type RefusalCode } from "../../../src/deck/accept.ts";
import type { DeckRecord, DeckStore } from "../storage/deck-store.ts";
import { RenderError, Renderer } from "./renderer.ts";
import { sha256Hex } from "./sha256.ts";
import { storeThumbnail } from "./thumbnail.ts";

/** PDF readers accept the `%PDF-` marker anywhere in the first 1024 bytes. */
export function looksLikePdf(head: Uint8Array): boolean {
  const text = new TextDecoder("latin1").decode(head.subarray(0, 1024));
  return text.includes("%PDF-");
}

export function titleFromFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  const stripped = base.replace(/\.pdf$/i, "").replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return stripped || "presentation";
}

export class LocalDeckError extends Error {
  /** The shared refusal code (PDF_ENCRYPTED, …) when the rule refused the file. */
  constructor(message: string, readonly code?: string) {
    super(message);
  }
}

export async function importLocalPdf(file: File, store: DeckStore): Promise<DeckRecord> {
  const data = await file.arrayBuffer();
  if (!looksLikePdf(new Uint8Array(data, 0, Math.min(1024, data.byteLength)))) {
    throw new LocalDeckError(`“${file.name}” is not a PDF. Export the deck as PDF and open that file.`);
  }
  const renderer = new Renderer();
  try {
    let opened;
    try {
      opened = await renderer.open(data);
    } catch (error) {
      // The worker judges the deck by the server's own rule (src/deck/accept.ts): a file the
      // server would refuse with PDF_ENCRYPTED is refused here with the same sentence.
      const code = error instanceof RenderError ? error.code : undefined;
      const detail = code && code in REFUSAL_DETAIL ? REFUSAL_DETAIL[code as RefusalCode] : "It may be damaged; export the deck as PDF again.";
      throw new LocalDeckError(`“${file.name}” cannot be presented. ${detail}`, code);
    }
    const filename = titleFromFilename(file.name);
    const deck = await store.putDeck({
      title: opened.title || filename,
      filename,
      totalSlides: opened.pageCount,
      sha256: await sha256Hex(data),
      source: "local",
      data,
    });
    await store.setDeckLayout(deck.id, { pageSize: opened.firstPage, labels: opened.labels });
    // The deck is open in the worker already: its library thumbnail costs one small render.
    // A failure here only leaves the placeholder, which the library fills in later.
    await storeThumbnail(renderer, store, deck.id).catch((error: unknown) => console.warn("thumbnail", error));
    return deck;
  } finally {
    renderer.terminate();
  }
}
