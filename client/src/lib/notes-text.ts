/**
 * @module client/lib/notes-text
 * Speaker notes written as plain text (PowerPoint notes, the notes half of a Beamer page,
 * in-page notes that are not markdown): shown exactly as written — every character, line
 * breaks and indentation kept, nothing read as markup, no escape added — with the web
 * addresses in them as working links (a PowerPoint note's `article135_3818.html` stays
 * itself and opens). Built from text nodes and anchors only: nothing reaches innerHTML.
 */
import { h } from "./dom.ts";

export type TextSegment = { text: string } | { text: string; href: string };

/** A web address as people write one in notes: with its scheme, or starting "www.". */
const ADDRESS = /\b(?:https?:\/\/|mailto:|www\.)[^\s<>"]+/gi;
/** Punctuation that ends a sentence rather than the address before it. */
const TRAILING = /[.,;:!?'"»”’]+$/;

/** Drop a closing bracket the address does not open (a note's "(see https://x.org/a)"). */
function balance(address: string): string {
  let text = address;
  for (const [open, close] of [["(", ")"], ["[", "]"]] as const) {
    while (text.endsWith(close) && text.split(open).length < text.split(close).length) text = text.slice(0, -1);
  }
  return text;
}

/** `text` cut into plain runs and links (http, https and mailto only, as the markdown path allows). */
export function textSegments(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(ADDRESS)) {
    let address = match[0];
    for (let previous = ""; previous !== address; ) {
      previous = address;
      address = balance(address.replace(TRAILING, ""));
    }
    if (!/[A-Za-z0-9]/.test(address.replace(/^(https?:\/\/|mailto:|www\.)/i, ""))) continue;
    const start = match.index;
    if (start > last) segments.push({ text: text.slice(last, start) });
    segments.push({ text: address, href: /^www\./i.test(address) ? `https://${address}` : address });
    last = start + address.length;
  }
  if (last < text.length) segments.push({ text: text.slice(last) });
  return segments;
}

/** Plain-text notes as a fragment: one block, white space kept (CSS `.notes-plain`), links that open outside. */
export function renderTextNotes(text: string): DocumentFragment {
  const block = h("div", { class: "notes-plain" });
  for (const segment of textSegments(text)) {
    if ("href" in segment) block.append(h("a", { href: segment.href, target: "_blank", rel: "noopener noreferrer" }, segment.text));
    else block.append(segment.text);
  }
  const fragment = document.createDocumentFragment();
  fragment.append(block);
  return fragment;
}
