/**
 * @module client/lib/notes-markdown
 * The markdown stage of speaker notes. Raw HTML inside the markdown is shown as the text it
 * is, never parsed: notes come from an untrusted PDF, and even an inert parse of
 * `<img onerror>` makes Chromium report a CSP violation. DOMPurify runs after this anyway.
 */
import { Marked } from "marked";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const markdown = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
  },
});

export function notesToHtml(source: string): string {
  return markdown.parse(source) as string;
}
