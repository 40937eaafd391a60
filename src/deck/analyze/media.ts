/**
 * @module deck/analyze/media
 * Phases 3 and 4: link each kind:"file" media sidecar to its binary (and check the binary's
 * bytes), then place what is left — media attached to a page, binaries no sidecar links to,
 * files that follow no convention — each with its finding.
 */
import { finding, quoteName } from "../sidecar/findings.ts";
import { checkMediaRect } from "../sidecar/media.ts";
import { baseName, MEDIA_FILE_EXTENSIONS } from "../sidecar/names.ts";
import { EXTENSION_MIME, isMediaMime, mimeAgrees, PLAYABLE_MIMES, UNPLAYABLE_CONTAINERS } from "../sidecar/sniff.ts";
import type { MediaRect, SlideMedia } from "../sidecar/types.ts";
import { validityOf } from "../report-types.ts";
import type { Entry } from "./entries.ts";
import { mediaData, place as placeIn, type Placement } from "./state.ts";

/** Phase 3: kind:"file" media sidecars → their binaries. */
export function linkSidecarMedia(state: Placement): void {
  const { unique, byBase, sidecarMedia, referenced, shownMedia } = state;
  const place = (entry: Entry, slide: number | null) => placeIn(state, entry, slide);
  // kind:"file" media sidecars → their binaries.
  const uniqueByName = (name: string): Entry | undefined => unique.find((e) => e.found.name === name) ?? byBase.get(baseName(name));
  for (const { entry, media } of sidecarMedia) {
    const base = entry.found.baseName;
    const at = { attachment: base, slide: media.slide };
    if (media.kind !== "file") {
      if (validityOf(entry.issues) !== "invalid") shownMedia.push(media);
      continue;
    }
    const binary = media.attachment
      ? uniqueByName(media.attachment)
      : MEDIA_FILE_EXTENSIONS.map((ext) => byBase.get(`media-${media.id}.${ext}`)).find((e) => e !== undefined);
    if (!binary || binary === entry) {
      const wanted = media.attachment ? quoteName(media.attachment) : `media-${media.id}.gif, .mp4 or .webm`;
      entry.issues.push(finding("MEDIA_FILE_MISSING", `${quoteName(base)} needs the binary attachment ${wanted}, which is not in the PDF; attach it.`, at));
      continue;
    }
    referenced.add(binary);
    media.attachment = binary.found.baseName;
    if (binary.kind === "unknown") binary.kind = "media-file";
    checkBinaryMedia(binary, at);
    if (media.mime && binary.sniffed && !mimeAgrees(media.mime, binary.sniffed)) {
      entry.issues.push(finding("MIME_MISMATCH", `${quoteName(base)} declares "mime": "${media.mime}" but ${quoteName(binary.found.baseName)} contains ${binary.sniffed}; correct "mime" or attach the right file.`, at));
    }
    if (!media.mime && binary.sniffed) media.mime = binary.sniffed;
    entry.data = mediaData(media);
    if (!binary.placed) {
      binary.slide = media.slide;
      place(binary, media.slide);
    }
    if (validityOf(entry.issues) !== "invalid" && validityOf(binary.issues) !== "invalid") shownMedia.push(media);
  }

}

/** Phase 4: everything not yet placed: page media, unreferenced binaries, unknown files. */
export function placeRemaining(state: Placement): void {
  const { unique, referenced } = state;
  const place = (entry: Entry, slide: number | null) => placeIn(state, entry, slide);
  for (const entry of unique) {
    if (entry.placed) continue;
    const { found } = entry;
    const base = found.baseName;
    const pageMedia = found.source === "page-annotation" && found.page !== undefined && entry.sniffed !== null && isMediaMime(entry.sniffed);
    if (pageMedia && found.page !== undefined) {
      const movie = found.movie ? { file: found.movie.file, annotation: "Movie" as const, inDeck: true } : undefined;
      placePageMedia(state, entry, found.page, found.rect, found.movie?.play ?? { autoplay: true, loop: true }, movie);
    } else if (entry.match.type === "media-file" && !referenced.has(entry)) {
      entry.kind = "media-file";
      entry.issues.push(finding("MEDIA_FILE_UNREFERENCED", `${quoteName(base)} is a media binary that no media sidecar references; add media-slide-{N}-${entry.match.id}.json or remove it.`, { attachment: base }));
      place(entry, null);
    } else {
      entry.kind = "unknown";
      entry.issues.push(finding("UNKNOWN_ATTACHMENT", `${quoteName(base)} follows no deckhand convention (notes-slide-{N}.json, media-slide-{N}-{id}.json, media-{id}.{ext}, poll-slide-{N}.json, *.pdfpc) and is ignored.`, { attachment: base }));
      place(entry, null);
    }
  }

}

