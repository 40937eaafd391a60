/**
 * @module client/lib/media
 * Places a slide's media at their rectangles over the rendered page: video, GIF and audio
 * from the deck's attachments (blob: URLs, so they play offline), URL media (from the copy
 * stored for offline use, else from the network when it is there), YouTube/Vimeo as embeds
 * when online.
 *
 * What cannot play is said only to the presenter, as a small tag at the medium's corner
 * that leaves the slide readable, and says only what is known (a failed load cannot tell a
 * refusal from a dead network). The audience window shows nothing there — no outline, no
 * frame, no broken-image or broken-page icon: its copy of a medium stays out of sight until
 * it has a picture (an embed until its player has spoken: lib/embed-watch), and a failed one
 * leaves the box hidden, so the projector shows the slide itself (and the placeholder its
 * author printed on it), never an error.
 *
 * A movie of the PDF itself (Beamer's `\movie`: SlideMedia.movie) behaves as in pdfpc: its
 * poster is the page under it, so both copies stay out of sight until it first plays; a click
 * on it in the presenter plays or pauses it (never the next slide); one whose file the deck
 * does not carry gets the presenter's tag and leaves the poster on the projector.
 */
import type { SlideMedia } from "../../../src/deck/sidecar/types.ts";
import { h } from "./dom.ts";
import { watchEmbed, type EmbedOutcome } from "./embed-watch.ts";
import type { Renderer } from "./renderer.ts";

export type MediaRole = "presenter" | "audience";

/**
 * How long a medium may take to reach its first frame before it counts as failed. Some
 * engines (WebKit with GStreamer) never fire `error` for a file they cannot decode: without
 * this the presenter would watch a spinner forever. A stored copy is local, so a few
 * seconds is plenty; a network one gets longer.
 */
const STALL_MS = { stored: 6000, network: 20000 };

export interface MediaContext {
  renderer: Renderer;
  role: MediaRole;
  /** blob: URLs made so far, by attachment name or media URL. */
  blobUrls: Map<string, string>;
  /** The stored copy of a URL medium (fetched earlier for offline use), if any. */
  storedMedium(url: string): Promise<{ data: ArrayBuffer; mime: string } | undefined>;
  online(): boolean;
}

export function kindOf(media: SlideMedia): "video" | "audio" | "image" | "embed" {
  if (media.kind === "youtube" || media.kind === "vimeo") return "embed";
  const mime = media.mime ?? "";
  const name = (media.attachment ?? media.url ?? "").toLowerCase().replace(/[?#].*$/, "");
  if (mime.startsWith("image/") || /\.(gif|png|jpe?g|webp|avif|svg)$/.test(name)) return "image";
  if (mime.startsWith("audio/") || /\.(mp3|m4a|ogg|oga|opus|wav|flac)$/.test(name)) return "audio";
  return "video";
}

/**
 * The embed URL of a YouTube/Vimeo media, or null when no id is known. YouTube's carries
 * `enablejsapi=1` (and this page's origin), so its player answers lib/embed-watch.
 */
export function embedUrl(media: SlideMedia, pageOrigin?: string): string | null {
  const id = media.videoId;
  if (!id || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) return null;
  const flags = (media.autoplay ? "autoplay=1&mute=1&" : "") + (media.loop ? "loop=1&" : "");
  const api = `enablejsapi=1&${pageOrigin ? `origin=${encodeURIComponent(pageOrigin)}&` : ""}`;
  if (media.kind === "youtube") return `https://www.youtube-nocookie.com/embed/${id}?${flags}${media.loop ? `playlist=${id}&` : ""}${api}rel=0&playsinline=1`;
  if (media.kind === "vimeo") return `https://player.vimeo.com/video/${id}?${flags}${media.autoplay ? "muted=1&" : ""}dnt=1`;
  return null;
}

/** Only https media play from the network: the pages' CSP allows https: media and nothing wider. */
export function playableUrl(url: string | undefined): url is string {
  if (!url) return false;
  try {
    return new URL(url).protocol === "https:";
  } catch {
    return false;
  }
}

function blobOf(key: string, bytes: ArrayBuffer | Uint8Array, mime: string, ctx: MediaContext): string {
  const cached = ctx.blobUrls.get(key);
  if (cached) return cached;
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mime }));
  ctx.blobUrls.set(key, url);
  return url;
}

