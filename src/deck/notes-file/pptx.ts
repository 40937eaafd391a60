/**
 * @module deck/notes-file/pptx
 * Speaker notes from a PowerPoint `.pptx` (Office Open XML): a zip whose
 * `ppt/presentation.xml` lists the slides in order (`p:sldIdLst`, each `p:sldId r:id` resolved
 * through `ppt/_rels/presentation.xml.rels`), each slide `ppt/slides/slideN.xml` (`show="0"` on
 * `p:sld` = hidden) links its notes slide through `ppt/slides/_rels/slideN.xml.rels`, and the
 * notes are the paragraphs of the notes slide's body placeholder (`p:ph type="body"`) — not the
 * slide image placeholder, the slide number or the header/footer. Notes are plain text, as
 * PowerPoint shows them: a paragraph a line, a bulleted paragraph after "• " (a numbered one
 * after its number), indented by its level, never escaped. A hyperlink keeps working: its
 * address (from the notes slide's relationships) follows its words when they do not show it.
 *
 * Hidden slides: PowerPoint's "Save as PDF" leaves hidden slides out unless "Include hidden
 * slides" is ticked, so the notes of the *visible* slides map to the PDF's pages in order. When
 * the PDF has as many pages as the presentation has slides with the hidden ones, they were
 * exported too and every slide maps in order. Anything else is a count mismatch (warning).
 *
 * Only the parts named above are inflated, each capped; XML is parsed with fast-xml-parser with
 * DOCTYPEs refused (xml.ts). Browser-safe.
 */
import { finding, quoteName, type Finding } from "../sidecar/findings.ts";
import { normalizeText } from "../text-marks.ts";
import { prefixedAttr, childElements, descendants, parseXml, type XmlElement } from "../xml.ts";
import { readZip, zipCensus, type ZipFailure } from "./zip.ts";

/** Slides read at most: deckhand presents at most 3,000 pages (deck/accept MAX_PAGES). */
export const MAX_PPTX_SLIDES = 3000;
/** An XML part larger than this is refused: PowerPoint's largest parts are slides of ~1 MiB. */
export const MAX_XML_PART_BYTES = 8 * 1024 * 1024;
/** All parts read together: 3,000 slides, rels and notes of a few KiB each stay far below. */
const MAX_TOTAL_XML_BYTES = 64 * 1024 * 1024;
/** Zip entries at most: a deck with 3,000 slides has ~4 parts per slide plus media. */
const MAX_ZIP_ENTRIES = 20_000;
/** PowerPoint's XML compresses 5–30×; 200× is only reached by a bomb (deflate's limit is ~1032×). */
const MAX_RATIO = 200;

const SLIDE_PART = /^ppt\/slides\/slide\d+\.xml$/;
const NOTES_PART = /^ppt\/notesSlides\/notesSlide\d+\.xml$/;
const SLIDE_RELS = /^ppt\/slides\/_rels\/slide\d+\.xml\.rels$/;
const NOTES_RELS = /^ppt\/notesSlides\/_rels\/notesSlide\d+\.xml\.rels$/;
const REL_HYPERLINK = /\/relationships\/hyperlink$/;
const REL_SLIDE = /\/relationships\/slide$/;
const REL_NOTES = /\/relationships\/notesSlide$/;

export interface PptxNotes {
  /** 1-based page → the notes as plain text. */
  notes: Map<number, string>;
  /** Slides in the presentation, hidden ones included (null when unreadable). */
  slideCount: number | null;
  hiddenCount: number;
  issues: Finding[];
  usable: boolean;
}

/** A relative part target ("slides/slide1.xml", "../notesSlides/notesSlide1.xml") resolved against a part's folder. */
function resolvePart(folder: string, target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts = folder.split("/").filter(Boolean);
  for (const piece of target.split("/")) {
    if (piece === "..") parts.pop();
    else if (piece !== "." && piece !== "") parts.push(piece);
  }
  return parts.join("/");
}

