/**
 * @module deck/sidecar/media
 * `media-slide-{N}-{id}.json`: `{ kind?, slide, id, mime, x_pt, y_pt, w_pt, h_pt, autoplay?,
 * loop?, filename?, url?, video_id? }`, the rectangle in PDF points from the page's top-left.
 * Browser-safe.
 */
import type { MediaKind, MediaRect, SlideMedia } from "./types.ts";
import { finding, type Finding } from "./findings.ts";
import { describeType, isPlainObject, parseJsonBytes, parseSlideField } from "./json-text.ts";
import { MEDIA_FILE_EXTENSIONS } from "./names.ts";
import { normalizeMime } from "./sniff.ts";
import { videoService, vimeoId, vimeoWatchUrl, youtubeId, youtubeWatchUrl } from "./video-ids.ts";

export interface MediaSidecarResult {
  /** The media as the presenter places it, or null when the sidecar is unusable. */
  media: SlideMedia | null;
  issues: Finding[];
}

const KNOWN_FIELDS = new Set(["kind", "slide", "id", "mime", "x_pt", "y_pt", "w_pt", "h_pt", "autoplay", "loop", "filename", "url", "video_id", "$schema"]);
const KINDS: readonly MediaKind[] = ["file", "url", "youtube", "vimeo"];

export function parseMediaSidecar(bytes: Uint8Array, where: { attachment: string; slide: number; id: string }): MediaSidecarResult {
  const parsed = parseJsonBytes(bytes, where.attachment, where.slide);
  if (!parsed.ok) return { media: null, issues: [parsed.issue] };
  return readMediaSidecar(parsed.value, where);
}

export function readMediaSidecar(value: unknown, where: { attachment: string; slide: number; id: string }): MediaSidecarResult {
  const { attachment, slide } = where;
  const at = { attachment, slide };
  const issues: Finding[] = [];
  const error = (code: Parameters<typeof finding>[0], message: string) => issues.push(finding(code, `${attachment}: ${message}`, at));
  if (!isPlainObject(value)) {
    issues.push(finding("INVALID_FIELD", `${attachment} is ${describeType(value)}; a media sidecar is a JSON object.`, at));
    return { media: null, issues };
  }
  for (const key of Object.keys(value)) {
    if (!KNOWN_FIELDS.has(key)) error("UNKNOWN_FIELD", `the field "${key.slice(0, 60)}" is not part of a media sidecar and is ignored.`);
  }

  // kind: explicit, or inferred from the fields that are present.
  let kind: MediaKind;
  if ("kind" in value) {
    if (typeof value.kind !== "string" || !KINDS.includes(value.kind as MediaKind)) {
      error("INVALID_FIELD", `"kind" is ${JSON.stringify(value.kind)?.slice(0, 40)}; use "file", "url", "youtube" or "vimeo".`);
      return { media: null, issues };
    }
    kind = value.kind as MediaKind;
  } else if (typeof value.filename === "string") kind = "file";
  else if (typeof value.url === "string") kind = videoService(value.url) ?? "url";
  else kind = "file";

  let usable = true;
  const required = (name: string) => {
    if (!(name in value)) {
      error("MISSING_FIELD", `the required field "${name}" is missing.`);
      usable = false;
      return false;
    }
    return true;
  };

  if (required("slide")) {
    const declared = parseSlideField(value.slide);
    if (declared === null) {
      error("INVALID_FIELD", `"slide" is ${describeType(value.slide)}; write the slide number, e.g. "slide": ${slide}.`);
      usable = false;
    } else if (declared !== slide) {
      error("SLIDE_MISMATCH", `"slide" is ${declared} but the filename names slide ${slide}; make them agree.`);
      usable = false;
    }
  }
  if (required("id")) {
    if (typeof value.id !== "string" || value.id === "") {
      error("INVALID_FIELD", `"id" must be a non-empty string (the {id} of the filename, "${where.id}").`);
      usable = false;
    } else if (value.id !== where.id) {
      issues.push(finding("MEDIA_ID_MISMATCH", `${attachment}: "id" is "${value.id.slice(0, 60)}" but the filename's id is "${where.id}"; make them agree.`, at));
      usable = false;
    }
  }

  let mime: string | null = null;
  const mimeRequired = kind === "file" || kind === "url";
  if (mimeRequired ? required("mime") : "mime" in value) {
    if (typeof value.mime !== "string" || !/^[a-z0-9.+-]+\/[a-z0-9.+-]+(\s*;.*)?$/i.test(value.mime)) {
      error("INVALID_FIELD", `"mime" must be a MIME type such as "video/mp4" or "image/gif".`);
      usable = false;
    } else mime = normalizeMime(value.mime);
  }

  const numbers: Record<string, number> = {};
  for (const name of ["x_pt", "y_pt", "w_pt", "h_pt"]) {
    if (!required(name)) continue;
    const n = value[name];
    if (typeof n !== "number" || !Number.isFinite(n)) {
      error("INVALID_FIELD", `"${name}" is ${describeType(n)}; it must be a number of PDF points.`);
      usable = false;
    } else numbers[name] = n;
  }
  const rect: MediaRect | null =
    numbers.x_pt !== undefined && numbers.y_pt !== undefined && numbers.w_pt !== undefined && numbers.h_pt !== undefined
      ? { x: numbers.x_pt, y: numbers.y_pt, w: numbers.w_pt, h: numbers.h_pt }
      : null;
  if (rect && (rect.w <= 0 || rect.h <= 0)) {
    issues.push(finding("MEDIA_RECT_INVALID", `${attachment}: the rectangle is ${rect.w}×${rect.h} pt; "w_pt" and "h_pt" must be greater than 0.`, at));
    usable = false;
  }

  const flag = (name: "autoplay" | "loop") => {
    if (!(name in value)) return true;
    if (typeof value[name] === "boolean") return value[name] as boolean;
    error("INVALID_FIELD", `"${name}" must be true or false.`);
    return true;
  };
  const autoplay = flag("autoplay");
  const loop = flag("loop");

  const media: SlideMedia = { id: where.id, kind, slide, rect: rect ?? { x: 0, y: 0, w: 0, h: 0 }, mime, autoplay, loop, source: "media-sidecar", sidecar: attachment };

  if (kind === "file") {
    if ("filename" in value) {
      if (typeof value.filename !== "string" || value.filename === "") {
        error("INVALID_FIELD", `"filename" must name the binary attachment, e.g. "media-${where.id}.mp4".`);
        usable = false;
      } else {
        media.attachment = value.filename;
        const pattern = new RegExp(`^(?:.*[/\\\\])?media-${escapeRegExp(where.id)}\\.(${MEDIA_FILE_EXTENSIONS.join("|")})$`, "i");
        if (!pattern.test(value.filename)) {
          issues.push(finding("MEDIA_FILENAME_PATTERN", `${attachment}: "filename" is "${value.filename.slice(0, 80)}"; name the binary media-${where.id}.gif, .mp4 or .webm.`, at));
        }
      }
    }
  } else if (kind === "url") {
    if (required("url")) {
      const url = checkUrl(value.url, attachment, at, issues);
      if (url) media.url = url;
      else usable = false;
    }
  } else {
    // youtube / vimeo: the id comes from video_id, else from url.
    const source = typeof value.video_id === "string" ? value.video_id : typeof value.url === "string" ? value.url : null;
    if (source === null) {
      if ("video_id" in value || "url" in value) error("INVALID_FIELD", `"video_id" and "url" must be strings.`);
      else error("MISSING_FIELD", `a ${kind} media needs "video_id" (or a "url" to the video).`);
      usable = false;
    } else {
      if (typeof value.url === "string" && !checkUrl(value.url, attachment, at, issues)) usable = false;
      const id = kind === "youtube" ? youtubeId(source) : vimeoId(source);
      if (!id) {
        issues.push(finding("VIDEO_ID_UNRECOGNIZED", `${attachment}: no ${kind === "youtube" ? "YouTube" : "Vimeo"} video id can be read from "${source.slice(0, 80)}"; give "video_id" (e.g. ${kind === "youtube" ? '"dQw4w9WgXcQ"' : '"76979871"'}).`, at));
        usable = false;
      } else {
        media.videoId = id;
        media.url = kind === "youtube" ? youtubeWatchUrl(id) : vimeoWatchUrl(id);
      }
    }
  }
  return { media: usable ? media : null, issues };
}

