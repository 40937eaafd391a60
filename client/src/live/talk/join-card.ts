/**
 * @module client/live/talk/join-card
 * *Show join code on the projector*: the audience window draws the talk code, a QR code of
 * the viewer link and the short viewer link over the slide, so the room can join. The card
 * carries only what a viewer may know — the message type has no room for the remote link or
 * any secret — and it leaves at the next slide change or when the presenter hides it. It sits
 * under a black or white screen (black means black), and a code is never broken across lines.
 */
import { renderSVG } from "uqr";
import { h } from "../../lib/dom.ts";

/** What the projector may show about a live talk: its code and the viewer link, nothing else. */
export interface JoinCard {
  code: string;
  viewerUrl: string;
}

/** The viewer link as people type it: no scheme. */
export function shortUrl(url: string): string {
  return url.replace(/^https?:\/\//, "").replace(/\/$/, "");
}

/** A QR code of `text` as an <img> (an SVG data URL: no network, no canvas). */
export function qrImage(text: string, alt: string, className: string): HTMLImageElement {
  const svg = renderSVG(text, { ecc: "M", border: 2 });
  return h("img", { class: className, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, alt }) as HTMLImageElement;
}

/**
 * The link with its code in a span of its own that never wraps: a line may break only before
 * the code (at the last "/"), never inside it.
 */
export function linkText(url: string, code: string): (Node | string)[] {
  const text = shortUrl(url);
  const at = text.lastIndexOf(code);
  if (at < 0) return [text];
  return [text.slice(0, at), h("wbr"), h("span", { class: "code-nowrap" }, code), text.slice(at + code.length)].filter((part) => part !== "");
}

/** The card in the audience window: shown, replaced, or removed. */
export class JoinCardView {
  private element: HTMLElement | null = null;

  /** `before`: the element the card goes under (the black/white cover), inside `host`. */
  constructor(
    private readonly host: HTMLElement,
    private readonly before: HTMLElement | null = null,
  ) {}

  get shown(): boolean {
    return !!this.element;
  }

  show(card: JoinCard | null): void {
    this.element?.remove();
    this.element = null;
    if (!card) return;
    this.element = h(
      "section",
      { class: "join-card", id: "join-card", "aria-label": "Join this talk" },
      h(
        "div",
        { class: "join-card-box" },
        qrImage(card.viewerUrl, "QR code of the link to follow this talk", "join-card-qr"),
        h(
          "div",
          { class: "join-card-text" },
          h("p", { class: "join-card-title" }, "Follow this talk on your phone"),
          h("p", { class: "join-card-label" }, "Scan the code, or open"),
          h("p", { class: "join-card-url" }, ...linkText(card.viewerUrl, card.code)),
          h("p", { class: "join-card-label" }, "Talk code"),
          h("p", { class: "join-card-code code-nowrap" }, card.code),
        ),
      ),
    );
    this.host.insertBefore(this.element, this.before);
  }
}
