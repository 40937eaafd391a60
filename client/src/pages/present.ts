/**
 * @module client/pages/present
 * /present/{deck} — the presenter view: current and next slide, notes, timers, overview,
 * keyboard control, media, and the audience window kept in step over BroadcastChannel.
 * Everything comes from IndexedDB and the render worker, so it works with no network.
 */
import type { DeckExtras } from "../../../src/deck/sidecar/types.ts";
import { openChannel, type SlideState } from "../lib/channel.ts";
import { $, h, replace } from "../lib/dom.ts";
import { sizeFrame } from "../lib/fit.ts";
import { formatClock } from "../lib/format.ts";
import { mountMedia, type MediaContext } from "../lib/media.ts";
import { clampSlide, deckIdFromPath, keyAction, type Action } from "../lib/navigation.ts";
import { renderNotes } from "../lib/notes.ts";
import { offlineNotice, offlineReady, registerOffline } from "../lib/offline.ts";
import { paint, Renderer } from "../lib/renderer.ts";
import { countdown, TalkTimer } from "../lib/timer.ts";
import { DeckStore, type DeckRecord } from "../storage/deck-store.ts";

/** Slides rendered ahead of the current one. */
const LOOKAHEAD = 3;

interface Metrics {
  phases?: Record<string, number | undefined>;
  firstPaintMs?: number;
  firstSlideAfterDownloadMs?: number;
  steps: number[];
  renderMs: number[];
}
const metrics: Metrics = { steps: [], renderMs: [] };
(window as unknown as { __deckhand: unknown }).__deckhand = { metrics, state: () => ({ ...state }) };

const state: SlideState = { slide: 1, blank: false, media: {} };
let deck: DeckRecord;
let store: DeckStore;
let renderer: Renderer;
let pageCount = 0;
let extras: DeckExtras = { notes: {}, notesSource: {}, media: [], timer: {} };
const pageSizes = new Map<number, { w: number; h: number }>();
let defaultPage = { w: 4, h: 3 };
let showToken = 0;
let digitBuffer = "";
const timer = new TalkTimer();
const mediaCtx = { muted: true, blobUrls: new Map<string, string>() } as MediaContext;
let mediaEls = new Map<string, HTMLElement>();
let channel: ReturnType<typeof openChannel>;

const currentBox = $("#current-box");
const currentFrame = $("#current-frame");
const currentCanvas = $("#current") as HTMLCanvasElement;
const nextBox = $("#next-box");
const nextFrame = $("#next-frame");
const nextCanvas = $("#next") as HTMLCanvasElement;
const mediaLayer = $("#media-layer");

function sizeOf(slide: number) {
  return pageSizes.get(slide) ?? defaultPage;
}

function dpr() {
  return Math.min(window.devicePixelRatio || 1, 3);
}

function broadcast() {
  channel?.post({ type: "state", state: { ...state, media: { ...state.media } } });
}

function collectMediaState() {
  state.media = {};
  for (const [id, el] of mediaEls) {
    if (el instanceof HTMLMediaElement) state.media[id] = { playing: !el.paused, time: el.currentTime };
  }
}

function showNotes(slide: number) {
  const notes = extras.notes[slide];
  const target = $("#notes");
  if (notes && notes.trim()) replace(target, renderNotes(notes));
  else replace(target, h("p", { class: "muted notes-empty" }, "No notes for this slide."));
}

function updateCounter() {
  replace($("#counter"), h("strong", {}, String(state.slide)), ` / ${pageCount}`);
  document.title = `${state.slide}/${pageCount} · ${deck.title} — deckhand`;
  ($("#btn-prev") as HTMLButtonElement).disabled = state.slide <= 1;
  ($("#btn-next") as HTMLButtonElement).disabled = state.slide >= pageCount;
}

