/**
 * @module client/pages/view
 * /view/{deck} — the audience window, for the projector. It shows the slide full-bleed on
 * black, its media, the stage tools (ink, the stroke being drawn, the laser pointer, the
 * spotlight, a zoomed region re-rendered sharp) and black or white screens — exactly the
 * AudienceState the presenter sends over the channel, and nothing else: no deckhand text
 * ever reaches the projector. Problems (the deck is not stored here, storage refused) go to
 * the presenter window. The one exception the speaker asks for: a live talk's join card (code,
 * QR code and viewer link — ../live/talk/join-card.ts) until the next slide; and what a live talk's
 * audience gave that the presenter chose to show (one question, a poll's results, reactions
 * when turned on — ../live/talk/talk-projection.ts). A clicker pressed while this window has focus is resolved by the
 * same key map (the user's own) and sent to the presenter. It keeps the screen on, and
 * goes where the presenter places it (Window Management API) and full screen there. With
 * Beamer's notes on a second screen, only the slide half of each page ever reaches it.
 */
import { openChannel, type Channel } from "../presenter/channel.ts";
import { deckIdFromPath } from "../lib/deck-path.ts";
import { $ } from "../lib/dom.ts";
import { keepScreenOn } from "../lib/wake-lock.ts";
import { storedMediaContext } from "../lib/stored-media.ts";
import { Renderer } from "../lib/renderer.ts";
import { getAction } from "../presenter/actions.ts";
import type { AudienceState } from "../presenter/audience.ts";
import { AudienceStage } from "../presenter/audience-stage.ts";
import { parseNotesPosition } from "../model/deck-settings.ts";
import { chordOf, pageKeepsKey, resolveKey } from "../presenter/keymap.ts";
import { browserStorage, KEYMAP_STORAGE_KEY, loadKeymap } from "../presenter/keymap-store.ts";
import { parseStrokes } from "../presenter/ink.ts";
import { NO_OVERLAYS } from "../presenter/state.ts";
import { DeckStore } from "../storage/deck-store.ts";
import { JoinCardView } from "../live/talk/join-card.ts";
import { TalkProjectionView } from "../live/talk/talk-projection.ts";

/** The pointer hides after this long without moving: the projector shows only the slide. */
const CURSOR_HIDE_MS = 2500;

let store: DeckStore;
let deckId = "";
let channel: Channel | null = null;
/** Set once the deck is open; a state that arrives earlier waits in `pending`. */
let ready = false;
let pending: AudienceState | null = null;

const storage = browserStorage();
let bindings = loadKeymap(storage);
/** Pointer latency: ms from the presenter's input event to this window's next frame (bench/pointer.ts reads it). */
const pointerLatency: number[] = [];

const mediaCtx = storedMediaContext("audience", () => store, () => deckId);

const stage = new AudienceStage(
  { frame: $("#frame"), main: $("#main"), canvas: $("#slide") as HTMLCanvasElement, mediaLayer: $("#media-layer"), blankCover: $("#blank-cover"), body: document.body },
  mediaCtx,
);
const joinCard = new JoinCardView($("#main"), $("#blank-cover"));
const talk = new TalkProjectionView($("#main"), $("#blank-cover"));
(window as unknown as { __deckhand: unknown }).__deckhand = { pointerLatency, state: () => stage.state };

/** Only the pointer or the stroke being drawn moved: draw now, and time it to the next frame. */
function applyOverlays(overlays: AudienceState["overlays"], at: number) {
  if (!stage.state) return;
  stage.applyOverlays(overlays);
  requestAnimationFrame(() => {
    pointerLatency.push(performance.timeOrigin + performance.now() - at);
    if (pointerLatency.length > 2000) pointerLatency.splice(0, 1000);
  });
}

/** The presenter placed this window (Window Management API): move there and fill the screen. */
function place(placement: { left: number; top: number; width: number; height: number }) {
  try {
    window.moveTo(placement.left, placement.top);
    window.resizeTo(placement.width, placement.height);
  } catch {
    // Not a window script may move: the presenter moved it, or the speaker drags it.
  }
  void document.documentElement.requestFullscreen?.().catch(() => {});
}

