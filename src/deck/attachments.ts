/**
 * @module deck/attachments
 * Find every attachment of an opened PDF: the `EmbeddedFiles` name tree (walked by
 * deck/name-tree with a visited set and caps — mupdf's own walker overflows the stack on
 * looping `Kids`), page `FileAttachment` annotations (bound to their page), the embedded
 * media of `Screen`, `RichMedia` and `Movie` annotations, and `/Text` annotations (in-page
 * notes) — and the movies a page names without embedding them (deck/movie-annotations:
 * Beamer's `\movie`, Launch and `run:` links, a Screen's rendition naming a file), which the
 * analysis looks for among the attachments and flags when the deck does not carry them.
 * Only raw objects are read (`findPage`, `get`): `loadPage()` would synthesise appearances.
 * Browser-safe: the mupdf document comes in as a parameter.
 */
import { finding, quoteName, type Finding } from "./sidecar/findings.ts";
import { baseName } from "./sidecar/names.ts";
import { normalizeText } from "./text-marks.ts";
import type { MediaRect, PageBox } from "./sidecar/types.ts";
import type { PdfDoc, PdfObj } from "./mupdf-types.ts";
import { walkEmbeddedFiles } from "./name-tree.ts";
import { FALLBACK_BOX, overlaps, pageBox, readRect } from "./page-geometry.ts";
import { embedsFile, movieOfAnnotation, movieOfLink, moviesPlayedOnOpen, specName, type MoviePlay } from "./movie-annotations.ts";

export type AttachmentSource = "embedded-files" | "page-annotation";
export type AnnotationKind = "FileAttachment" | "Screen" | "RichMedia" | "Movie" | "Link";
/** The annotations that name a movie: a Movie annotation, a Screen's rendition, a Launch or run: link. */
export type MovieAnnotation = "Movie" | "Screen" | "Link";

/**
 * A movie a page names without embedding it: the file its annotation names (usually one
 * beside the PDF), where it plays and how. The analysis plays an attachment of that name, or
 * flags it (MEDIA_NOT_IN_DECK).
 */
export interface MovieReference {
  page: number;
  /** The annotation's /Rect, in points from the page's top-left: where the poster is. */
  rect?: MediaRect;
  /** The file as the annotation names it (a Launch query removed), e.g. `media/clip.mp4`. */
  file: string;
  baseName: string;
  annotation: MovieAnnotation;
  play: MoviePlay;
}

export interface DiscoveredAttachment {
  /** The name as stored (/UF, else /F, else the name-tree key), e.g. `src/notes-slide-2.json`. */
  name: string;
  /** The last path segment of `name`: what conventions match on. */
  baseName: string;
  source: AttachmentSource;
  /** For page-annotation attachments: the 1-based page the annotation sits on. */
  page?: number;
  annotation?: AnnotationKind;
  /** For page-annotation attachments: the annotation's /Rect, in points from the page's top-left. */
  rect?: MediaRect;
  /** The embedded file stream (/EF /F), or null when the file specification has none. */
  stream: PdfObj | null;
  /** /Subtype of the embedded file stream (a MIME type), if any. */
  declaredMime: string | null;
  /** /Params /Size, if any. */
  declaredSize: number | null;
  /** /Params /CheckSum (16 bytes of MD5), if any. */
  declaredChecksum: Uint8Array | null;
  /** Problems found while reading the file specification itself. */
  issues: Finding[];
  /** For a Movie annotation's embedded file: the name it gives and how it plays. */
  movie?: { file: string; play: MoviePlay };
}

export interface Discovery {
  attachments: DiscoveredAttachment[];
  /** Document-level structure findings (name tree loops, caps, unreadable pages). */
  issues: Finding[];
  /** slide → the text of its /Text annotations as written (NFC); its format is the deck's (pdfpc.sty's XMP). */
  textNotes: Map<number, string>;
  /** Page boxes in points, index 0 = slide 1. */
  pageBoxes: PageBox[];
  /** Movies the pages name but do not embed, in page order. */
  movies: MovieReference[];
}

export interface DiscoveryLimits {
  /** Name tree nodes visited at most; real trees have a handful. */
  maxNameTreeNodes: number;
  /** Name tree depth at most; real trees are 1–4 levels deep. */
  maxNameTreeDepth: number;
  /** Attachments checked at most; a deck with more is hostile or not a deck. */
  maxAttachments: number;
  /** Annotations read per page at most. */
  maxAnnotationsPerPage: number;
  /**
   * Annotations read in the whole document at most. The per-page cap alone bounds nothing
   * when hundreds of pages share one /Annots array of thousands of entries.
   */
  maxAnnotations: number;
  /** Characters of in-page (/Text annotation) notes kept per slide. */
  maxNoteChars: number;
}

