/**
 * @module client/lib/url-media
 * URL media (`kind: "url"` sidecars) are fetched once while online and kept with the deck,
 * so the talk plays them offline too. Only where the medium's server allows it: a page may
 * read another origin's bytes only with CORS, and a medium that refuses keeps playing from
 * the network while there is one (the presenter is told what is known; the audience never
 * sees a message).
 */
import type { SlideMedia } from "../../../src/deck/sidecar/types.ts";
import type { DeckStore } from "../storage/deck-store.ts";
import { playableUrl } from "./media.ts";

/** Largest medium kept: a talk's clips, not a film; past this it plays from the network only. */
const MAX_BYTES = 256 * 1024 * 1024;

export type StoreOutcome = "stored" | "already" | "refused" | "too-large" | "failed";

async function fetchOne(url: string): Promise<{ data: ArrayBuffer; mime: string } | "refused" | "too-large" | "failed"> {
  let response: Response;
  try {
    // No credentials and no referrer: the medium's server learns nothing about the deck.
    response = await fetch(url, { mode: "cors", credentials: "omit", referrerPolicy: "no-referrer", cache: "no-store" });
  } catch {
    // A CORS refusal and a dead network look the same from here.
    return "refused";
  }
  if (!response.ok) return "failed";
  const length = Number(response.headers.get("content-length"));
  if (Number.isFinite(length) && length > MAX_BYTES) {
    await response.body?.cancel();
    return "too-large";
  }
  const data = await response.arrayBuffer().catch(() => null);
  if (!data) return "failed";
  if (data.byteLength > MAX_BYTES) return "too-large";
  return { data, mime: response.headers.get("content-type")?.split(";")[0]?.trim() ?? "" };
}

/** Fetch and keep every https URL medium of a deck not stored yet; one URL at a time. */
export async function storeUrlMedia(deckId: string, media: readonly SlideMedia[], store: DeckStore): Promise<Map<string, StoreOutcome>> {
  const outcomes = new Map<string, StoreOutcome>();
  const have = new Set(await store.listMediaUrls(deckId).catch(() => []));
  for (const m of media) {
    if (m.kind !== "url" || !playableUrl(m.url) || outcomes.has(m.url)) continue;
    if (have.has(m.url)) {
      outcomes.set(m.url, "already");
      continue;
    }
    const got = await fetchOne(m.url);
    if (typeof got === "string") outcomes.set(m.url, got);
    else outcomes.set(m.url, (await store.putMediaFile(deckId, m.url, got.data, got.mime || m.mime || "").catch(() => false)) ? "stored" : "failed");
  }
  return outcomes;
}

/**
 * What the presenter is told about URL media that could not be kept, or null when all were.
 * Only what is known: a fetch that fails cannot tell a server that does not let pages copy its
 * files (CORS) from one that did not answer.
 */
export function offlineCopyNotice(outcomes: Map<string, StoreOutcome>): string | null {
  const count = (o: StoreOutcome) => [...outcomes.values()].filter((v) => v === o).length;
  const parts: string[] = [];
  const refused = count("refused");
  const failed = count("failed");
  const large = count("too-large");
  if (refused) parts.push(`${refused} could not be fetched (the server did not answer, or does not let pages copy its files)`);
  if (failed) parts.push(`${failed} ${failed === 1 ? "was" : "were"} answered with an error or could not be written to this browser's storage`);
  if (large) parts.push(`${large} ${large === 1 ? "is" : "are"} larger than ${MAX_BYTES / 1024 / 1024} MB`);
  if (!parts.length) return null;
  const total = refused + failed + large;
  return `${total} URL medi${total === 1 ? "um" : "a"} of this deck ${total === 1 ? "is" : "are"} not kept for offline use and will play only while online: ${parts.join("; ")}.`;
}