async function show(slide: number, startedAt = performance.now()) {
  const token = ++showToken;
  state.slide = clampSlide(slide, pageCount);
  state.media = {};
  updateCounter();
  showNotes(state.slide);
  broadcast();
  void store.saveProgress(deck.id, state.slide).catch(() => {});
  mediaLayer.replaceChildren();
  mediaEls = new Map();

  const width = await paintCurrent(token);
  if (token !== showToken) return;
  requestAnimationFrame(() => {
    if (token !== showToken) return;
    const elapsed = performance.now() - startedAt;
    if (metrics.firstPaintMs === undefined) {
      metrics.firstPaintMs = performance.now();
      const downloadEnd = Number(sessionStorage.getItem("dh:download-end"));
      if (downloadEnd > 0) {
        metrics.firstSlideAfterDownloadMs = performance.timeOrigin + performance.now() - downloadEnd;
        sessionStorage.removeItem("dh:download-end");
      }
      document.body.dataset.ready = "true";
    } else metrics.steps.push(elapsed);
    document.body.dataset.slide = String(state.slide);
  });

  void showNext(token);
  renderer.prefetch(state.slide, width, LOOKAHEAD, pageCount);
  const items = extras.media.filter((m) => m.slide === state.slide);
  const mounted = await mountMedia(mediaLayer, items, sizeOf(state.slide), mediaCtx, () => token === showToken);
  if (token !== showToken) {
    return;
  }
  mediaEls = mounted;
  for (const el of mediaEls.values()) {
    if (el instanceof HTMLMediaElement) {
      for (const ev of ["play", "pause", "seeked"]) {
        el.addEventListener(ev, () => {
          collectMediaState();
          broadcast();
        });
      }
    }
  }
  collectMediaState();
  broadcast();
}

/** Render the current slide at the frame's size; returns the width rendered at. */
async function paintCurrent(token: number): Promise<number> {
  const box = sizeFrame(currentFrame, currentBox, sizeOf(state.slide));
  const width = box.w * dpr();
  const result = await renderer.render(state.slide, width, 100).catch((error: Error) => {
    console.error(error);
    return null;
  });
  if (token !== showToken || !result) return width;
  pageSizes.set(state.slide, { w: result.w, h: result.h });
  const fitted = sizeFrame(currentFrame, currentBox, result);
  metrics.renderMs.push(result.ms);
  if (Math.abs(fitted.w * dpr() - result.bitmap.width) > 2) {
    // This page has another size than guessed: render again at the exact width.
    const exact = await renderer.render(state.slide, fitted.w * dpr(), 100).catch(() => null);
    if (token !== showToken) return width;
    paint(currentCanvas, exact ?? result);
    return fitted.w * dpr();
  }
  paint(currentCanvas, result);
  currentFrame.dataset.slide = String(state.slide);
  return width;
}

/** After a resize: repaint at the new size without restarting media. */
async function relayout() {
  if (!pageCount) return;
  const token = showToken;
  await paintCurrent(token);
  void showNext(token);
}

async function showNext(token: number) {
  const next = state.slide + 1;
  const end = $("#end-card");
  if (next > pageCount) {
    sizeFrame(nextFrame, nextBox, sizeOf(state.slide));
    nextCanvas.hidden = true;
    end.hidden = false;
    return;
  }
  nextCanvas.hidden = false;
  end.hidden = true;
  const box = sizeFrame(nextFrame, nextBox, sizeOf(next));
  const result = await renderer.render(next, box.w * dpr(), 90).catch(() => null);
  if (token !== showToken || !result) return;
  pageSizes.set(next, { w: result.w, h: result.h });
  sizeFrame(nextFrame, nextBox, result);
  paint(nextCanvas, result);
}

function setBlank(blank: boolean) {
  state.blank = blank;
  $("#blank-cover").hidden = !blank;
  $("#btn-blank").setAttribute("aria-pressed", String(blank));
  document.body.classList.toggle("is-blank", blank);
  broadcast();
}

function openAudience() {
  const win = window.open(`/view/${encodeURIComponent(deck.id)}`, `deckhand-audience-${deck.id}`, "popup,width=1280,height=720");
  if (!win) alert("The browser blocked the audience window. Allow pop-ups for this site, or open /view/" + deck.id + " in a new window.");
}

function toggleFullscreen() {
  if (document.fullscreenElement) void document.exitFullscreen();
  else void document.documentElement.requestFullscreen?.().catch(() => {});
}

