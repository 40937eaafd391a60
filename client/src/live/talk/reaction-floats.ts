/**
 * @module client/live/talk/reaction-floats
 * Reactions float up over the slide: one emoji per tap of a tick (at most FLOATS_PER_TICK),
 * each at its own place along the bottom, gone when its animation ends; the viewer page, the
 * presenter and the projector all float them so, as the pictures the binary carries
 * (./reaction-images.ts). The motion is CSS (`.reaction-float`); with prefers-reduced-motion
 * the emoji fades in place instead. An exported video floats them by the same counts
 * (client/export/float-track).
 */
import type { LiveReactionCountsT } from "../../../../src/shared/live-audience-protocol.ts";
import { h } from "../../lib/dom.ts";
import { reactionImage } from "./reaction-images.ts";
import { floatsOf } from "./talk-model.ts";

/** A burst of hundreds of taps would only blur: this many emoji float per 100 ms tick at most. */
export const FLOATS_PER_TICK = 12;
/** Floating at once, at most: a long burst stays a few dozen elements. */
export const MAX_FLOATING = 40;
/** Removed after this long even when no animationend comes (a hidden tab runs no animations). */
const FLOAT_MS = 3000;

export function floatReactions(layer: HTMLElement, counts: LiveReactionCountsT): void {
  for (const emoji of floatsOf(counts, FLOATS_PER_TICK)) {
    if (layer.childElementCount >= MAX_FLOATING) return;
    const el = h("span", { class: "reaction-float" }, reactionImage(emoji));
    el.style.left = `${5 + Math.random() * 85}%`;
    el.style.animationDelay = `${Math.round(Math.random() * 300)}ms`;
    const remove = () => el.remove();
    el.addEventListener("animationend", remove);
    setTimeout(remove, FLOAT_MS);
    layer.append(el);
  }
}