/** A media URL must be absolute http(s): other schemes (javascript:, file:, data:) never load. */
export function checkUrl(value: unknown, attachment: string, at: { attachment: string; slide: number }, issues: Finding[]): string | null {
  if (typeof value !== "string") {
    issues.push(finding("INVALID_FIELD", `${attachment}: "url" is ${describeType(value)}; it must be an https:// address.`, at));
    return null;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    issues.push(finding("URL_INVALID", `${attachment}: "url" is not a valid absolute URL ("${value.slice(0, 80)}"); write it as https://…`, at));
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    issues.push(finding("URL_SCHEME_NOT_ALLOWED", `${attachment}: "url" uses the scheme "${url.protocol.slice(0, 20)}"; only http and https addresses are shown.`, at));
    return null;
  }
  return url.href;
}

/** Where a rectangle lies against the page box (both in points from the top-left). */
export function checkMediaRect(rect: MediaRect, page: { width: number; height: number }, where: { attachment: string; slide: number }): Finding | null {
  const { x, y, w, h } = rect;
  const inside = x >= -0.5 && y >= -0.5 && x + w <= page.width + 0.5 && y + h <= page.height + 0.5; // half a point of rounding slack
  if (inside) return null;
  const describe = `(${round(x)}, ${round(y)}, ${round(w)}×${round(h)} pt)`;
  const box = `${round(page.width)}×${round(page.height)} pt`;
  if (x >= page.width || y >= page.height || x + w <= 0 || y + h <= 0) {
    return finding("MEDIA_RECT_OUTSIDE_PAGE", `${where.attachment}: the media rectangle ${describe} lies outside slide ${where.slide}, a ${box} page; measure x_pt/y_pt from the page's top-left corner.`, where);
  }
  return finding("MEDIA_RECT_CLIPPED", `${where.attachment}: the media rectangle ${describe} extends past slide ${where.slide}, a ${box} page; the overflow is cut off.`, where);
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
