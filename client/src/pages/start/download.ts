/**
 * @module client/pages/start/download
 * What the claim page's download has so far: the bytes gathered as they arrive, the running
 * digest of them, what the server's headers said (size, pages, digest, whether notes came
 * with the deck) and whether every byte is here — kept across a cut (the next request resumes
 * with Range) and across a retry after a notes or storage failure (nothing is downloaded again).
 */
import { DeckBuffer } from "../../lib/deck-buffer.ts";
import { StreamingSha256 } from "../../lib/sha256.ts";

export interface Download {
  /** The bytes so far, gathered in one buffer as they arrive (lib/deck-buffer). */
  bytes: DeckBuffer;
  received: number;
  total: number | null;
  filename: string;
  /** PDF pages, as the server's X-Total-Slides counts them (the record's `totalSlides`). */
  totalSlides: number | null;
  /** Slides by page label, once the probe read the labels (lib/deck-size); null until then. */
  slides: number | null;
  serverDigest: string | null;
  hasher: StreamingSha256;
  /** Every byte is here: a retry (after a notes or storage failure) need not download again. */
  done: boolean;
  /** What the download's `X-Notes` said: has notes, has none, or null (not said: ask). */
  hasNotes: boolean | null;
}

/** A download not begun. */
export function freshDownload(): Download {
  return { bytes: new DeckBuffer(null), received: 0, total: null, filename: "", totalSlides: null, slides: null, serverDigest: null, hasher: new StreamingSha256(), done: false, hasNotes: null };
}

/** Start over from the first byte: what came so far is dropped (a damaged download, a digest the server refused). */
export function restartDownload(download: Download): void {
  download.bytes = new DeckBuffer(null);
  download.received = 0;
  download.hasher = new StreamingSha256();
  download.done = false;
}
