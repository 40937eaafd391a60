/**
 * @module client/lib/notes-links
 * The one rule for the web and mail addresses written in speaker notes, whatever their format:
 * a markdown note's bare addresses (lib/notes-markdown, in place of marked's GFM autolinks) and
 * a plain-text note's (lib/notes-text, lexed by marked with this rule and plain text only) link
 * the same way. Where an address may start is marked's GFM text rule in both; what it is, and
 * where it ends, is `addressAt`:
 *
 * - `http://`, `https://`, `mailto:` or `www.` (opened over https) and what follows up to a
 *   space, `<`, `>` or `"`; or an e-mail address (`name@host.tld`, opened as `mailto:`);
 * - without the punctuation that ends the sentence rather than the address (`.`, `,`, `;`,
 *   `:`, `!`, `?`, quotes — straight and curly, as PowerPoint writes them — and `*`, `_`, `~`),
 *   nor a closing bracket the address does not open: "(see https://x.org/a_(b))." links
 *   `https://x.org/a_(b)`.
 *
 * Only http, https and mailto: what the notes' sanitiser lets through anyway (lib/notes).
 */
import type { Tokens } from "marked";

export interface Address {
  /** The address as written. */
  text: string;
  /** Where it opens. */
  href: string;
}

const WEB = /^(?:https?:\/\/|mailto:|www\.)[^\s<>"]+/i;
/** GFM's extended e-mail autolink: the host has a dot and ends in a letter or digit. */
const EMAIL = /^[A-Za-z0-9._+-]+@[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]*[A-Za-z0-9])+(?![\w-])/;
/** Punctuation that ends a sentence (or a markdown emphasis) rather than the address before it. */
const TRAILING = /[.,;:!?'"*_~»“”‘’]+$/;
const PAIRS = [["(", ")"], ["[", "]"], ["{", "}"]] as const;

/** Drop a closing bracket the address does not open (a note's "(see https://x.org/a)"). */
function balance(address: string): string {
  let text = address;
  for (const [open, close] of PAIRS) {
    while (text.endsWith(close) && text.split(open).length < text.split(close).length) text = text.slice(0, -1);
  }
  return text;
}

/** The address `src` starts with, or null. */
export function addressAt(src: string): Address | null {
  const web = WEB.exec(src);
  if (web) {
    let address = web[0];
    for (let previous = ""; previous !== address; ) {
      previous = address;
      address = balance(address.replace(TRAILING, ""));
    }
    if (!/[A-Za-z0-9]/.test(address.replace(/^(?:https?:\/\/|mailto:|www\.)/i, ""))) return null;
    return { text: address, href: /^www\./i.test(address) ? `https://${address}` : address };
  }
  const mail = EMAIL.exec(src);
  return mail ? { text: mail[0], href: `mailto:${mail[0]}` } : null;
}

/** The address `src` starts with as marked's link token (a tokenizer's `url`), or undefined. */
export function addressToken(src: string): Tokens.Link | undefined {
  const address = addressAt(src);
  if (!address) return undefined;
  const { text, href } = address;
  return { type: "link", raw: text, text, href, title: null, autolink: true, tokens: [{ type: "text", raw: text, text, escaped: false }] };
}