/**
 * Place `entry`'s bytes on `page` as media of the page: at `rect` (the whole page without one),
 * checked, shown unless invalid. For a movie of the PDF, `movie` says what its annotation named.
 */
export function placePageMedia(state: Placement, entry: Entry, page: number, rect: MediaRect | undefined, play: { autoplay: boolean; loop: boolean }, movie?: SlideMedia["movie"]): void {
  const base = entry.found.baseName;
  entry.kind = "page-media";
  entry.slide = page;
  const at = { attachment: base, slide: page };
  checkBinaryMedia(entry, at);
  const box = state.discovery.pageBoxes[page - 1];
  const where = rect ?? { x: 0, y: 0, w: box?.width ?? 0, h: box?.height ?? 0 };
  if (where.w <= 0 || where.h <= 0) entry.issues.push(finding("MEDIA_RECT_INVALID", `${quoteName(base)}: its annotation's /Rect on page ${page} has no area; give the annotation a rectangle where the media should play.`, at));
  else if (box) {
    const rectIssue = checkMediaRect(where, box, at);
    if (rectIssue) entry.issues.push(rectIssue);
  }
  const media: SlideMedia = {
    id: mediaId(state, base, page),
    kind: "file",
    slide: page,
    rect: where,
    mime: entry.sniffed,
    ...play,
    attachment: base,
    source: "page-annotation",
    ...(movie ? { movie } : {}),
  };
  entry.data = { ...mediaData(media), annotation: movie?.annotation ?? entry.found.annotation ?? null };
  if (validityOf(entry.issues) !== "invalid") state.shownMedia.push(media);
  placeIn(state, entry, page);
}

/** A media id from a file name, unique among the media shown so far (one file may play on two slides). */
export function mediaId(state: Placement, base: string, page: number): string {
  const id = base.replace(/\.[^.]*$/, "").replace(/[^A-Za-z0-9._-]/g, "_") || `page-${page}`;
  const taken = (candidate: string) => state.shownMedia.some((m) => m.id === candidate);
  if (!taken(id)) return id;
  let n = 1;
  while (taken(`${id}-p${page}${n > 1 ? `-${n}` : ""}`)) n++;
  return `${id}-p${page}${n > 1 ? `-${n}` : ""}`;
}

/** Checks of a media binary's bytes; findings name the binary and the slide it plays on. */
function checkBinaryMedia(binary: Entry, where: { slide: number }): void {
  if (!binary.readable) return;
  const base = binary.found.baseName;
  const at = { attachment: base, slide: where.slide };
  const sniffed = binary.sniffed;
  const extension = base.includes(".") ? (base.split(".").pop() as string).toLowerCase() : "";
  const byExtension = EXTENSION_MIME[extension];
  if (!sniffed || !isMediaMime(sniffed)) {
    binary.issues.push(finding("MEDIA_TYPE_UNSUPPORTED", `${quoteName(base)} is ${sniffed ? `${sniffed}, not` : "not"} audio, video or an image a browser can show; attach a GIF, MP4 or WebM file.`, at));
    return;
  }
  if (byExtension && !mimeAgrees(byExtension, sniffed)) {
    binary.issues.push(finding("MIME_MISMATCH", `${quoteName(base)} is named .${extension} but contains ${sniffed}; rename it or attach the right file.`, at));
  }
  if (UNPLAYABLE_CONTAINERS.has(sniffed)) {
    binary.issues.push(finding("UNPLAYABLE_CONTAINER", `${quoteName(base)} is ${sniffed}, which most browsers cannot play; convert it to MP4 (H.264) or WebM.`, at));
  } else if (!PLAYABLE_MIMES.has(sniffed)) {
    binary.issues.push(finding("UNPLAYABLE_CONTAINER", `${quoteName(base)} is ${sniffed}, which browsers may not play; convert it to MP4 (H.264) or WebM.`, at));
  }
}
