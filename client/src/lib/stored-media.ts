/**
 * @module client/lib/stored-media
 * How a page that shows a stored deck reaches its media: the copy kept in this browser first
 * (URL media fetched for offline playing), the network when online. The audience window and
 * the recording player share it.
 */
import type { DeckStore } from "../storage/deck-store.ts";
import type { MediaContext } from "./media.ts";
import type { Renderer } from "./renderer.ts";

/** A media context for a deck's stored media; the renderer is set once the page opened the deck. */
export function storedMediaContext(role: MediaContext["role"], store: () => DeckStore, deckId: () => string): MediaContext {
  return {
    renderer: null as unknown as Renderer,
    role,
    blobUrls: new Map(),
    storedMedium: async (url) => {
      const record = await store().getMediaFile(deckId(), url);
      return record ? { data: record.data, mime: record.mime } : undefined;
    },
    online: () => navigator.onLine,
  };
}