export const DEFAULT_DISCOVERY_LIMITS: DiscoveryLimits = {
  maxNameTreeNodes: 10_000,
  maxNameTreeDepth: 32,
  maxAttachments: 2_000,
  maxAnnotationsPerPage: 2_000,
  // A 3,000-page deck with a dozen links per page stays far below this; reading one costs µs.
  maxAnnotations: 50_000,
  // Pages of speaker notes; more is pasted content, not notes.
  maxNoteChars: 64 * 1024,
};

/** The document-wide annotation walk: what was read, so each annotation object is read once. */
interface AnnotationBudget {
  left: number;
  seen: Set<number>;
  exhausted: boolean;
}

/**
 * The attachments whose base name `wanted` accepts, in the order discoverAttachments lists
 * them (the name tree, then each page's FileAttachment annotations), without what else
 * discovery reads (page boxes, media, in-page notes, findings): what the render worker needs
 * when it opens a deck — a .pdfpc's slide grouping — for about one look-up a page (a full
 * discovery costs ~0.1 ms a page: 0.3 s before a 3,000-page deck's first slide). Bounded like
 * discovery; never throws.
 */
export function findAttachmentsNamed(doc: PdfDoc, pageCount: number, wanted: (base: string) => boolean, limits: DiscoveryLimits = DEFAULT_DISCOVERY_LIMITS): DiscoveredAttachment[] {
  const found: DiscoveredAttachment[] = [];
  const take = (attachment: DiscoveredAttachment | null) => {
    if (attachment && wanted(attachment.baseName) && found.length < limits.maxAttachments) found.push(attachment);
  };
  try {
    walkEmbeddedFiles(doc, limits, [], (key, value) => take(readFilespec(value, key, "embedded-files")));
    let left = limits.maxAnnotations;
    for (let index = 0; index < pageCount && left > 0; index++) {
      const annots = doc.findPage(index).get("Annots");
      if (!annots.isArray()) continue;
      const count = Math.min(annots.length, limits.maxAnnotationsPerPage, left);
      left -= count;
      for (let i = 0; i < count; i++) {
        const annot = annots.get(i);
        const subtype = annot.isDictionary() ? annot.get("Subtype") : null;
        if (subtype?.isName() && subtype.asName() === "FileAttachment") take(readFilespec(annot.get("FS"), `page-${index + 1}-attachment-${i + 1}`, "page-annotation"));
      }
    }
  } catch {
    // What could be read is kept; the check report says what is wrong with the rest.
  }
  return found;
}

export function discoverAttachments(doc: PdfDoc, pageCount: number, limits: DiscoveryLimits = DEFAULT_DISCOVERY_LIMITS): Discovery {
  const discovery: Discovery = { attachments: [], issues: [], textNotes: new Map(), pageBoxes: [], movies: [] };
  const byObject = new Map<number, DiscoveredAttachment>();
  let capped = false;

  const add = (attachment: DiscoveredAttachment, objectNumber: number | null): void => {
    if (objectNumber !== null) {
      const seen = byObject.get(objectNumber);
      if (seen) {
        // One file specification reached twice (name tree and a page): bind it to the page.
        if (attachment.source === "page-annotation" && seen.source === "embedded-files") {
          seen.source = "page-annotation";
          if (attachment.page !== undefined) seen.page = attachment.page;
          if (attachment.annotation) seen.annotation = attachment.annotation;
          if (attachment.rect) seen.rect = attachment.rect;
        }
        return;
      }
    }
    if (discovery.attachments.length >= limits.maxAttachments) {
      if (!capped) {
        capped = true;
        discovery.issues.push(finding("TOO_MANY_ATTACHMENTS", `The PDF has more than ${limits.maxAttachments} attachments; only the first ${limits.maxAttachments} are checked. Remove the attachments the talk does not need.`));
      }
      return;
    }
    if (objectNumber !== null) byObject.set(objectNumber, attachment);
    discovery.attachments.push(attachment);
  };

  const budget: AnnotationBudget = { left: limits.maxAnnotations, seen: new Set(), exhausted: false };
  walkEmbeddedFiles(doc, limits, discovery.issues, (key, value) => {
    const attachment = readFilespec(value, key, "embedded-files");
    if (attachment) add(attachment, objectNumberOf(value));
  });

  for (let index = 0; index < pageCount; index++) {
    const slide = index + 1;
    let page: PdfObj;
    try {
      page = doc.findPage(index);
    } catch {
      discovery.pageBoxes.push({ width: FALLBACK_BOX.width, height: FALLBACK_BOX.height });
      discovery.issues.push(finding("PAGE_UNREADABLE", `Page ${slide} cannot be read, so its annotations were not checked; export the deck again.`, { slide }));
      continue;
    }
    const box = pageBox(page);
    discovery.pageBoxes.push({ width: box.width, height: box.height });
    if (budget.exhausted) continue;
    try {
      readPageAnnotations(page, slide, box, limits, budget, discovery, add);
      if (budget.exhausted) {
        discovery.issues.push(finding("ANNOTATIONS_TOO_MANY", `The PDF has more than ${limits.maxAnnotations} annotations; those from page ${slide} on were not checked. Remove the annotations the talk does not need, or export the deck again.`, { slide }));
      }
    } catch {
      discovery.issues.push(finding("PAGE_UNREADABLE", `The annotations of page ${slide} cannot be read; export the deck again.`, { slide }));
    }
  }
  return discovery;
}

