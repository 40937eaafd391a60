/**
 * @module client/lib/notes
 * Speaker notes from an untrusted PDF, in the format their source writes (deck NotesFormat),
 * the same on every surface (presenter, phone remote, check page): markdown is parsed with
 * marked, then sanitised with DOMPurify to a small allow-list (no scripts, styles, frames,
 * forms or event handlers); plain text is shown as written, its addresses as links
 * (lib/notes-text).
 */
import DOMPurify from "dompurify";
import type { NotesFormat } from "../../../src/deck/sidecar/types.ts";
import { notesToHtml } from "./notes-markdown.ts";
import { renderTextNotes } from "./notes-text.ts";

const ALLOWED_TAGS = [
  "p", "br", "strong", "b", "em", "i", "u", "s", "del", "code", "pre", "blockquote",
  "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "a", "table", "thead",
  "tbody", "tr", "th", "td", "sup", "sub", "mark", "kbd", "span", "div",
];
const ALLOWED_ATTR = ["href", "title", "start", "align", "class"];
/** The only class notes may carry: the math span made by notes-markdown. */
const ALLOWED_CLASS = "math";

let hooked = false;

function hookLinks() {
  if (hooked) return;
  hooked = true;
  // Links in notes open outside the presenter and tell the target nothing about us.
  DOMPurify.addHook("afterSanitizeAttributes", (node) => {
    // A PDF's notes must not borrow the page's styles: every class but ours goes.
    if (node.hasAttribute?.("class") && node.getAttribute("class") !== ALLOWED_CLASS) node.removeAttribute("class");
    if (node.tagName === "A") {
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer");
    }
  });
}

/** Notes → a DocumentFragment, ready to append: markdown sanitised, text as text. */
export function renderNotes(source: string, format: NotesFormat = "markdown"): DocumentFragment {
  if (format === "text") return renderTextNotes(source);
  hookLinks();
  const html = notesToHtml(source);
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
    RETURN_DOM_FRAGMENT: true,
  });
}
