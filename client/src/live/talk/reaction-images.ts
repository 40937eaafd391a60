/**
 * @module client/live/talk/reaction-images
 * The six reactions drawn as pictures the binary carries (Twemoji SVGs, CC-BY 4.0 — see
 * client/static/reactions/README.md), everywhere a reaction is drawn: the viewer's reaction
 * bar, the floats over the slide on the viewer page, the presenter and the projector, and the
 * Questions panel's counts. A machine without a colour-emoji font (a venue laptop on Linux)
 * draws the emoji characters as empty boxes; a picture draws the same everywhere. The pictures
 * are data: URLs inside the bundle: no request, nothing to cache, offline in every window. The
 * emoji character stays the text: the picture's alternative, or a visually hidden twin.
 */
import type { LiveReactionT } from "../../../../src/shared/live-audience-protocol.ts";
import { h } from "../../lib/dom.ts";
import thumbsUp from "../../../static/reactions/1f44d.svg" with { type: "text" };
import clap from "../../../static/reactions/1f44f.svg" with { type: "text" };
import heart from "../../../static/reactions/2764.svg" with { type: "text" };
import laugh from "../../../static/reactions/1f602.svg" with { type: "text" };
import party from "../../../static/reactions/1f389.svg" with { type: "text" };
import question from "../../../static/reactions/2753.svg" with { type: "text" };

const SVG: Record<LiveReactionT, string> = { "👍": thumbsUp, "👏": clap, "❤️": heart, "😂": laugh, "🎉": party, "❓": question };

const urls = new Map<string, string>();

/** The reaction's picture as a data: URL (made once). */
export function reactionImageUrl(emoji: LiveReactionT): string {
  let url = urls.get(emoji);
  if (!url) {
    url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(SVG[emoji])}`;
    urls.set(emoji, url);
  }
  return url;
}

/** An `<img>` of the reaction, the emoji its text alternative (`alt: ""` where the emoji is said beside it). */
export function reactionImage(emoji: LiveReactionT, alt: string = emoji): HTMLImageElement {
  return h("img", { class: "reaction-img", src: reactionImageUrl(emoji), alt, draggable: "false" });
}

/** The reaction as a picture with the emoji beside it for screen readers, copying and text search. */
export function reactionGlyph(emoji: LiveReactionT): HTMLElement {
  return h("span", { class: "reaction-glyph" }, reactionImage(emoji, ""), h("span", { class: "visually-hidden" }, emoji));
}