function objectNumberOf(value: PdfObj): number | null {
  return value.isIndirect() ? value.asIndirect() : null;
}

/** A file specification (dictionary, or a bare string naming an external file) → attachment. */
function readFilespec(value: PdfObj, fallbackName: string, source: AttachmentSource): DiscoveredAttachment | null {
  const issues: Finding[] = [];
  if (value.isString()) {
    const name = value.asString() || fallbackName;
    issues.push(finding("ATTACHMENT_STREAM_MISSING", `${quoteName(name)} refers to a file outside the PDF instead of embedding it; embed the file.`, { attachment: baseName(name) }));
    return { name, baseName: baseName(name), source, stream: null, declaredMime: null, declaredSize: null, declaredChecksum: null, issues };
  }
  if (!value.isDictionary()) return null;
  const nameObject = [value.get("UF"), value.get("F")].find((o) => o.isString());
  const name = (nameObject?.asString() || fallbackName || "unnamed").normalize("NFC");
  const base = baseName(name);
  let stream: PdfObj | null = null;
  for (const key of ["UF", "F"]) {
    const candidate = value.get("EF", key);
    if (candidate.isStream()) {
      stream = candidate;
      break;
    }
  }
  if (!stream) {
    issues.push(finding("ATTACHMENT_STREAM_MISSING", `${quoteName(base)} has no embedded file stream (/EF /F); attach the file again.`, { attachment: base }));
  }
  const subtype = stream?.get("Subtype");
  const size = stream?.get("Params", "Size");
  const checksum = stream?.get("Params", "CheckSum");
  return {
    name,
    baseName: base,
    source,
    stream,
    declaredMime: subtype && subtype.isName() ? subtype.asName() : null,
    declaredSize: size && size.isNumber() ? size.asNumber() : null,
    declaredChecksum: checksum && checksum.isString() ? checksum.asByteString() : null,
    issues,
  };
}

