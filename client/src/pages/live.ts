/**
 * @module client/pages/live
 * /live/{code} — a live viewer. It asks the server about the talk, takes the deck from this
 * browser's storage or downloads it once (resumable, digest-checked, kept), renders it with
 * the audience window's own stage (presenter/audience-stage.ts) and follows the presenter over
 * the WebSocket: slide, overlay, blank, freeze, pointer, ink, zoom and media. A late joiner
 * or a reconnect takes the snapshot of `hello`. "Following" can be left to page back on one's
 * own and is one click away ("Back to live"). The slide area shows the slide and nothing
 * else; the state screens (paused, ended, full, unknown code) cover it.
 */
import type { LiveServerMessageT } from "../../../src/shared/live-protocol.ts";
import { $, h, replace } from "../lib/dom.ts";
import { safeFilename, saveFile } from "../lib/download.ts";
import type { MediaContext } from "../lib/media.ts";
import { Renderer } from "../lib/renderer.ts";
import { keepScreenOn } from "../lib/wake-lock.ts";
import { onlyOverlaysChanged, type AudienceState } from "../presenter/audience.ts";
import { AudienceStage } from "../presenter/audience-stage.ts";
import { watchGestures } from "../presenter/gestures.ts";
import { DeckStore } from "../storage/deck-store.ts";
import { codeFromPath } from "../live/connection/code.ts";
import { DeckDownloadError, liveDeck } from "../live/connection/deck-download.ts";
import { greet, INITIAL_VIEWER, leave, receive, rejoin, shown, turn, type ViewerModel } from "../live/viewer/follow.ts";
import { LiveSocket, type Stopped } from "../live/connection/socket.ts";
import { ViewerAudience } from "../live/viewer/viewer-audience.ts";
import { localStore, viewerId } from "../live/viewer/viewer-id.ts";
import { clockOffset, shiftMedia } from "../live/connection/clock.ts";

type Screen = "loading" | "live" | "paused" | "waiting" | "ended" | "full" | "not-found" | "busy" | "error";

const els = {
  follow: $("#follow") as HTMLButtonElement,
  backLive: $("#back-live") as HTMLButtonElement,
  prev: $("#prev") as HTMLButtonElement,
  next: $("#next") as HTMLButtonElement,
  status: $("#live-status"),
  save: $("#save") as HTMLButtonElement,
  screen: $("#screen"),
  screenTitle: $("#screen-title"),
  screenText: $("#screen-text"),
  screenActions: $("#screen-actions"),
  progress: $("#progress"),
  progressBar: $("#progress-bar"),
};

const mediaCtx: MediaContext = {
  renderer: null as unknown as Renderer,
  role: "audience",
  blobUrls: new Map(),
  storedMedium: async () => undefined,
  online: () => navigator.onLine,
};
const stage = new AudienceStage(
  { frame: $("#frame"), main: $("#main"), canvas: $("#slide") as HTMLCanvasElement, mediaLayer: $("#media-layer"), blankCover: $("#blank-cover"), body: document.body },
  mediaCtx,
);

let code = "";
let model: ViewerModel = INITIAL_VIEWER;
let showing: AudienceState | null = null;
let ready = false;
let paused = false;
let ended = false;
let deckBytes: ArrayBuffer | null = null;
let filename = "deck";
let socket: LiveSocket | null = null;
let store: DeckStore | null = null;
/** Questions, poll and reactions: shown once the server's hello carries them. */
let audience: ViewerAudience | null = null;
/** Server clock minus this device's: media times arrive in the server's clock. */
let offset = 0;
/** The last media map shifted into this device's clock, so an unchanged one stays the same object. */
let shifted: { from: AudienceState["media"]; to: AudienceState["media"] } | null = null;

function localMedia(state: AudienceState): AudienceState {
  if (shifted?.from !== state.media) shifted = { from: state.media, to: shiftMedia(state.media, -offset) };
  return state.media === shifted.to ? state : { ...state, media: shifted.to };
}
(window as unknown as { __deckhand: unknown }).__deckhand = { model: () => model, shown: () => showing };

