/**
 * @module client/lib/thumbnail
 * First-page thumbnails for the library: rendered once by the render worker at a small
 * width, encoded to a few KB of WebP (PNG where the browser cannot encode WebP), and kept
 * in IndexedDB beside the deck, so a visit to the library renders nothing it rendered before.
 */
import type { DeckStore, ThumbnailRecord } from "../storage/deck-store.ts";
import type { Renderer } from "./renderer.ts";

/** Pixel width of a stored thumbnail: sharp on a ~240 px card at 1×, light to store. */
export const THUMBNAIL_WIDTH = 320;

/** Whether a deck still needs a thumbnail rendered (none yet, empty, or another size). */
export function needsThumbnail(record: ThumbnailRecord | undefined, width = THUMBNAIL_WIDTH): boolean {
  if (!record) return true;
  if (!(record.image instanceof Blob) || record.image.size === 0) return true;
  // The renderer rounds the page box, so a 320 px request may come back 319 or 321 wide.
  return Math.abs(record.width - width) > 2;
}

/** Encode a rendered page as a small image file. */
export async function encodeThumbnail(image: ImageData): Promise<Blob> {
  if (typeof OffscreenCanvas !== "undefined") {
    const canvas = new OffscreenCanvas(image.width, image.height);
    const ctx = canvas.getContext("2d", { alpha: false });
    if (ctx) {
      ctx.putImageData(image, 0, 0);
      return canvas.convertToBlob({ type: "image/webp", quality: 0.85 });
    }
  }
  const canvas = document.createElement("canvas");
  canvas.width = image.width;
  canvas.height = image.height;
  canvas.getContext("2d", { alpha: false })?.putImageData(image, 0, 0);
  return new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("The thumbnail could not be encoded."))), "image/webp", 0.85),
  );
}

/**
 * Render page 1 of the deck the renderer has open and store it as the thumbnail of `deckId`.
 * Returns the stored record, or null when the deck was deleted meanwhile.
 */
export async function storeThumbnail(renderer: Renderer, store: DeckStore, deckId: string): Promise<ThumbnailRecord | null> {
  const result = await renderer.renderOnce(1, THUMBNAIL_WIDTH, 100);
  const size = { width: result.image.width, height: result.image.height };
  const image = await encodeThumbnail(result.image);
  if (!(await store.putThumbnail(deckId, image, size))) return null;
  return (await store.getThumbnail(deckId)) ?? null;
}
