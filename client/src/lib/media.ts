/**
 * @module client/lib/media
 * Places a slide's media at their rectangles over the rendered page: video, GIF and audio
 * from the deck's attachments (blob: URLs, so they play offline), YouTube/Vimeo as embeds
 * when online and a clear placeholder when not.
 */
import type { SlideMedia } from "../../../src/deck/sidecar/types.ts";
import { h } from "./dom.ts";
import type { Renderer } from "./renderer.ts";

export interface MediaContext {
  renderer: Renderer;
  /** Presenter windows mute video: the sound belongs to the audience window. */
  muted: boolean;
  blobUrls: Map<string, string>;
}

export function kindOf(media: SlideMedia): "video" | "audio" | "image" | "embed" | "link" {
  if (media.kind === "youtube" || media.kind === "vimeo") return "embed";
  const mime = media.mime ?? "";
  const name = (media.attachment ?? media.url ?? "").toLowerCase();
  if (mime.startsWith("image/") || name.endsWith(".gif")) return "image";
  if (mime.startsWith("audio/") || /\.(mp3|m4a|ogg|oga|wav|flac)$/.test(name)) return "audio";
  if (media.kind === "url") return "link";
  return "video";
}

/** The embed URL of a YouTube/Vimeo media, or null when no id is known. */
export function embedUrl(media: SlideMedia): string | null {
  const id = media.videoId;
  if (!id || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) return null;
  const flags = (media.autoplay ? "autoplay=1&mute=1&" : "") + (media.loop ? "loop=1&" : "");
  if (media.kind === "youtube") return `https://www.youtube-nocookie.com/embed/${id}?${flags}${media.loop ? `playlist=${id}&` : ""}rel=0&playsinline=1`;
  if (media.kind === "vimeo") return `https://player.vimeo.com/video/${id}?${flags}${media.autoplay ? "muted=1&" : ""}dnt=1`;
  return null;
}

async function blobUrl(media: SlideMedia, ctx: MediaContext): Promise<string | null> {
  if (!media.attachment) return null;
  const cached = ctx.blobUrls.get(media.attachment);
  if (cached) return cached;
  const bytes = await ctx.renderer.attachment(media.attachment).catch(() => null);
  if (!bytes) return null;
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: media.mime ?? "application/octet-stream" }));
  ctx.blobUrls.set(media.attachment, url);
  return url;
}

function placeholder(text: string, detail?: string): HTMLElement {
  return h("div", { class: "media-placeholder", role: "note" }, h("strong", {}, text), detail ? h("span", {}, detail) : null);
}

/** Position `el` over the page: rect in points from the top-left, page size in points. */
export function place(el: HTMLElement, media: SlideMedia, page: { w: number; h: number }): void {
  el.style.left = `${(media.rect.x / page.w) * 100}%`;
  el.style.top = `${(media.rect.y / page.h) * 100}%`;
  el.style.width = `${(media.rect.w / page.w) * 100}%`;
  el.style.height = `${(media.rect.h / page.h) * 100}%`;
}

/** Build and place the media of one slide; returns the elements keyed by media id. */
export async function mountMedia(
  layer: HTMLElement,
  items: SlideMedia[],
  page: { w: number; h: number },
  ctx: MediaContext,
  isCurrent: () => boolean = () => true,
): Promise<Map<string, HTMLElement>> {
  const mounted = new Map<string, HTMLElement>();
  const autoplay: HTMLVideoElement[] = [];
  for (const media of items) {
    const kind = kindOf(media);
    let el: HTMLElement;
    if (kind === "embed") {
      const src = embedUrl(media);
      const label = media.kind === "youtube" ? "YouTube video" : "Vimeo video";
      if (!src) el = placeholder(label, "The video id is missing.");
      else if (!navigator.onLine) el = placeholder(`${label} — needs a network`, "This embedded video plays when the computer is online.");
      else el = h("iframe", { src, title: label, allow: "autoplay; fullscreen; picture-in-picture", allowfullscreen: true, referrerpolicy: "strict-origin-when-cross-origin" });
    } else if (kind === "link") {
      el = placeholder("External media", media.url ? `Opens outside the deck: ${media.url}` : undefined);
    } else {
      const url = await blobUrl(media, ctx);
      if (!url) el = placeholder("Media missing", `The attachment ${media.attachment ?? ""} is not in the PDF.`);
      else if (kind === "image") el = h("img", { src: url, alt: "" });
      else if (kind === "audio") {
        const audio = h("audio", { src: url, controls: true, preload: "auto" });
        audio.loop = media.loop;
        audio.autoplay = media.autoplay && !ctx.muted;
        el = audio;
      } else {
        const video = h("video", { src: url, playsinline: true, preload: "auto" });
        video.muted = ctx.muted;
        video.loop = media.loop;
        video.controls = ctx.muted; // the presenter drives playback; the audience sees a clean frame
        if (media.autoplay) autoplay.push(video);
        el = video;
      }
    }
    el.classList.add("media-item");
    el.dataset.media = media.id;
    el.dataset.kind = kind;
    place(el, media, page);
    mounted.set(media.id, el);
  }
  // The slide changed while attachments were read: show nothing stale.
  if (!isCurrent()) return new Map();
  layer.replaceChildren(...mounted.values());
  for (const video of autoplay) {
    void video.play().catch(() => {
      // Autoplay with sound was refused: play muted rather than not at all.
      video.muted = true;
      void video.play().catch(() => {});
    });
  }
  return mounted;
}