/** Where the medium's bytes come from, or why there are none (a sentence for the presenter). */
export async function sourceOf(media: SlideMedia, ctx: MediaContext): Promise<{ src: string; stored: boolean } | { problem: string }> {
  if (media.kind === "url") {
    const cached = ctx.blobUrls.get(media.url ?? "");
    if (cached) return { src: cached, stored: true };
    const stored = media.url ? await ctx.storedMedium(media.url).catch(() => undefined) : undefined;
    if (stored) return { src: blobOf(media.url!, stored.data, stored.mime || media.mime || "application/octet-stream", ctx), stored: true };
    if (!playableUrl(media.url)) return { problem: "Only https addresses play (the page's security policy); this medium stays off." };
    if (!ctx.online()) return { problem: "No copy is stored in this browser and the computer is offline: it plays when online." };
    return { src: media.url, stored: false };
  }
  if (media.movie && !media.movie.inDeck) return { problem: `It names “${media.movie.file}”, a file beside the PDF that the deck does not carry: it cannot play here. The audience sees the poster.` };
  if (!media.attachment) return { problem: "No attachment is named for this medium." };
  const cached = ctx.blobUrls.get(media.attachment);
  if (cached) return { src: cached, stored: true };
  const bytes = await ctx.renderer.attachment(media.attachment).catch(() => null);
  if (!bytes) return { problem: `The attachment ${media.attachment} is not in the PDF.` };
  return { src: blobOf(media.attachment, bytes, media.mime ?? "application/octet-stream", ctx), stored: true };
}

/** A presenter-only tag at the medium's corner; the slide underneath stays readable. */
export function mediaNote(title: string, detail: string): HTMLElement {
  return h("div", { class: "media-note", role: "note" }, h("strong", {}, title), " ", h("span", {}, detail));
}

function labelOf(media: SlideMedia, kind: string): string {
  if (media.movie) return "Movie";
  if (media.kind === "youtube") return "YouTube video";
  if (media.kind === "vimeo") return "Vimeo video";
  return kind === "image" ? "Image" : kind === "audio" ? "Audio" : "Video";
}

/** Position `el` over the page: rect in points from the top-left, page size in points. */
export function place(el: HTMLElement, media: SlideMedia, page: { w: number; h: number }): void {
  el.style.left = `${(media.rect.x / page.w) * 100}%`;
  el.style.top = `${(media.rect.y / page.h) * 100}%`;
  el.style.width = `${(media.rect.w / page.w) * 100}%`;
  el.style.height = `${(media.rect.h / page.h) * 100}%`;
}

export interface MountedMedia {
  media: SlideMedia;
  /** The box placed over the page (holding the element, and the presenter's tag). */
  box: HTMLElement;
  /** The playing element, or null when nothing can play. */
  element: HTMLElement | null;
  /** What the presenter is told if the element cannot play: it depends on where it loads from. */
  why?: string;
}

/** Why a stored medium cannot play. */
const DAMAGED = "Its file is damaged or in a format this browser cannot play.";

/** The host a URL medium comes from, as the presenter's tag names it. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** What is known when a network medium fails: loading it failed; whether refused, unreachable or undecodable is not. */
function networkFailure(url: string): string {
  return `Loading it from ${hostOf(url)} failed (no answer, a refusal, or a file this browser cannot play), and no copy is stored in this browser.`;
}

/** What is known when an embed fails: its player never spoke, or it reported an error. */
function embedFailure(media: SlideMedia, src: string, outcome: EmbedOutcome): string {
  if (outcome.ok) return "";
  if (outcome.why === "player-error") return `Its player reported an error${outcome.code !== undefined ? ` (${outcome.code})` : ""}: the video may be private, removed, or not allowed in embeds.`;
  return `Its player did not load from ${hostOf(src)}. The audience sees the slide.`;
}

