/**
 * @module client/pages/view
 * /view/{deck} — the audience window. It shows only the slide, full-bleed on black, and
 * follows the presenter over BroadcastChannel: slide, blank, media play/pause. A clicker
 * pressed while this window has focus is forwarded to the presenter.
 */
import { openChannel, type SlideState } from "../lib/channel.ts";
import { $ } from "../lib/dom.ts";
import { sizeFrame } from "../lib/fit.ts";
import { mountMedia, type MediaContext } from "../lib/media.ts";
import { clampSlide, deckIdFromPath } from "../lib/navigation.ts";
import { paint, Renderer } from "../lib/renderer.ts";
import type { DeckExtras } from "../../../src/deck/sidecar/types.ts";
import { DeckStore } from "../storage/deck-store.ts";

/** Seconds audience media may drift from the presenter's before it is re-synced. */
const MAX_DRIFT_S = 1;

const frame = $("#frame");
const stage = $("#main");
const canvas = $("#slide") as HTMLCanvasElement;
const layer = $("#media-layer");
let renderer: Renderer;
let pageCount = 0;
let extras: DeckExtras = { notes: {}, notesSource: {}, media: [], timer: {} };
const sizes = new Map<number, { w: number; h: number }>();
let current = 0;
let token = 0;
let mediaEls = new Map<string, HTMLElement>();
let lastState: SlideState | null = null;
const mediaCtx = { muted: false, blobUrls: new Map<string, string>() } as MediaContext;

function message(text: string | null) {
  const el = $("#message");
  el.hidden = !text;
  el.textContent = text ?? "";
}

async function showSlide(slide: number) {
  const mine = ++token;
  current = slide;
  const size = sizes.get(slide) ?? sizes.get(1)!;
  const box = sizeFrame(frame, stage, size);
  const dpr = Math.min(window.devicePixelRatio || 1, 3);
  const result = await renderer.render(slide, box.w * dpr, 100).catch(() => null);
  if (mine !== token || !result) return;
  sizes.set(slide, { w: result.w, h: result.h });
  sizeFrame(frame, stage, result);
  paint(canvas, result);
  document.body.dataset.slide = String(slide);
  renderer.prefetch(slide, box.w * dpr, 2, pageCount);
  const items = extras.media.filter((m) => m.slide === slide);
  layer.replaceChildren();
  mediaEls = await mountMedia(layer, items, sizes.get(slide)!, mediaCtx, () => mine === token);
  if (lastState) syncMedia(lastState);
}

/** After a resize: repaint the slide at the new size; media keep playing. */
async function repaint() {
  if (!current) return;
  const mine = token;
  const box = sizeFrame(frame, stage, sizes.get(current) ?? sizes.get(1)!);
  const dpr = Math.min(window.devicePixelRatio || 1, 3);
  const result = await renderer.render(current, box.w * dpr, 100).catch(() => null);
  if (mine === token && result) paint(canvas, result);
}

function syncMedia(state: SlideState) {
  for (const [id, wanted] of Object.entries(state.media)) {
    const el = mediaEls.get(id);
    if (!(el instanceof HTMLMediaElement)) continue;
    if (Math.abs(el.currentTime - wanted.time) > MAX_DRIFT_S) el.currentTime = wanted.time;
    if (wanted.playing && el.paused) {
      void el.play().catch(() => {
        el.muted = true;
        void el.play().catch(() => {});
      });
    } else if (!wanted.playing && !el.paused) el.pause();
  }
}

async function apply(state: SlideState) {
  lastState = state;
  message(null);
  $("#blank-cover").hidden = !state.blank;
  document.body.classList.toggle("is-blank", state.blank);
  const slide = clampSlide(state.slide, pageCount);
  if (slide !== current) await showSlide(slide);
  else syncMedia(state);
}

function toggleFullscreen() {
  if (document.fullscreenElement) void document.exitFullscreen();
  else void document.documentElement.requestFullscreen?.().catch(() => {});
}

async function main() {
  const id = deckIdFromPath();
  let store: DeckStore;
  try {
    store = await DeckStore.open();
  } catch {
    return message("This browser refuses storage here, so the deck cannot be shown.");
  }
  const found = await store.getDeckWithBytes(id);
  if (!found) return message("This deck is not stored in this browser. Open the audience window from the presenter.");
  const { deck, bytes } = found;
  document.title = `${deck.title} — deckhand`;
  renderer = new Renderer();
  mediaCtx.renderer = renderer;
  const opened = await renderer.open(bytes);
  pageCount = opened.pageCount;
  extras = opened.extras;
  sizes.set(1, opened.firstPage);

  const channel = openChannel(deck.id, (msg) => {
    if (msg.type === "state") void apply(msg.state);
    else if (msg.type === "bye") message("The presenter window was closed. This window keeps the last slide.");
  });
  // Start where the presenter last was, then ask a live presenter for its state.
  const saved = await store.getProgress(deck.id).catch(() => undefined);
  await showSlide(clampSlide(saved ?? 1, pageCount));
  channel.post({ type: "hello" });
  document.body.dataset.ready = "true";

  document.addEventListener("click", toggleFullscreen);
  document.addEventListener("keydown", (event) => {
    if (event.key === "f" || event.key === "F") toggleFullscreen();
    else if (["ArrowRight", "ArrowDown", " ", "PageDown", "Enter"].includes(event.key)) channel.post({ type: "command", action: "next" });
    else if (["ArrowLeft", "ArrowUp", "PageUp", "Backspace"].includes(event.key)) channel.post({ type: "command", action: "prev" });
    else if (event.key === "b" || event.key === "B" || event.key === ".") channel.post({ type: "command", action: "blank" });
    else return;
    event.preventDefault();
  });
  // Hide the hint and cursor after a while: the projector shows only the slide.
  setTimeout(() => $("#hint").classList.add("fade"), 4000);
  let cursorTimer: ReturnType<typeof setTimeout> | undefined;
  document.addEventListener("mousemove", () => {
    document.body.classList.remove("hide-cursor");
    clearTimeout(cursorTimer);
    cursorTimer = setTimeout(() => document.body.classList.add("hide-cursor"), 2500);
  });
  let resizeTimer: ReturnType<typeof setTimeout> | undefined;
  new ResizeObserver(() => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => void repaint(), 150);
  }).observe(stage);
}

void main();