function toggleFullscreen() {
  if (document.fullscreenElement) void document.exitFullscreen();
  else void document.documentElement.requestFullscreen?.().catch(() => {});
}

function wireInput() {
  document.addEventListener("click", toggleFullscreen);
  window.addEventListener("storage", (event) => {
    if (event.key === KEYMAP_STORAGE_KEY) bindings = loadKeymap(storage);
  });
  // The presenter lends its click's permission to go full screen (Capability Delegation).
  window.addEventListener("message", (event) => {
    if (event.origin === location.origin && (event.data as { type?: string } | null)?.type === "deckhand-fullscreen") void document.documentElement.requestFullscreen?.().catch(() => {});
  });
  document.addEventListener("keydown", (event) => {
    // A clicker's F5 and Shift+F5 would reload the projector mid-talk: never the browser's here
    // either, whatever the key map binds them to (nothing, when the presenter took them off).
    if (pageKeepsKey(chordOf(event))) event.preventDefault();
    const resolved = resolveKey(event, { entry: false }, bindings);
    if (!resolved) return;
    if (resolved.action === "fullscreen") toggleFullscreen();
    else if (getAction(resolved.action)?.remote) channel?.post({ type: "command", action: resolved.action, ...(resolved.arg ? { arg: resolved.arg } : {}) });
    else return;
    event.preventDefault();
  });
  let cursorTimer: ReturnType<typeof setTimeout> | undefined;
  document.addEventListener("mousemove", () => {
    document.body.classList.remove("hide-cursor");
    clearTimeout(cursorTimer);
    cursorTimer = setTimeout(() => document.body.classList.add("hide-cursor"), CURSOR_HIDE_MS);
  });
  let resizeTimer: ReturnType<typeof setTimeout> | undefined;
  new ResizeObserver(() => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => stage.relayout(), 150);
  }).observe($("#main"));
}

async function main() {
  deckId = deckIdFromPath();
  keepScreenOn((status) => (document.body.dataset.wakeLock = status));
  channel = openChannel(deckId, (message) => {
    if (message.type === "place") return place(message.placement);
    if (message.type === "overlay") {
      if (ready) applyOverlays(message.overlays, message.at);
      else if (pending) pending = { ...pending, overlays: message.overlays };
      return;
    }
    if (message.type === "join-card") return joinCard.show(message.card);
    if (message.type === "talk") return talk.show(message.talk);
    if (message.type === "talk-reactions") return talk.react(message.counts);
    if (message.type !== "state") return;
    // The join card stays until the next slide change (or the presenter hides it).
    if (joinCard.shown && stage.state && message.state.page !== stage.state.page) joinCard.show(null);
    if (ready) stage.apply(message.state);
    else pending = message.state;
  });
  try {
    store = await DeckStore.open();
  } catch {
    return channel.post({ type: "report", problem: "storage-refused" });
  }
  const found = await store.getDeckWithBytes(deckId);
  if (!found) {
    document.body.dataset.ready = "missing";
    return channel.post({ type: "report", problem: "deck-missing" });
  }
  document.title = `${found.deck.title} — deckhand`;
  try {
    // Split as the presenter last did for this deck (its override is kept with the deck); the
    // presenter's state, when it comes, carries the split in force.
    await stage.open(new Renderer(), found.bytes, found.deck.pageSize, parseNotesPosition(found.deck.notesPosition), found.deck.notes?.pdfpc);
  } catch {
    return channel.post({ type: "report", problem: "deck-unreadable" });
  }
  wireInput();
  // Start where the presenter last was, then ask a live presenter for its state.
  const saved = await store.getProgress(deckId).catch(() => undefined);
  // The page's stored ink shows even before a presenter window answers.
  const startPage = saved?.slide ?? 1;
  const ink = parseStrokes((await store.getInk(deckId).catch(() => new Map<number, unknown[]>())).get(startPage));
  // Ready only now: a state that came in while storage was read waits in `pending` and wins.
  ready = true;
  stage.apply(pending ?? { page: startPage, blank: "none", mode: "normal", overlays: NO_OVERLAYS, ink, media: {}, frozen: false });
  channel.post({ type: "hello" });
  document.body.dataset.ready = "true";
}

void main();