/**
 * The audience's copy of a medium that has nothing to show: the box is emptied and hidden, so
 * nothing of it (no outline, no frame) is drawn over the slide.
 */
function silence(box: HTMLElement): void {
  box.replaceChildren();
  box.hidden = true;
}

/**
 * Show a playback failure: a tag for the presenter with what is known (a stored file that does
 * not decode, a network medium that did not load), nothing (the slide) for the audience.
 */
export function failMedium(mounted: MountedMedia, role: MediaRole): void {
  mounted.element?.remove();
  mounted.element = null;
  mounted.box.dataset.state = "failed";
  if (role === "presenter") mounted.box.replaceChildren(mediaNote(`${labelOf(mounted.media, kindOf(mounted.media))} cannot play.`, mounted.why ?? DAMAGED));
  else silence(mounted.box);
}

/**
 * The audience's copy shows nothing until it has a picture: a medium that never loads never
 * shows an empty frame or a broken-image icon there, only the slide. An image is hidden until
 * it loads; a video is never hidden (engines may hold back playing an invisible video), only
 * its black backdrop waits for the first frame — a video without one paints nothing else.
 */
function showOnceLoaded(el: HTMLElement): void {
  if (el instanceof HTMLImageElement) {
    el.style.visibility = "hidden";
    el.addEventListener("load", () => (el.style.visibility = ""), { once: true });
  } else if (el instanceof HTMLVideoElement) {
    el.style.background = "transparent";
    el.addEventListener("loadeddata", () => (el.style.background = ""), { once: true });
  }
}

function watchStall(entry: MountedMedia, role: MediaRole, stored: boolean) {
  const el = entry.element;
  if (!(el instanceof HTMLMediaElement || el instanceof HTMLImageElement)) return;
  setTimeout(() => {
    if (!entry.box.isConnected || entry.element !== el) return;
    const loaded = el instanceof HTMLMediaElement ? el.readyState >= 1 : el.complete && el.naturalWidth > 0;
    if (!loaded) failMedium(entry, role);
  }, stored ? STALL_MS.stored : STALL_MS.network);
}

/**
 * Loop a medium by hand: at its end, back to the start and on. Not with the `loop` attribute:
 * WebKitGTK loops with non-flushing SEGMENT seeks (one at every play() too), and such a seek
 * while the demuxer's thread waits on full queues — a copy paused or just unplaced — blocks
 * the page's main thread for good (gdb: matroskademux's seek in gst_pad_pause_task, its
 * streaming thread in gst_data_queue_push). A plain seek at `ended` costs a frame at the
 * loop point, in every engine, and never that.
 */
function loopByHand(el: HTMLMediaElement): void {
  el.dataset.loop = "true";
  el.addEventListener("ended", () => {
    el.currentTime = 0;
    void el.play().catch(() => {});
  });
}

/** Whether a medium loops (by hand: see loopByHand). */
export function loops(el: Pick<HTMLMediaElement, "dataset">): boolean {
  return el.dataset.loop === "true";
}

function element(media: SlideMedia, kind: "video" | "audio" | "image", src: string, role: MediaRole): HTMLElement {
  if (kind === "image") return h("img", { src, alt: "", decoding: "async" });
  const el = h(kind, { src, preload: "auto", playsinline: kind === "video" });
  if (media.loop) loopByHand(el);
  // The presenter's copy is silent (the sound is the audience's) and has controls to drive
  // playback (a movie of the PDF is driven by a click on it, as in pdfpc); the audience's copy
  // is a clean frame that follows.
  el.muted = role === "presenter";
  el.controls = role === "presenter" && !media.movie;
  return el;
}

/**
 * A movie of the PDF: out of sight until it first plays, so the poster drawn on the page shows
 * (opacity, not visibility: engines may hold back playing an invisible video); in the
 * presenter a click on it plays or pauses it, and a tag says so while it rests.
 */