function zipFinding(failure: ZipFailure, filename: string): Finding {
  const at = { attachment: filename };
  switch (failure.kind) {
    case "bomb":
      return finding("PPTX_ZIP_BOMB", `${quoteName(filename)}: the part ${quoteName(failure.entry)} inflates far beyond its compressed size (a zip bomb); the file is not read. Save the presentation again from PowerPoint.`, at);
    case "entry-too-large":
      return finding("PPTX_PART_TOO_LARGE", `${quoteName(filename)}: the part ${quoteName(failure.entry)} is larger than ${MAX_XML_PART_BYTES / 1024 / 1024} MiB; the file is not read. Remove pasted content from that slide or its notes.`, at);
    case "too-many-entries":
      return finding("PPTX_TOO_MANY_SLIDES", `${quoteName(filename)} holds more than ${MAX_ZIP_ENTRIES} files; deckhand reads presentations of up to ${MAX_PPTX_SLIDES} slides. Split the presentation.`, at);
    case "counted-out":
      return finding("PPTX_TOO_MANY_SLIDES", `${quoteName(filename)} has more than ${MAX_PPTX_SLIDES} ${failure.what}; deckhand reads presentations of up to ${MAX_PPTX_SLIDES} slides. Split the presentation.`, at);
    default:
      return finding("PPTX_ZIP_INVALID", `${quoteName(filename)} is not a readable zip archive (${failure.detail.slice(0, 120)}); save the presentation again as .pptx.`, at);
  }
}

