/**
 * @module deck/sidecar/video-ids
 * YouTube and Vimeo video ids from an id or any of the URL shapes people paste. Browser-safe.
 */

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^\d{1,12}$/;

function parseUrl(value: string): URL | null {
  try {
    return new URL(value.includes("://") ? value : `https://${value}`);
  } catch {
    return null;
  }
}

/** `dQw4w9WgXcQ`, youtu.be/ID, youtube.com/watch?v=ID, /embed/ID, /shorts/ID, /live/ID, /v/ID. */
export function youtubeId(value: string): string | null {
  const text = value.trim();
  if (YOUTUBE_ID.test(text)) return text;
  const url = parseUrl(text);
  if (!url) return null;
  const host = url.hostname.toLowerCase().replace(/^(www\.|m\.|music\.)/, "");
  let candidate: string | null = null;
  if (host === "youtu.be") candidate = url.pathname.split("/")[1] ?? null;
  else if (host === "youtube.com" || host === "youtube-nocookie.com") {
    const parts = url.pathname.split("/").filter(Boolean);
    if (parts[0] === "watch") candidate = url.searchParams.get("v");
    else if (parts[0] && ["embed", "shorts", "live", "v", "e"].includes(parts[0])) candidate = parts[1] ?? null;
  }
  return candidate && YOUTUBE_ID.test(candidate) ? candidate : null;
}

/** `76979871`, vimeo.com/ID, vimeo.com/channels/x/ID, player.vimeo.com/video/ID. */
export function vimeoId(value: string): string | null {
  const text = value.trim();
  if (VIMEO_ID.test(text)) return text;
  const url = parseUrl(text);
  if (!url) return null;
  const host = url.hostname.toLowerCase().replace(/^www\./, "");
  if (host !== "vimeo.com" && host !== "player.vimeo.com") return null;
  const parts = url.pathname.split("/").filter(Boolean);
  // The id is the last all-digit segment that is not followed by another id-like segment
  // except an unlisted-video hash (vimeo.com/ID/HASH).
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i] as string;
    if (VIMEO_ID.test(part)) return part;
  }
  return null;
}

/** Which service a URL points at, if any. */
export function videoService(value: string): "youtube" | "vimeo" | null {
  const url = parseUrl(value.trim());
  if (!url) return null;
  const host = url.hostname.toLowerCase();
  if (/(^|\.)(youtube\.com|youtube-nocookie\.com|youtu\.be)$/.test(host)) return "youtube";
  if (/(^|\.)vimeo\.com$/.test(host)) return "vimeo";
  return null;
}

export function youtubeWatchUrl(id: string): string {
  return `https://www.youtube.com/watch?v=${id}`;
}

export function vimeoWatchUrl(id: string): string {
  return `https://vimeo.com/${id}`;
}
