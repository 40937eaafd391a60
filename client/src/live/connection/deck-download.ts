/**
 * @module client/live/connection/deck-download
 * A live viewer's copy of the deck: taken from IndexedDB when this browser has it already
 * (same code, same digest) — a reconnect or a reload never downloads again — otherwise
 * downloaded from `GET /api/live/{code}/deck`, resumed with `Range` where a flaky network cut
 * it, hashed as it arrives and checked against the digest the server announced, then kept.
 */
import { resumeDecision, resumeHeaders } from "../../lib/handoff.ts";
import { StreamingSha256 } from "../../lib/sha256.ts";
import type { DeckStore } from "../../storage/deck-store.ts";
import { backoffDelay } from "./backoff.ts";

/** Tries after a cut before the viewer is told; each resumes where the last one stopped. */
const MAX_TRIES = 8;
/** Whole downloads whose digest was wrong before giving up: more would only repeat a bad copy. */
const MAX_DAMAGED = 2;

export class DeckDownloadError extends Error {
  constructor(readonly kind: "gone" | "damaged" | "network") {
    super(kind);
  }
}

export interface LiveDeck {
  data: ArrayBuffer;
  /** Where it came from this time: storage, or the network. */
  source: "stored" | "network";
}

export async function liveDeck(code: string, sha256: string, filename: string, store: DeckStore | null, onProgress: (fraction: number | null) => void): Promise<LiveDeck> {
  const stored = await store?.getLiveDeck(code).catch(() => undefined);
  if (stored && stored.sha256 === sha256) return { data: stored.data, source: "stored" };
  const data = await download(code, sha256, onProgress);
  await store?.putLiveDeck({ code, sha256, filename, data, storedAt: Date.now() });
  return { data, source: "network" };
}

async function download(code: string, sha256: string, onProgress: (fraction: number | null) => void): Promise<ArrayBuffer> {
  let chunks: Uint8Array[] = [];
  let received = 0;
  let total: number | null = null;
  let hasher = new StreamingSha256();
  let damaged = 0;
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(`/api/live/${encodeURIComponent(code)}/deck`, { headers: resumeHeaders(received), cache: "no-store", credentials: "omit" });
      if (response.status === 404 || response.status === 410) throw new DeckDownloadError("gone");
      const decision = received > 0 ? resumeDecision(response.status, response.headers.get("content-range"), received) : response.status === 200 ? "restart" : "invalid";
      if (decision === "invalid") {
        await response.body?.cancel();
        throw new Error("cannot resume");
      }
      if (decision === "restart") {
        chunks = [];
        received = 0;
        hasher = new StreamingSha256();
        const length = Number(response.headers.get("content-length"));
        total = Number.isFinite(length) && length > 0 ? length : null;
      }
      const reader = response.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.byteLength;
        hasher.update(value);
        onProgress(total ? received / total : null);
      }
      if (total !== null && received < total) throw new Error("cut short");
      if (hasher.hex() !== sha256) {
        chunks = [];
        received = 0;
        hasher = new StreamingSha256();
        throw new DeckDownloadError("damaged");
      }
      const out = new Uint8Array(received);
      let offset = 0;
      for (const chunk of chunks) {
        out.set(chunk, offset);
        offset += chunk.byteLength;
      }
      return out.buffer;
    } catch (error) {
      if (error instanceof DeckDownloadError && (error.kind === "gone" || (error.kind === "damaged" && ++damaged >= MAX_DAMAGED))) throw error;
      if (attempt + 1 >= MAX_TRIES) throw error instanceof DeckDownloadError ? error : new DeckDownloadError("network");
      await new Promise((resolve) => setTimeout(resolve, backoffDelay(attempt)));
    }
  }
}