/** Notes of a .pptx, mapped to PDF pages (see the module comment for hidden slides). */
export function readPptxNotes(bytes: Uint8Array, filename: string, pageCount: number): PptxNotes {
  const result: PptxNotes = { notes: new Map(), slideCount: null, hiddenCount: 0, issues: [], usable: false };
  const at = { attachment: filename };
  const limits = { maxEntryBytes: MAX_XML_PART_BYTES, maxTotalBytes: MAX_TOTAL_XML_BYTES, maxEntries: MAX_ZIP_ENTRIES, maxRatio: MAX_RATIO };
  // First the central directory alone (nothing inflated): a damaged archive, or one of
  // 10,000 slides, is refused in milliseconds.
  let slideParts = 0;
  let notesParts = 0;
  const census = zipCensus(bytes, limits, (name) => {
    if (SLIDE_PART.test(name) && ++slideParts > MAX_PPTX_SLIDES) return { kind: "counted-out", what: "slides", count: slideParts };
    if (NOTES_PART.test(name) && ++notesParts > MAX_PPTX_SLIDES) return { kind: "counted-out", what: "notes slides", count: notesParts };
    return null;
  });
  if (census.failure) {
    result.issues.push(zipFinding(census.failure, filename));
    return result;
  }
  const read = readZip(bytes, (name) => name === "ppt/presentation.xml" || name === "ppt/_rels/presentation.xml.rels" || SLIDE_PART.test(name) || SLIDE_RELS.test(name) || NOTES_PART.test(name) || NOTES_RELS.test(name), limits);
  if (read.failure) {
    result.issues.push(zipFinding(read.failure, filename));
    return result;
  }
  const xml = (part: string, required: boolean): XmlElement | null => {
    const data = read.entries.get(part);
    if (!data) {
      if (required) result.issues.push(finding("PPTX_PART_MALFORMED", `${quoteName(filename)} has no ${part}; it is not a PowerPoint presentation. Save it again as .pptx.`, at));
      return null;
    }
    const parsed = parseXml(new TextDecoder().decode(data), MAX_XML_PART_BYTES);
    if (parsed.ok) return parsed.root;
    if (parsed.reason === "doctype") result.issues.push(finding("XML_DOCTYPE_REFUSED", `${quoteName(filename)}: ${part} declares a DOCTYPE or entities, which PowerPoint never writes and deckhand never expands; the file is not read. Save the presentation again from PowerPoint.`, at));
    else if (parsed.reason === "too-large") result.issues.push(finding("PPTX_PART_TOO_LARGE", `${quoteName(filename)}: ${part} is larger than ${MAX_XML_PART_BYTES / 1024 / 1024} MiB; the file is not read.`, at));
    else result.issues.push(finding("PPTX_PART_MALFORMED", `${quoteName(filename)}: ${part} is not well-formed XML; save the presentation again from PowerPoint.`, at));
    return null;
  };
  const refused = () => result.issues.some((i) => i.code === "XML_DOCTYPE_REFUSED" || i.code === "PPTX_PART_TOO_LARGE");

  const presentation = xml("ppt/presentation.xml", true);
  if (!presentation) return result;
  const presentationRels = xml("ppt/_rels/presentation.xml.rels", true);
  if (!presentationRels) return result;
  const relTargets = relationships(presentationRels, "ppt");
  const list = childElements(presentation, "sldIdLst")[0];
  const ids = list ? childElements(list, "sldId") : [];
  if (ids.length > MAX_PPTX_SLIDES) {
    result.issues.push(finding("PPTX_TOO_MANY_SLIDES", `${quoteName(filename)} has ${ids.length} slides; deckhand reads presentations of up to ${MAX_PPTX_SLIDES} slides. Split the presentation.`, at));
    return result;
  }
  const slides: { part: string | null; hidden: boolean; notes: string }[] = [];
  for (const id of ids) {
    const rel = relTargets.get(prefixedAttr(id, "id") ?? "");
    const part = rel && REL_SLIDE.test(rel.type) ? rel.target : null;
    const slide = part ? xml(part, false) : null;
    if (refused()) return result;
    const hidden = slide?.attrs.show === "0" || slide?.attrs.show === "false";
    let notes = "";
    if (part) {
      const folder = part.slice(0, part.lastIndexOf("/"));
      const relsPart = `${folder}/_rels/${part.slice(folder.length + 1)}.rels`;
      const rels = read.entries.has(relsPart) ? xml(relsPart, false) : null;
      const notesRel = rels ? [...relationships(rels, folder).values()].find((r) => REL_NOTES.test(r.type)) : undefined;
      const notesSlide = notesRel ? xml(notesRel.target, false) : null;
      if (refused()) return result;
      if (notesSlide && notesRel) {
        const notesFolder = notesRel.target.slice(0, notesRel.target.lastIndexOf("/"));
        const notesRelsPart = `${notesFolder}/_rels/${notesRel.target.slice(notesFolder.length + 1)}.rels`;
        const notesRels = read.entries.has(notesRelsPart) ? xml(notesRelsPart, false) : null;
        if (refused()) return result;
        notes = bodyText(notesSlide, notesRels ? hyperlinks(notesRels) : new Map());
      }
    }
    slides.push({ part, hidden, notes });
  }
  result.usable = true;
  result.slideCount = slides.length;
  result.hiddenCount = slides.filter((s) => s.hidden).length;
  const visible = slides.filter((s) => !s.hidden);
  // PowerPoint exports visible slides only by default; with every slide when the counts say so.
  const mapped = visible.length !== pageCount && slides.length === pageCount ? slides : visible;
  if (mapped.length !== pageCount) {
    const hiddenNote = result.hiddenCount > 0 ? ` (${result.hiddenCount} hidden, left out as PowerPoint's PDF export does)` : "";
    result.issues.push(finding("NOTES_FILE_SLIDE_COUNT_MISMATCH", `${quoteName(filename)} has ${visible.length} visible slides${hiddenNote} but the PDF has ${pageCount} pages; the notes are matched to pages in order and may be on the wrong slides. Export the PDF from the same presentation.`, at));
  }
  mapped.forEach((slide, i) => {
    if (slide.notes && i < pageCount) result.notes.set(i + 1, slide.notes);
  });
  return result;
}

/** Relationship Id → {type, target part path}, from a .rels part of a part in `folder`. */
function relationships(rels: XmlElement, folder: string): Map<string, { type: string; target: string }> {
  const map = new Map<string, { type: string; target: string }>();
  for (const rel of childElements(rels, "Relationship")) {
    const id = rel.attrs.Id;
    const target = rel.attrs.Target;
    if (!id || !target || rel.attrs.TargetMode === "External") continue;
    map.set(id, { type: rel.attrs.Type ?? "", target: resolvePart(folder, target) });
  }
  return map;
}