const TEXT: Record<Exclude<Screen, "live" | "loading">, { title: string; text: string }> = {
  paused: { title: "Paused", text: "The presenter is away for a moment. This page waits and carries on by itself when they are back." },
  waiting: { title: "Waiting for the presenter", text: "The talk has not started yet. It appears here by itself." },
  ended: { title: "The talk has ended", text: "Thank you for following. The presenter ended this live session." },
  full: { title: "This talk is full", text: "The talk has as many viewers as it allows, in all or from your network. Try again in a while, or ask the presenter." },
  "not-found": { title: "No talk with this code", text: "Check the code (six letters and digits) and try again from the home page." },
  busy: { title: "Too many tries", text: "This network tried many codes in a short time. Wait a minute and try again." },
  error: { title: "The talk cannot be shown", text: "Something went wrong. Reload the page to try again." },
};

function screen(kind: Screen, detail?: string): void {
  document.body.dataset.screen = kind;
  if (kind === "live") {
    els.screen.hidden = true;
    return;
  }
  els.screen.hidden = false;
  els.progress.hidden = kind !== "loading";
  if (kind === "loading") {
    replace(els.screenTitle, "Joining the talk…");
    replace(els.screenText, detail ?? "");
    replace(els.screenActions);
    return;
  }
  const text = TEXT[kind];
  replace(els.screenTitle, text.title);
  replace(els.screenText, detail ?? text.text);
  const actions: HTMLElement[] = [];
  if (kind === "ended" || kind === "not-found" || kind === "full") actions.push(h("a", { class: "btn btn-primary", href: "/" }, kind === "not-found" ? "Enter another code" : "Home"));
  // While the presenter is away (or not there yet) the deck is here: page through it meanwhile.
  if ((kind === "paused" || kind === "waiting") && ready) actions.push(h("button", { type: "button", class: "btn", id: "browse", onclick: () => browse() }, "Look through the slides meanwhile"));
  if (kind === "busy" || kind === "error" || kind === "full") actions.push(h("button", { type: "button", class: "btn", onclick: () => location.reload() }, "Try again"));
  replace(els.screenActions, ...actions);
}

function progress(fraction: number | null) {
  els.progress.hidden = false;
  els.progress.classList.toggle("indeterminate", fraction === null);
  const pct = fraction === null ? 0 : Math.round(fraction * 100);
  els.progressBar.style.width = fraction === null ? "" : `${pct}%`;
  els.progress.setAttribute("aria-valuenow", String(pct));
}

/** Show what the model says now; only the pointer moving is drawn without a full apply. */
function render(): void {
  const seen = shown(model);
  const next = seen && model.following ? localMedia(seen) : seen;
  document.body.dataset.following = String(model.following);
  els.follow.setAttribute("aria-pressed", String(model.following));
  els.backLive.hidden = model.following;
  if (ready && next) {
    if (showing && onlyOverlaysChanged(showing, next)) stage.applyOverlays(next.overlays);
    else if (next !== showing) stage.apply(next);
    showing = next;
  }
  if (document.body.dataset.socket === "open") {
    const talk = model.live.state;
    status(model.following || !talk ? "Live" : `On your own — the talk is at slide ${talk.label ?? talk.page}`);
  }
  const page = next?.page ?? 1;
  els.prev.disabled = page <= 1;
  els.next.disabled = page >= stage.pageCount;
  updateScreen();
}

function updateScreen(): void {
  if (ended || document.body.dataset.screen === "full" || document.body.dataset.screen === "not-found") return;
  if (!ready) return;
  // Paging on one's own needs no presenter: a viewer who left follow keeps the deck.
  if (paused && model.following) screen("paused");
  else if (!model.live.state && model.following) screen("waiting");
  else screen("live");
}

function status(text: string): void {
  replace(els.status, text);
}

function onMessage(message: LiveServerMessageT): void {
  audience?.receive(message);
  switch (message.type) {
    case "hello":
      offset = clockOffset(message.serverTime);
      shifted = null;
      model = greet(model, message);
      paused = message.paused;
      allowSave(message.session.allowDownload);
      break;
    case "state":
    case "pointer":
    case "ink":
      model = receive(model, message);
      break;
    case "paused":
      paused = true;
      break;
    case "resumed":
      paused = false;
      break;
    case "settings":
      allowSave(message.allowDownload);
      break;
    case "ended":
      return end();
    default:
      return;
  }
  render();
}