function toggleOverlay(id: "overview" | "help", open?: boolean) {
  const el = $(`#${id}`);
  const shouldOpen = open ?? el.hidden;
  for (const other of ["overview", "help"]) if (other !== id) $(`#${other}`).hidden = true;
  el.hidden = !shouldOpen;
  if (id === "overview") {
    $("#btn-overview").setAttribute("aria-pressed", String(shouldOpen));
    if (shouldOpen) openOverview();
  }
  if (shouldOpen) (el.querySelector("button") as HTMLElement | null)?.focus();
}

let overviewBuilt = false;
function openOverview() {
  const grid = $("#overview-grid");
  if (!overviewBuilt) {
    overviewBuilt = true;
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        const canvas = entry.target as HTMLCanvasElement;
        const n = Number(canvas.dataset.page);
        void renderer.renderOnce(n, 280 * dpr(), 5).then((r) => {
          paint(canvas, r);
          r.bitmap.close();
        }, () => {});
      }
    }, { root: $("#overview") });
    for (let n = 1; n <= pageCount; n++) {
      const canvas = h("canvas", { "data-page": n, "aria-hidden": "true" });
      const size = sizeOf(n);
      canvas.style.aspectRatio = `${size.w} / ${size.h}`;
      const button = h("button", { type: "button", class: "thumb", "aria-label": `Go to slide ${n}` }, canvas, h("span", { class: "thumb-num" }, String(n)));
      button.addEventListener("click", () => {
        toggleOverlay("overview", false);
        void show(n);
      });
      grid.append(h("li", {}, button));
      observer.observe(canvas);
    }
  }
  for (const [i, li] of Array.from(grid.children).entries()) li.classList.toggle("is-current", i + 1 === state.slide);
  grid.children[state.slide - 1]?.scrollIntoView({ block: "center" });
  (grid.children[state.slide - 1]?.querySelector("button") as HTMLElement | null)?.focus();
}

function act(action: Action) {
  if (!action) return false;
  const started = performance.now();
  if (action.type !== "digit") digitBuffer = "";
  switch (action.type) {
    case "next":
      if (state.slide < pageCount) void show(state.slide + 1, started);
      break;
    case "prev":
      if (state.slide > 1) void show(state.slide - 1, started);
      break;
    case "first":
      void show(1, started);
      break;
    case "last":
      void show(pageCount, started);
      break;
    case "goto":
      void show(action.slide, started);
      break;
    case "digit":
      digitBuffer = action.buffer;
      break;
    case "blank":
      setBlank(!state.blank);
      break;
    case "fullscreen":
      toggleFullscreen();
      break;
    case "overview":
      toggleOverlay("overview");
      break;
    case "help":
      toggleOverlay("help");
      break;
    case "audience":
      openAudience();
      break;
    case "timer-toggle":
      timer.toggle();
      tick();
      break;
    case "timer-reset":
      timer.reset();
      tick();
      break;
    case "escape":
      $("#overview").hidden = true;
      $("#help").hidden = true;
      $("#btn-overview").setAttribute("aria-pressed", "false");
      break;
  }
  const goto = $("#goto");
  goto.hidden = !digitBuffer;
  replace(goto, digitBuffer ? `Go to ${digitBuffer} ⏎` : "");
  return true;
}

function onKey(event: KeyboardEvent) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target as HTMLElement;
  const overlayOpen = !$("#overview").hidden || !$("#help").hidden;
  // Buttons keep their own Enter/Space; in an open overlay only Escape and the toggles act.
  if ((event.key === "Enter" || event.key === " ") && target.closest("button, a") && !digitBuffer) return;
  if (overlayOpen && !["Escape", "g", "G", "o", "?"].includes(event.key)) return;
  if (act(keyAction(event.key, digitBuffer))) event.preventDefault();
}