/** Relationship Id → web address, for the external hyperlinks of a notes slide. */
function hyperlinks(rels: XmlElement): Map<string, string> {
  const map = new Map<string, string>();
  for (const rel of childElements(rels, "Relationship")) {
    const { Id: id, Target: target, Type: type } = rel.attrs;
    if (id && target && REL_HYPERLINK.test(type ?? "") && /^(https?:|mailto:)/i.test(target)) map.set(id, target);
  }
  return map;
}

/** The text of a notes slide: the paragraphs of its body placeholder(s). */
function bodyText(notesSlide: XmlElement, links: Map<string, string>): string {
  const blocks: string[] = [];
  for (const shape of descendants(notesSlide)) {
    if (shape.local !== "sp") continue;
    const placeholder = [...descendants(shape)].find((e) => e.local === "ph");
    if (!placeholder || placeholder.attrs.type !== "body") continue;
    const body = childElements(shape, "txBody")[0];
    if (!body) continue;
    const paragraphs = childElements(body, "p").map((p) => paragraphText(p, links));
    blocks.push(joinParagraphs(paragraphs));
  }
  return normalizeText(blocks.filter(Boolean).join("\n\n").trim());
}

interface Paragraph {
  text: string;
  /** The bullet drawn before it: "•", or for a numbered list "number"; none for a plain paragraph. */
  bullet: "bullet" | "number" | null;
  /** The number's punctuation ("1." or "1)") and where the list starts. */
  numberStyle: { close: string; start: number };
  level: number;
}

/** The address a run's words stand for, when they do not show it themselves. */
function linkSuffix(words: string, target: string | undefined): string {
  if (!target) return "";
  const bare = (u: string) => u.replace(/^(https?:\/\/|mailto:)/i, "").replace(/\/$/, "").toLowerCase();
  return words.trim() && bare(words.trim()) === bare(target) ? "" : ` (${target})`;
}

function paragraphText(p: XmlElement, links: Map<string, string>): Paragraph {
  const parts: string[] = [];
  for (const child of childElements(p)) {
    if (child.local === "r" || child.local === "fld") {
      const words = childElements(child, "t").map((t) => t.children.map((c) => ("text" in c ? c.text : "")).join("")).join("");
      const rPr = childElements(child, "rPr")[0];
      const click = rPr ? childElements(rPr, "hlinkClick")[0] : undefined;
      const target = click ? links.get(prefixedAttr(click, "id") ?? "") : undefined;
      parts.push(words + linkSuffix(words, target));
    } else if (child.local === "br") parts.push("\n");
  }
  const pPr = childElements(p, "pPr")[0];
  const autoNumber = pPr ? childElements(pPr, "buAutoNum")[0] : undefined;
  const bullet = autoNumber ? "number" : pPr && childElements(pPr, "buChar").length > 0 ? "bullet" : null;
  const scheme = autoNumber?.attrs.type ?? "arabicPeriod";
  const numberStyle = { close: /ParenR$/.test(scheme) ? ")" : ".", start: Math.max(1, Number(autoNumber?.attrs.startAt ?? 1) || 1) };
  const level = pPr ? Math.min(8, Math.max(0, Number(pPr.attrs.lvl ?? 0) || 0)) : 0;
  return { text: parts.join(""), bullet, numberStyle, level };
}

/** One line per paragraph, as PowerPoint shows them; bullets and numbers written out, levels indented. */
function joinParagraphs(paragraphs: Paragraph[]): string {
  const lines: string[] = [];
  // The running number of each level's list; a paragraph that is not numbered ends the lists below it.
  const counters: number[] = [];
  for (const p of paragraphs) {
    const text = p.text.replace(/\s+$/, "");
    const indent = "  ".repeat(p.level);
    counters.length = p.bullet === "number" ? p.level + 1 : p.level;
    if (p.bullet === "number") {
      counters[p.level] = (counters[p.level] ?? p.numberStyle.start - 1) + 1;
      lines.push(`${indent}${counters[p.level]}${p.numberStyle.close} ${text.trimStart()}`);
    } else if (p.bullet === "bullet" && text.trim()) lines.push(`${indent}• ${text.trimStart()}`);
    else lines.push(text);
  }
  return lines.join("\n").replace(/\n{3,}/g, "\n\n").trim();
}
