/**
 * @module deck/analyze/movies
 * Phase 3b: the movies the pages name without embedding them (deck/movie-annotations:
 * Beamer's `\movie`, Launch and `run:` links, a Screen naming a file). Each is played from the
 * deck when the deck carries it:
 *
 *   1. handed over: a media sidecar on its slide plays that file (by name) or covers its
 *      poster — the sidecar plays, the movie is listed as valid;
 *   2. attached: an attachment of the same file name (the name tree, e.g. embedfile's
 *      `\embedfile{clip.mp4}`, or a page's FileAttachment) plays at the movie's rectangle;
 *   3. otherwise the bytes are beside the PDF, out of reach: the presenter gets the movie's
 *      place (a tag there, the poster on the projector, a warning before the talk) and the
 *      report a warning, MEDIA_NOT_IN_DECK, saying how to make it play.
 *
 * Every movie gets a media entry on its slide naming the file the deck expects.
 */
import type { MovieReference } from "../attachments.ts";
import { finding, quoteName } from "../sidecar/findings.ts";
import { baseName } from "../sidecar/names.ts";
import { EXTENSION_MIME } from "../sidecar/sniff.ts";
import type { MediaRect, SlideMedia } from "../sidecar/types.ts";
import { validityOf } from "../report-types.ts";
import type { Entry } from "./entries.ts";
import { mediaId, placePageMedia } from "./media.ts";
import { mediaData, place, type Placement } from "./state.ts";

const WRITTEN_BY: Record<MovieReference["annotation"], string> = {
  Movie: "a Movie annotation, as Beamer's \\movie writes",
  Link: "a link that launches it, as \\movie[externalviewer] or \\href{run:…} writes",
  Screen: "a Screen annotation's rendition",
};

export function placeMovies(state: Placement): void {
  for (const ref of state.discovery.movies) {
    const movie = { file: ref.file, annotation: ref.annotation, inDeck: true };
    const sidecar = handedOver(state, ref);
    if (sidecar) {
      const media = movieMedia(state, ref, movie, undefined);
      placeReference(state, ref, media, [], { playedBy: sidecar });
      continue;
    }
    const bytes = state.byBase.get(ref.baseName);
    if (bytes && (bytes.match.type === "other" || bytes.match.type === "media-file") && !state.referenced.has(bytes)) {
      if (!bytes.placed) {
        placePageMedia(state, bytes, ref.page, ref.rect, ref.play, movie);
        continue;
      }
      // The same file plays on another slide too: this slide's entry points at it.
      const media = movieMedia(state, ref, movie, bytes);
      const entry = placeReference(state, ref, media, [], {});
      if (validityOf(bytes.issues) !== "invalid" && validityOf(entry.issues) !== "invalid") state.shownMedia.push(media);
      continue;
    }
    const missing = { ...movie, inDeck: false };
    const media = movieMedia(state, ref, missing, undefined);
    const issue = finding(
      "MEDIA_NOT_IN_DECK",
      `Slide ${ref.page} plays the movie ${quoteName(ref.file)} (${WRITTEN_BY[ref.annotation]}) from a file beside the PDF, and the deck does not carry it: it cannot play, and the audience sees the poster drawn on the slide. Attach the file to the PDF under the name ${quoteName(ref.baseName)} (e.g. \\usepackage{embedfile} and \\embedfile{${ref.baseName}}), or add a media sidecar media-slide-${ref.page}-{id}.json that plays it.`,
      { attachment: ref.baseName, slide: ref.page },
    );
    placeReference(state, ref, media, [issue], {});
    state.shownMedia.push(media);
  }
}

/** The base name of a media sidecar's file or URL, when it plays one. */
function playedFile(media: SlideMedia): string | null {
  if (media.attachment) return baseName(media.attachment);
  if (!media.url) return null;
  try {
    return baseName(decodeURIComponent(new URL(media.url).pathname));
  } catch {
    return null;
  }
}

/** A media sidecar on the movie's slide that plays its file or covers the centre of its poster. */
function handedOver(state: Placement, ref: MovieReference): string | null {
  for (const { entry, media } of state.sidecarMedia) {
    if (media.slide !== ref.page || validityOf(entry.issues) === "invalid") continue;
    if (playedFile(media) === ref.baseName || (ref.rect && covers(media.rect, ref.rect))) return entry.found.baseName;
  }
  return null;
}

function covers(outer: MediaRect, inner: MediaRect): boolean {
  const cx = inner.x + inner.w / 2;
  const cy = inner.y + inner.h / 2;
  return cx >= outer.x && cx <= outer.x + outer.w && cy >= outer.y && cy <= outer.y + outer.h;
}

function movieMedia(state: Placement, ref: MovieReference, movie: NonNullable<SlideMedia["movie"]>, bytes: Entry | undefined): SlideMedia {
  const box = state.discovery.pageBoxes[ref.page - 1];
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(ref.baseName)?.[1]?.toLowerCase() ?? "";
  return {
    id: mediaId(state, ref.baseName, ref.page),
    kind: "file",
    slide: ref.page,
    rect: ref.rect ?? { x: 0, y: 0, w: box?.width ?? 0, h: box?.height ?? 0 },
    mime: bytes?.sniffed ?? EXTENSION_MIME[extension] ?? null,
    ...ref.play,
    ...(bytes ? { attachment: bytes.found.baseName } : {}),
    source: "page-annotation",
    movie,
  };
}

/** The movie's own entry on its slide (no bytes of its own): the file it names, where, and its findings. */
function placeReference(state: Placement, ref: MovieReference, media: SlideMedia, issues: Entry["issues"], extra: Record<string, unknown>): Entry {
  const entry: Entry = {
    found: {
      name: ref.file,
      baseName: ref.baseName,
      source: "page-annotation",
      page: ref.page,
      annotation: ref.annotation,
      ...(ref.rect ? { rect: ref.rect } : {}),
      stream: null,
      declaredMime: null,
      declaredSize: null,
      declaredChecksum: null,
      issues: [],
    },
    match: { type: "other" },
    issues,
    text: null,
    head: new Uint8Array(0),
    bytes: null,
    readable: false,
    sniffed: null,
    kind: "page-media",
    slide: ref.page,
    data: { ...mediaData(media), annotation: ref.annotation, ...extra },
    placed: false,
  };
  place(state, entry, ref.page);
  return entry;
}