function tick() {
  const elapsed = timer.elapsedSeconds();
  replace($("#elapsed"), formatClock(elapsed));
  $("#btn-timer").textContent = timer.running ? "Pause" : "Resume";
  $("#elapsed").classList.toggle("paused", !timer.running);
  const cd = countdown(extras.timer, elapsed);
  const box = $("#countdown-box");
  box.hidden = !cd;
  if (cd) {
    replace($("#countdown"), formatClock(cd.remainingSeconds));
    box.dataset.state = cd.state;
  }
  replace($("#wallclock"), new Date().toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" }));
}

function showMissing(message: string) {
  document.body.classList.add("is-missing");
  replace($("#main"), h("div", { class: "card missing" }, h("h2", {}, "This deck is not in this browser"), h("p", {}, message), h("a", { class: "btn btn-primary", href: "/" }, "Go to your decks")));
  replace($("#deck-title"), "deckhand");
  document.body.dataset.ready = "missing";
}

function setOfflinePill(text: string, kind: "ok" | "warn" | "info") {
  const pill = $("#offline-state");
  pill.hidden = false;
  pill.dataset.kind = kind;
  pill.textContent = text;
}

async function watchOffline() {
  const status = await registerOffline();
  const notice = offlineNotice(status);
  if (notice) {
    $("#notices").append(notice);
    setOfflinePill("Online only", "warn");
    return;
  }
  const update = async () => {
    if (!navigator.onLine) setOfflinePill("Offline — presenting from this browser", "info");
    else if (await offlineReady(0)) setOfflinePill("Ready offline", "ok");
  };
  window.addEventListener("online", () => void update());
  window.addEventListener("offline", () => void update());
  if (!navigator.onLine) await update();
  if (await offlineReady()) {
    document.body.dataset.offline = "ready";
    await update();
  }
}

async function main() {
  const id = deckIdFromPath();
  // Start the worker first: compiling mupdf's WASM overlaps reading the deck from storage.
  renderer = new Renderer();
  mediaCtx.renderer = renderer;
  const t0 = performance.now();
  void watchOffline();
  try {
    store = await DeckStore.open();
  } catch {
    return showMissing("This browser refuses storage here (a private window, or storage turned off), so no deck can be opened.");
  }
  const found = await store.getDeckWithBytes(id);
  if (!found) return showMissing("Open it from the library of the browser that claimed it, or open the PDF again from this computer.");
  deck = found.deck;
  const { bytes } = found;
  replace($("#deck-title"), deck.title);
  const t1 = performance.now();
  let opened;
  try {
    opened = await renderer.open(bytes, { transfer: true });
  } catch (error) {
    console.error(error);
    return showMissing("The stored PDF could not be read. Delete it from the library and open it again.");
  }
  const t2 = performance.now();
  metrics.phases = { storageMs: t1 - t0, openMs: t2 - t1, claimMs: Number(sessionStorage.getItem("dh:claim-ms")) || undefined };
  pageCount = opened.pageCount;
  extras = opened.extras;
  defaultPage = opened.firstPage;
  pageSizes.set(1, opened.firstPage);
  void store.touchOpened(deck.id).catch(() => {});

  channel = openChannel(deck.id, (message) => {
    if (message.type === "hello") broadcast();
    else if (message.type === "command") act(message.action === "blank" ? { type: "blank" } : { type: message.action });
  });
  window.addEventListener("pagehide", () => channel.post({ type: "bye" }));

  document.addEventListener("keydown", onKey);
  $("#btn-next").addEventListener("click", () => act({ type: "next" }));
  $("#btn-prev").addEventListener("click", () => act({ type: "prev" }));
  $("#btn-blank").addEventListener("click", () => act({ type: "blank" }));
  $("#btn-fullscreen").addEventListener("click", toggleFullscreen);
  $("#btn-overview").addEventListener("click", () => toggleOverlay("overview"));
  $("#overview-close").addEventListener("click", () => toggleOverlay("overview", false));
  $("#btn-help").addEventListener("click", () => toggleOverlay("help"));
  $("#help-close").addEventListener("click", () => toggleOverlay("help", false));
  $("#btn-audience").addEventListener("click", openAudience);
  $("#btn-timer").addEventListener("click", () => act({ type: "timer-toggle" }));
  $("#btn-timer-reset").addEventListener("click", () => act({ type: "timer-reset" }));
  currentFrame.addEventListener("click", () => act({ type: "next" }));

  let resizeTimer: ReturnType<typeof setTimeout> | undefined;
  new ResizeObserver(() => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => void relayout(), 120);
  }).observe(currentBox);

  timer.start();
  tick();
  setInterval(tick, 500);
  const saved = await store.getProgress(deck.id).catch(() => undefined);
  const fromHash = Number(new URLSearchParams(location.hash.slice(1)).get("slide"));
  await show(clampSlide(fromHash || saved || 1, pageCount));
}

void main();
