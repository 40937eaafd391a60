/**
 * @module client/lib/notes-text
 * Speaker notes written as plain text (PowerPoint notes, the notes half of a Beamer page,
 * in-page notes that are not markdown): shown exactly as written — every character, line
 * breaks and indentation kept, nothing read as markup, no escape added — with the web
 * addresses in them as working links (a PowerPoint note's `article135_3818.html` stays
 * itself and opens), by the rule markdown notes use too (lib/notes-links). Built from text
 * nodes and anchors only: nothing reaches innerHTML.
 */
import { Lexer, Tokenizer } from "marked";
import { h } from "./dom.ts";
import { addressToken } from "./notes-links.ts";

export type TextSegment = { text: string } | { text: string; href: string };

/** marked's inline rules that read markup: in a plain-text note each answers "not here". */
const MARKUP_RULES = ["escape", "tag", "link", "reflink", "emStrong", "codespan", "br", "del", "autolink"] as const;

/**
 * marked's inline lexer knowing nothing but text and addresses (lib/notes-links): emphasis,
 * code, HTML, escapes and line breaks stay the text.
 */
function addressesOnly(): Tokenizer {
  const tokenizer = new Tokenizer();
  for (const rule of MARKUP_RULES) tokenizer[rule] = () => undefined;
  tokenizer.url = addressToken;
  return tokenizer;
}

/** `text` cut into plain runs and links (http, https and mailto only, as the markdown path allows). */
export function textSegments(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  for (const token of new Lexer({ gfm: true, tokenizer: addressesOnly() }).inlineTokens(text)) {
    const last = segments[segments.length - 1];
    if (token.type === "link") segments.push({ text: token.text, href: token.href });
    else if (last && !("href" in last)) last.text += token.raw;
    else segments.push({ text: token.raw });
  }
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