function asMovie(entry: MountedMedia, el: HTMLMediaElement, role: MediaRole): void {
  const { box } = entry;
  box.dataset.movie = "poster";
  el.style.opacity = "0";
  el.addEventListener("playing", () => {
    el.style.opacity = "";
    box.dataset.movie = "played";
  });
  if (role !== "presenter") return;
  const hint = mediaNote("Movie", "Click to play.");
  hint.classList.add("movie-hint");
  box.append(hint);
  const rest = () => (hint.hidden = !el.paused);
  el.addEventListener("play", rest);
  el.addEventListener("pause", rest);
  el.addEventListener("ended", rest);
  box.addEventListener("click", () => {
    if (entry.element !== el) return;
    if (el.paused || el.ended) void el.play().catch(() => {});
    else el.pause();
  });
}

/** Build and place the media of one slide. Nothing stale is placed if the slide changed meanwhile. */
export async function mountMedia(
  layer: HTMLElement,
  items: SlideMedia[],
  page: { w: number; h: number },
  ctx: MediaContext,
  isCurrent: () => boolean = () => true,
): Promise<MountedMedia[]> {
  const mounted: MountedMedia[] = [];
  for (const media of items) {
    const kind = kindOf(media);
    const box = h("div", { class: "media-item", "data-media": media.id, "data-kind": kind, "data-movie": media.movie ? "missing" : null });
    place(box, media, page);
    const entry: MountedMedia = { media, box, element: null };
    mounted.push(entry);
    if (kind === "embed") {
      const src = embedUrl(media, location.origin);
      if (src && ctx.online()) {
        const frame = h("iframe", { src, title: labelOf(media, kind), allow: "autoplay; fullscreen; picture-in-picture", allowfullscreen: true, referrerpolicy: "strict-origin-when-cross-origin" });
        // Out of sight (in both windows) until its player speaks: a frame that cannot load
        // shows the browser's error page, which must never reach the projector.
        frame.style.visibility = "hidden";
        box.dataset.embed = "waiting";
        entry.element = frame;
        // Meanwhile the presenter knows it is on its way (a blocked network may take LOAD_MS to tell).
        const waiting = ctx.role === "presenter" ? mediaNote(labelOf(media, kind), `Waiting for its player to load from ${hostOf(src)}…`) : null;
        if (waiting) waiting.style.position = "absolute";
        watchEmbed(frame, media.kind as "youtube" | "vimeo", (outcome) => {
          if (outcome.ok) {
            frame.style.visibility = "";
            box.dataset.embed = "playing";
            waiting?.remove();
            return;
          }
          box.dataset.embed = "failed";
          entry.why = embedFailure(media, src, outcome);
          failMedium(entry, ctx.role);
        });
        box.append(frame);
        if (waiting) box.append(waiting);
      } else {
        box.dataset.state = "unavailable";
        if (ctx.role === "presenter") box.append(mediaNote(labelOf(media, kind), src ? "Needs a network: it plays when the computer is online." : "The video id is missing."));
        else silence(box);
      }
      continue;
    }
    const source = await sourceOf(media, ctx);
    if ("problem" in source) {
      box.dataset.state = "unavailable";
      if (ctx.role === "presenter") box.append(mediaNote(labelOf(media, kind), source.problem));
      else silence(box);
      continue;
    }
    box.dataset.source = source.stored ? "stored" : "network";
    entry.element = element(media, kind, source.src, ctx.role);
    entry.why = source.stored ? DAMAGED : networkFailure(source.src);
    if (ctx.role === "audience") showOnceLoaded(entry.element);
    entry.element.addEventListener("error", () => failMedium(entry, ctx.role), { once: true });
    box.append(entry.element);
    if (media.movie && entry.element instanceof HTMLMediaElement) asMovie(entry, entry.element, ctx.role);
    watchStall(entry, ctx.role, source.stored);
  }
  if (!isCurrent()) return [];
  layer.replaceChildren(...mounted.map((m) => m.box));
  return mounted;
}
