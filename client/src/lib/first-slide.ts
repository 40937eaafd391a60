/**
 * @module client/lib/first-slide
 * The first slide, handed from the claim to the presenter. The start page's probe worker has
 * mupdf compiled and the deck open anyway (it measures the layout), so it also renders the
 * first slide at the window's full size while the deck is being stored. The picture rides to
 * the presenter in this tab's sessionStorage (never to a server) with what its frame and
 * counter need (page size, labels, title), so the presenter paints it as soon as its script
 * runs, before its storage has opened — a new page would otherwise wait for its own mupdf to
 * compile (~200–350 ms) before any slide. The presenter's own render replaces it as soon as
 * it comes; a picture smaller than the slide's device pixels is never shown (it would blur).
 * Only slide 1, and only for a deck the presenter will open at slide 1 (the claim checks).
 */
import { devicePixelRatioCapped, fitBox } from "./fit.ts";

const KEY = "dh:first-slide";
/** A snapshot older than this belongs to another claim in this tab, not to the page opening now. */
const MAX_AGE_MS = 60_000;
/** Past this, sessionStorage may refuse it anyway (~5 MB); a picture-heavy slide simply goes without. */
const MAX_CHARS = 3_000_000;

/** What the presenter's first frame needs besides the picture: the deck record's layout and title. */
export interface FirstSlideMeta {
  pageSize: { w: number; h: number };
  labels: string[];
  title: string;
}

export interface FirstSlide extends FirstSlideMeta {
  page: number;
  /** The picture, decoded (drawn as is: no ImageBitmap made of it). */
  image: HTMLImageElement;
}

/**
 * Pixels a picture may have at most (a 4K screen's): a 2560×1440 window at 2× would ask for
 * 15 Mpx, seconds of encoding for a frame that takes two thirds of it at most.
 */
const MAX_PIXELS = 3840 * 2160;

/**
 * Device pixels to render a page at so that it covers any slide frame of this window, up to
 * MAX_PIXELS (a frame larger than the picture then waits for the presenter's own render).
 */
export function snapshotWidth(page: { w: number; h: number }, viewport = { w: innerWidth, h: innerHeight }, dpr = devicePixelRatioCapped()): number {
  const covering = fitBox(viewport.w, viewport.h, page.w, page.h).w * dpr;
  const capped = Math.sqrt((MAX_PIXELS * page.w) / page.h);
  return Math.round(Math.min(covering, capped));
}

function dataUrl(blob: Blob): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

/**
 * Keep `picture` (a PNG: lossless, the slide's own pixels) as deck `deckId`'s first slide for
 * the presenter this tab opens next. False when it could not.
 */
export async function keepFirstSlide(deckId: string, picture: Blob, meta: FirstSlideMeta): Promise<boolean> {
  try {
    const png = await dataUrl(picture);
    if (png.length > MAX_CHARS) return false;
    sessionStorage.setItem(KEY, JSON.stringify({ deck: deckId, page: 1, at: Date.now(), ...meta, png }));
    return true;
  } catch {
    // Storage full or refused: the presenter renders its first slide itself.
    return false;
  }
}

interface Kept {
  deck?: unknown;
  page?: unknown;
  at?: unknown;
  png?: unknown;
  pageSize?: { w?: unknown; h?: unknown };
  labels?: unknown;
  title?: unknown;
}

function takeKept(): Kept | null {
  try {
    const text = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    const parsed: unknown = text ? JSON.parse(text) : null;
    return parsed && typeof parsed === "object" ? parsed : null;
  } catch {
    return null;
  }
}

/** The kept first slide of `deckId`, decoded, or null; taken once (removed whatever it held). */
export async function takeFirstSlide(deckId: string): Promise<FirstSlide | null> {
  const kept = takeKept();
  if (!kept || kept.deck !== deckId || typeof kept.page !== "number" || typeof kept.png !== "string") return null;
  if (typeof kept.at !== "number" || Math.abs(Date.now() - kept.at) > MAX_AGE_MS) return null;
  const { w, h } = kept.pageSize ?? {};
  if (typeof w !== "number" || typeof h !== "number" || !(w > 0 && h > 0)) return null;
  if (!Array.isArray(kept.labels) || !kept.labels.every((l) => typeof l === "string") || typeof kept.title !== "string") return null;
  if (!/^data:image\/png;base64,[A-Za-z0-9+/=]+$/.test(kept.png)) return null;
  try {
    // The data URL decoded by an image element: 110–150 ms from this page's script on a
    // loaded 2-core machine, where base64 → Blob → createImageBitmap took 250–330 ms (the
    // Blob goes through the browser process) and an ImageBitmap of the image 60 ms more.
    const image = new Image();
    image.src = kept.png;
    await image.decode();
    return { page: kept.page, image, pageSize: { w, h }, labels: kept.labels as string[], title: kept.title };
  } catch {
    return null;
  }
}
