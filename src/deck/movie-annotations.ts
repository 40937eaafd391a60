/**
 * @module deck/movie-annotations
 * The movies a PDF page names, as LaTeX writes them (checked against pdflatex's own output):
 *
 * - Beamer's `\movie` (the multimedia package) writes a `Movie` annotation whose `/Movie /F`
 *   names a file *beside* the PDF, with the poster drawn on the page under its `/Rect`; `/A`
 *   holds how it plays (`/Mode /Repeat` for `loop`/`repeat`); `autostart` adds a Movie action
 *   that plays it when the page opens (a widget's `/AA /PO`, or the page's `/AA /O`), naming
 *   the annotation by its `/T`.
 * - `\movie[externalviewer]` and `\href{run:clip.mp4}{…}` write a `Link` whose action is
 *   `/Launch` with `/F (clip.mp4)` (pdfTeX; other drivers write a URI `run:clip.mp4`). pdfpc
 *   plays a launched video in place and reads `?autostart&loop` after its name; so does this.
 * - media9 / movie15 write a `Screen` annotation whose rendition's media clip (`/A /R /C /D`)
 *   embeds the file or names it (deck/attachments reads the embedded ones).
 *
 * Only raw objects are read. Browser-safe: mupdf objects come in as parameters.
 */
import type { PdfObj } from "./mupdf-types.ts";
import { EXTENSION_MIME } from "./sidecar/sniff.ts";

export interface MoviePlay {
  autoplay: boolean;
  loop: boolean;
}

/** How many Movie actions of a page's open actions are followed (`/Next` chains) at most. */
const MAX_ACTIONS = 64;

/** A file name a movie may have: a video or audio extension (a Launch link to a PDF or a program is no movie). */
export function isMovieFile(name: string): boolean {
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(name)?.[1]?.toLowerCase() ?? "";
  const mime = EXTENSION_MIME[extension] ?? "";
  return mime.startsWith("video/") || mime.startsWith("audio/");
}

/** A file specification's name: a string, or a dictionary's /UF, else /F, else /Unix, else /DOS. */
export function specName(spec: PdfObj): string | null {
  if (spec.isString()) return spec.asString() || null;
  if (!spec.isDictionary()) return null;
  for (const key of ["UF", "F", "Unix", "DOS", "Mac"]) {
    const value = spec.get(key);
    if (value.isString() && value.asString()) return value.asString();
  }
  return null;
}

/** The file specification embeds its file (/EF /F or /EF /UF is a stream). */
export function embedsFile(spec: PdfObj): boolean {
  return spec.isDictionary() && (spec.get("EF", "F").isStream() || spec.get("EF", "UF").isStream());
}

/** A Movie annotation's file specification (/Movie /F), its play settings (/A) and its /T. */
export function movieOfAnnotation(annot: PdfObj): { spec: PdfObj; play: MoviePlay; label: string | null } | null {
  const spec = annot.get("Movie", "F");
  if (spec.isNull()) return null;
  const activation = annot.get("A");
  const mode = activation.isDictionary() ? activation.get("Mode") : null;
  const loop = !!mode && mode.isName() && (mode.asName() === "Repeat" || mode.asName() === "Palindrome");
  const label = annot.get("T");
  return { spec, play: { autoplay: false, loop }, label: label.isString() ? label.asString() : null };
}

/**
 * A Link that launches a movie file: `/A /S /Launch` with `/F` (or `/Win /F`), or a URI
 * `run:` — the file named (its query removed) and pdfpc's `?autostart&loop` flags; null for
 * any other link or a file that is no movie.
 */
export function movieOfLink(annot: PdfObj): { file: string; play: MoviePlay } | null {
  const action = annot.get("A");
  if (!action.isDictionary()) return null;
  const type = action.get("S");
  if (!type.isName()) return null;
  let target: string | null = null;
  if (type.asName() === "Launch") target = specName(action.get("F")) ?? specName(action.get("Win", "F"));
  else if (type.asName() === "URI") {
    const uri = action.get("URI");
    const text = uri.isString() ? uri.asString() : "";
    if (/^run:/i.test(text)) target = text.slice(4);
  }
  if (!target) return null;
  const [path = "", query = ""] = target.split("?", 2);
  const file = safeDecode(path).replace(/^file:\/\//i, "");
  if (!file || !isMovieFile(file)) return null;
  const flags = new Set(query.split("&"));
  return { file, play: { autoplay: flags.has("autostart"), loop: flags.has("loop") } };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The Movie annotations a page plays when it opens: Movie actions (operation Play, the
 * default) in the page's `/AA /O` and in its annotations' `/AA /PO` and `/PV` (Beamer's
 * `autostart` writes a widget with one), named by the annotation's `/T` or by reference.
 */
export function moviesPlayedOnOpen(page: PdfObj, annots: PdfObj[]): { labels: Set<string>; objects: Set<number> } {
  const found = { labels: new Set<string>(), objects: new Set<number>() };
  let budget = MAX_ACTIONS;
  const read = (action: PdfObj) => {
    const seen = new Set<number>();
    for (let current = action; current.isDictionary() && budget-- > 0; current = current.get("Next")) {
      if (current.isIndirect()) {
        if (seen.has(current.asIndirect())) break;
        seen.add(current.asIndirect());
      }
      const type = current.get("S");
      if (!type.isName() || type.asName() !== "Movie") continue;
      const operation = current.get("Operation");
      if (operation.isName() && operation.asName() !== "Play" && operation.asName() !== "Resume") continue;
      const label = current.get("T");
      if (label.isString()) found.labels.add(label.asString());
      const target = current.get("Annotation");
      if (target.isIndirect()) found.objects.add(target.asIndirect());
    }
  };
  read(page.get("AA", "O"));
  for (const annot of annots) {
    if (!annot.isDictionary()) continue;
    read(annot.get("AA", "PO"));
    read(annot.get("AA", "PV"));
  }
  return found;
}