function onStop(stopped: Stopped): void {
  if (stopped.reason === "FULL") return screen("full");
  if (stopped.reason === "NOT_FOUND") return screen("not-found");
  end();
}

function end(): void {
  ended = true;
  socket?.close();
  audience?.stop();
  screen("ended");
  // The talk is over: its copy in this browser goes (a saved PDF stays where the viewer put it).
  void store?.deleteLiveDeck(code).catch(() => {});
}

function allowSave(allowed: boolean): void {
  els.save.hidden = !allowed;
  document.body.dataset.allowSave = String(allowed);
}

function browse(): void {
  model = leave(model, shown(model)?.page ?? 1);
  render();
}

function page(step: number): void {
  const from = shown(model)?.page ?? 1;
  model = turn(model.following ? leave(model, from) : model, from + step, stage.pageCount);
  render();
}

function wireInput(): void {
  els.follow.addEventListener("click", () => {
    model = model.following ? leave(model, shown(model)?.page ?? 1) : rejoin(model);
    render();
  });
  els.backLive.addEventListener("click", () => {
    model = rejoin(model);
    render();
  });
  els.prev.addEventListener("click", () => page(-1));
  els.next.addEventListener("click", () => page(1));
  els.save.addEventListener("click", () => {
    if (deckBytes) saveFile(deckBytes, `${safeFilename(filename)}.pdf`, "application/pdf");
  });
  document.addEventListener("keydown", (event) => {
    // Arrows page even with the focus on a bar button (Enter and Space stay the button's own).
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || (event.target as HTMLElement).closest("input, textarea, select")) return;
    if (event.key === "ArrowLeft" || event.key === "PageUp") page(-1);
    else if (event.key === "ArrowRight" || event.key === "PageDown") page(1);
    else if (event.key === "Escape" && !model.following) {
      model = rejoin(model);
      render();
    } else return;
    event.preventDefault();
  });
  watchGestures([$("#main")], () => true, (direction) => page(direction === "next" ? 1 : -1));
  let resizeTimer: ReturnType<typeof setTimeout> | undefined;
  new ResizeObserver(() => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => stage.relayout(), 150);
  }).observe($("#main"));
}

async function main(): Promise<void> {
  const parsed = codeFromPath(location.pathname);
  if (!parsed) return screen("not-found");
  code = parsed;
  document.title = `Talk ${code} — deckhand`;
  screen("loading", "Asking the server about this talk…");
  let info: { sha256: string; filename: string; allowDownload: boolean };
  try {
    const response = await fetch(`/api/live/${encodeURIComponent(code)}`, { cache: "no-store", credentials: "omit" });
    if (response.status === 404) return screen("not-found");
    if (response.status === 410) return end();
    if (response.status === 503) return screen("full");
    if (response.status === 429) return screen("busy");
    if (!response.ok) return screen("error");
    info = (await response.json()) as typeof info;
  } catch {
    return screen("error", "The server cannot be reached. Check the network, then reload.");
  }
  filename = info.filename || "deck";
  allowSave(info.allowDownload);
  store = await DeckStore.open().catch(() => null);
  screen("loading", "Downloading the slides…");
  try {
    const deck = await liveDeck(code, info.sha256, filename, store, progress);
    deckBytes = deck.data;
    document.body.dataset.deckSource = deck.source;
    await stage.open(new Renderer(), deck.data);
  } catch (error) {
    if (error instanceof DeckDownloadError && error.kind === "gone") return end();
    return screen("error", error instanceof DeckDownloadError && error.kind === "damaged" ? "The slides arrived damaged several times. Reload to try again." : "The slides could not be downloaded. Check the network, then reload.");
  }
  document.title = `${filename} — live — deckhand`;
  keepScreenOn((state) => (document.body.dataset.wakeLock = state));
  ready = true;
  wireInput();
  audience = new ViewerAudience({ send: (message) => socket?.send(message) ?? false, store: localStore() });
  socket = new LiveSocket({
    code,
    role: "viewer",
    viewerId: viewerId(localStore()),
    onMessage,
    onStatus: (s) => {
      document.body.dataset.socket = s;
      if (s !== "open") status("Reconnecting…");
      else render();
    },
    onStop,
  });
  render();
}

void main();
