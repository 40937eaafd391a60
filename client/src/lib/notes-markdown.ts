/**
 * @module client/lib/notes-markdown
 * The markdown stage of speaker notes. Raw HTML inside the markdown is shown as the text it
 * is, never parsed: notes come from an untrusted PDF, and even an inert parse of
 * `<img onerror>` makes Chromium report a CSP violation. DOMPurify runs after this anyway.
 *
 * Math (`$…$`, `$$…$$`, what Typst and LaTeX authors write) is kept exactly as written in
 * one marked span: left to markdown, `$a_i + b_i$` came out half in italics. The presenter
 * reads the source; typesetting it would need a math engine we do not ship.
 *
 * Bare addresses link by the rule plain-text notes use (lib/notes-links), not by marked's own
 * GFM autolinks: the same address links the same way in either format.
 */
import { Marked, type TokenizerAndRendererExtension } from "marked";
import { addressToken } from "./notes-links.ts";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * `$…$` as in pandoc's tex_math_dollars: no space just inside the dollars and no digit right
 * after the closing one, so "it costs $5 or $10" stays prose.
 */
const INLINE_MATH = /^\$(?![\s$])((?:\\.|[^\\$\n])+?)(?<!\s)\$(?!\d)/;
const BLOCK_MATH = /^\$\$([\s\S]+?)\$\$(?:\n|$)/;

const mathBlock: TokenizerAndRendererExtension = {
  name: "mathBlock",
  level: "block",
  start: (src) => src.indexOf("$$"),
  tokenizer(src) {
    const match = BLOCK_MATH.exec(src);
    return match ? { type: "mathBlock", raw: match[0], text: match[0].trim() } : undefined;
  },
  renderer: (token) => `<div class="math">${escapeHtml(token.text as string)}</div>\n`,
};

const mathInline: TokenizerAndRendererExtension = {
  name: "mathInline",
  level: "inline",
  start: (src) => src.indexOf("$"),
  tokenizer(src) {
    const match = /^\$\$([\s\S]+?)\$\$/.exec(src) ?? INLINE_MATH.exec(src);
    return match ? { type: "mathInline", raw: match[0], text: match[0] } : undefined;
  },
  renderer: (token) => `<span class="math">${escapeHtml(token.text as string)}</span>`,
};

const markdown = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  extensions: [mathBlock, mathInline],
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
  tokenizer: {
    url: addressToken,
  },
});

export function notesToHtml(source: string): string {
  return markdown.parse(source) as string;
}