function readPageAnnotations(
  page: PdfObj,
  slide: number,
  box: { x0: number; y1: number },
  limits: DiscoveryLimits,
  budget: AnnotationBudget,
  discovery: Discovery,
  add: (attachment: DiscoveredAttachment, objectNumber: number | null) => void,
): void {
  const annots = page.get("Annots");
  if (!annots.isArray()) return;
  const count = Math.min(annots.length, limits.maxAnnotationsPerPage);
  const texts: string[] = [];
  let textChars = 0;
  const movies: MovieReference[] = [];
  /** Movie annotations by /T and by object: Beamer's autostart names them so. */
  const labelled = new Map<string, MoviePlay>();
  const referenced = new Map<number, MoviePlay>();
  for (let i = 0; i < count; i++) {
    if (budget.left-- <= 0) {
      budget.exhausted = true;
      break;
    }
    const annot = annots.get(i);
    // An annotation belongs to one page once; a hostile file repeats one object thousands of times.
    if (annot.isIndirect()) {
      const number = annot.asIndirect();
      if (budget.seen.has(number)) continue;
      budget.seen.add(number);
    }
    if (!annot.isDictionary()) continue;
    const subtype = annot.get("Subtype");
    if (!subtype.isName()) continue;
    const kind = subtype.asName();
    if (kind === "Text") {
      if (textChars >= limits.maxNoteChars) continue;
      const contents = annot.get("Contents");
      let text = contents.isString() ? contents.asString().trim() : "";
      if (textChars + text.length > limits.maxNoteChars) {
        text = `${text.slice(0, Math.max(0, limits.maxNoteChars - textChars))}…`;
        discovery.issues.push(finding("NOTES_TOO_LONG", `The in-page notes of slide ${slide} are longer than ${limits.maxNoteChars} characters; the rest is left out. Keep speaker notes short, or move long text elsewhere.`, { slide }));
      }
      textChars += text.length;
      if (text) texts.push(normalizeText(text));
      continue;
    }
    if (kind !== "FileAttachment" && kind !== "Screen" && kind !== "RichMedia" && kind !== "Movie" && kind !== "Link") continue;
    const rectangle = readRect(annot.get("Rect"));
    const rect = rectangle ? { x: rectangle.x0 - box.x0, y: box.y1 - rectangle.y1, w: rectangle.x1 - rectangle.x0, h: rectangle.y1 - rectangle.y0 } : undefined;
    const bind = (value: PdfObj, key: string, movie?: DiscoveredAttachment["movie"]) => {
      const attachment = readFilespec(value, key, "page-annotation");
      if (!attachment) return false;
      attachment.page = slide;
      attachment.annotation = kind;
      if (rect) attachment.rect = rect;
      if (movie) attachment.movie = movie;
      add(attachment, objectNumberOf(value));
      return true;
    };
    const named = (file: string, annotation: MovieAnnotation, play: MoviePlay) => {
      const name = file.normalize("NFC");
      const base = baseName(name);
      // \movie inside \href{run:…}: one movie, named twice on its poster.
      if (movies.some((m) => m.baseName === base && (!m.rect || !rect || overlaps(m.rect, rect)))) return;
      movies.push({ page: slide, ...(rect ? { rect } : {}), file: name, baseName: base, annotation, play });
    };
    const malformed = (what: string) =>
      discovery.issues.push(finding("ANNOTATION_MALFORMED", `A ${kind} annotation on page ${slide} ${what}; it was skipped. Attach the file again.`, { slide }));
    if (kind === "FileAttachment") {
      if (!bind(annot.get("FS"), `page-${slide}-attachment-${i + 1}`)) malformed("has no file specification (/FS)");
    } else if (kind === "Screen") {
      // A rendition action's media clip data: /A /R /C /D (ISO 32000 §13.2).
      const data = annot.get("A", "R", "C", "D");
      if (data.isNull()) continue; // a Screen without a rendition shows nothing: not an attachment
      const file = specName(data);
      if (!embedsFile(data) && file) named(file, "Screen", { autoplay: true, loop: true });
      else if (!bind(data, `page-${slide}-screen-${i + 1}`)) malformed("has a rendition without embedded media");
    } else if (kind === "Movie") {
      const movie = movieOfAnnotation(annot);
      const file = movie ? specName(movie.spec) : null;
      if (!movie || !file) {
        malformed("names no movie file (/Movie /F)");
        continue;
      }
      if (movie.label) labelled.set(movie.label, movie.play);
      if (annot.isIndirect()) referenced.set(annot.asIndirect(), movie.play);
      if (embedsFile(movie.spec)) bind(movie.spec, file, { file, play: movie.play });
      else named(file, "Movie", movie.play);
    } else if (kind === "Link") {
      const movie = movieOfLink(annot);
      if (movie) named(movie.file, "Link", movie.play);
    } else {
      const assets = annot.get("RichMediaContent", "Assets", "Names");
      if (!assets.isArray()) {
        malformed("has no /RichMediaContent /Assets");
        continue;
      }
      for (let j = 0; j + 1 < assets.length; j += 2) {
        const key = assets.get(j);
        bind(assets.get(j + 1), key.isString() ? key.asString() : `page-${slide}-richmedia-${i + 1}-${j / 2 + 1}`);
      }
    }
  }
  // Beamer's autostart: a Movie action that plays the annotation when the page opens.
  if (labelled.size > 0 || referenced.size > 0) {
    const opened = moviesPlayedOnOpen(page, Array.from({ length: count }, (_, k) => annots.get(k)));
    for (const [label, play] of labelled) if (opened.labels.has(label)) play.autoplay = true;
    for (const [object, play] of referenced) if (opened.objects.has(object)) play.autoplay = true;
  }
  discovery.movies.push(...movies);
  if (texts.length > 0) discovery.textNotes.set(slide, texts.join("\n\n"));
}
