/**
 * @module client/presenter/page/boot
 * The presenter window's start: the claim's picture of the first slide painted at once, the
 * deck read from IndexedDB and opened by the render worker (its sizes and labels first, a
 * skeleton before), the saved talk restored, the audience channel and the live session
 * opened, input wired, and every later change sent to the audience and live viewers, saved
 * and rendered (`onChange`). Notes, media and the pdfpc data arrive after the first slide.
 */
import { REFUSAL_DETAIL, type RefusalCode } from "../../../../src/deck/accept.ts";
import { deckIdFromPath } from "../../lib/deck-path.ts";
import { takeFirstSlide, type FirstSlide } from "../../lib/first-slide.ts";
import { $, h, replace } from "../../lib/dom.ts";
import { offlineNotice, offlineReady, registerOffline } from "../../lib/offline.ts";
import { RenderError, Renderer } from "../../lib/renderer.ts";
import { parseTimer, restoreTimer } from "../../lib/timer.ts";
import { offlineCopyNotice, storeUrlMedia } from "../../lib/url-media.ts";
import { canPlaceWindows } from "../../lib/screens.ts";
import { keepScreenOn } from "../../lib/wake-lock.ts";
import { PresenterLive } from "../../live/presenter/presenter-live.ts";
import { TalkBack } from "../../live/presenter/talk-back.ts";
import { DeckStore } from "../../storage/deck-store.ts";
import { EMPTY_EXTRAS } from "../../worker/protocol.ts";
import { getAction } from "../actions.ts";
import { audienceChanged, audienceView, onlyOverlaysChanged } from "../audience.ts";
import { AudienceWindow } from "../audience-window.ts";
import { openChannel } from "../channel.ts";
import { clampPage, layoutFromLabels, openedLayout, plainLayout, positionOf } from "../../model/deck-layout.ts";
import { notesPositionOf, parseNotesPosition, parseTimerSettings } from "../../model/deck-settings.ts";
import { parseStrokes, type Stroke } from "../ink.ts";
import { missingMoviesNotice } from "../movie-notice.ts";
import { parseSlideTimes } from "../navigation.ts";
import { parsePaceChoice } from "../../record/pace.ts";
import type { PresenterState } from "../state.ts";
import { keepPresence } from "../timer-presence.ts";
import { renderCounter, slideName } from "../views/counter-view.ts";
import { applyLayout } from "../views/layout-view.ts";
import { pageSizes } from "../views/slide-view.ts";
import { renderTimer } from "../views/timer-view.ts";
import { counterEls, els, notice, timerEls } from "./elements.ts";
import { scheduleEntryExpiry, wireInput } from "./input.ts";
import { renderPaceLine, wirePace } from "./pace.ts";
import { save, saveProgress } from "./persistence.ts";
import { recordedChannel, wireRecording } from "./recording.ts";
import { presenter, timerAway } from "./presenter.ts";
import { mountPageMedia, noteFirstSlide, onlyOverlays, render, renderNotesPane, applyTalk, scheduleOverlays, showPreviews } from "./render.ts";
import { mediaCtx, metrics, notesFile, savedInk, session, timerSettings } from "./session.ts";
import { wireDeckSettings } from "./settings.ts";
import { currentView } from "./views.ts";

/** How often the clocks redraw. */
const TICK_MS = 500;
/** Longest the side column's previews wait for the deck's rehearsal to be read (IndexedDB: milliseconds). */
const REHEARSAL_WAIT_MS = 1000;
/** Longest the render worker waits for the claim's picture to be painted (decoded beside the compile, it took ~500 ms on a loaded 2-core machine). */
const WORKER_HOLD_MS = 250;

/** In place of the stage: why this deck cannot be presented here, and the way back to the library. */
function showMissing(message: string) {
  document.body.classList.add("is-missing");
  replace($("#main"), h("div", { class: "card missing" }, h("h2", {}, "This deck cannot be presented"), h("p", {}, message), h("a", { class: "btn btn-primary", href: "/" }, "Go to your decks")));
  replace(els.title, "deckhand");
  document.body.dataset.ready = "missing";
}

/** The header's pill saying whether this window can present with no network. */
function setOfflinePill(text: string, kind: "ok" | "warn" | "info") {
  const pill = $("#offline-state");
  pill.hidden = false;
  pill.dataset.kind = kind;
  pill.textContent = text;
}

async function watchOffline() {
  const status = await registerOffline();
  const banner = offlineNotice(status);
  if (banner) {
    els.notices.append(banner);
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

/** The slide the address asks for (`#slide=N`), or 0. */
function slideFromHash(): number {
  return Number(new URLSearchParams(location.hash.slice(1)).get("slide")) || 0;
}

/**
 * The first slide as the claim rendered it (lib/first-slide), painted with the counter as soon
 * as this page runs — before its storage opens and while its mupdf still compiles; mupdf's
 * own render replaces it. Not when the address asks for another slide, and not once anything
 * was painted. The deck record read afterwards has the same size, labels and title.
 */
function prepaintFirstSlide(kept: FirstSlide) {
  const asked = slideFromHash();
  const state = presenter.current;
  const plain = kept.page === state.page && (!asked || asked === kept.page) && !state.overlays.zoom && state.blank === "none";
  if (plain && metrics.firstPaintMs === undefined) {
    session.sizes ??= pageSizes(kept.pageSize);
    if (kept.labels.length) session.layout = layoutFromLabels(kept.labels);
    if (currentView.prepaint(kept.page, kept.image, slideName(session.layout, kept.page))) {
      replace(els.title, kept.title);
      renderCounter(counterEls(), session.layout, state, kept.title);
      requestAnimationFrame(() => {
        metrics.prepaintMs = performance.now();
        noteFirstSlide();
      });
    }
  }
}

/** The claim's steps (pages/start), each in ms from the end of its download; read once. */
function claimPhases(): Record<string, number> {
  try {
    const text = sessionStorage.getItem("dh:claim-phases");
    sessionStorage.removeItem("dh:claim-phases");
    const parsed: unknown = text ? JSON.parse(text) : {};
    return parsed && typeof parsed === "object" ? Object.fromEntries(Object.entries(parsed).map(([k, v]) => [`claim.${k}`, Number(v)])) : {};
  } catch {
    return {};
  }
}

/** Size the skeleton and the counter from what the deck record knows, before mupdf loads. */
function showSkeleton() {
  if (!session.deck.pageSize) return;
  session.sizes = pageSizes(session.deck.pageSize);
  if (session.deck.labels?.length) session.layout = layoutFromLabels(session.deck.labels);
  currentView.size(presenter.current.page);
  metrics.skeletonMs = performance.now();
}

/** After the worker opened the deck: its real labels and sizes; remember them with the deck. */
function adoptOpened(opened: { pageCount: number; firstPage: { w: number; h: number }; labels: string[]; durations: Record<number, number> }) {
  session.layout = openedLayout(opened);
  session.sizes ??= pageSizes(opened.firstPage);
  session.sizes.set(1, opened.firstPage);
  const same = session.deck.pageSize && session.deck.pageSize.w === opened.firstPage.w && session.deck.pageSize.h === opened.firstPage.h && session.deck.labels?.join("\n") === session.layout.labels.join("\n");
  if (!same) void session.store.setDeckLayout(session.deck.id, { pageSize: opened.firstPage, labels: session.layout.labels }).catch(() => {});
}

/**
 * Notes, media and the pdfpc timer arrive after the first slide; then URL media are kept for
 * offline. The previews wait for `rehearsalRead` too: a rehearsal may bring the pace line.
 */
async function loadExtras(rehearsalRead: Promise<void>) {
  session.extras = await session.renderer!.extras(notesFile()).catch(() => EMPTY_EXTRAS);
  // The talk's layout (its hidden pages and end slide) first: the previews wait for the clocks.
  applyTalk();
  const state = presenter.current;
  renderNotesPane(state);
  renderTimer(timerEls(), state.timer, timerSettings());
  // The deck's duration may be the plan: the pace line as soon as it is known.
  renderPaceLine(state);
  // With the deck's rehearsal read too, the clocks have their rows: the previews are drawn at
  // their final size, once. (Bounded: a storage read that never ends costs the pace line's
  // place at worst, never the previews, the media or the notes.)
  await Promise.race([rehearsalRead, new Promise((resolve) => setTimeout(resolve, REHEARSAL_WAIT_MS))]);
  session.columnReady = true;
  const page = presenter.current.page;
  showPreviews(page);
  if (!session.stopReporting) await mountPageMedia(page);
  // Before the talk: the movies that will show only their posters (a file beside the PDF).
  const movies = missingMoviesNotice(session.extras.media, (page) => `slide ${positionOf(session.layout, page).label}`);
  if (movies) notice(movies, "warn", "movies-missing");
  document.body.dataset.extras = "ready";
  // A live talk that reached a poll's slide before the deck's polls were read opens it now.
  session.talk?.pageChanged(presenter.current.page);
  if (!navigator.onLine || !session.extras.media.some((m) => m.kind === "url")) return;
  const outcomes = await storeUrlMedia(session.deck.id, session.extras.media, session.store);
  document.body.dataset.urlMedia = "stored";
  const unkept = offlineCopyNotice(outcomes);
  if (unkept) notice(unkept, "warn", "url-media");
}

/** Every change of the presenter state: the audience window and live viewers, then storage, then this window. */
function onChange(state: PresenterState, previous: PresenterState) {
  // The audience first: a pointer's message leaves before this window paints its own copy.
  const seen = audienceView(state);
  const before = audienceView(previous);
  if (audienceChanged(seen, before)) {
    if (onlyOverlaysChanged(seen, before)) session.channel?.post({ type: "overlay", overlays: seen.overlays, at: session.overlayInputAt || performance.timeOrigin + performance.now() });
    else session.channel?.post({ type: "state", state: seen });
  }
  // Live viewers get the same; the phone remote also hears of the timer.
  session.live?.changed(state, previous);
  // A pointer or pen sample changes only the overlays: paint them once per frame and do
  // nothing else, so a fast mouse never keeps this window (and the audience, which shares
  // its browser's main thread) busy.
  if (onlyOverlays(state, previous)) {
    // The laser is drawn on the audience only (this window aims with a crosshair): a moving
    // laser leaves nothing here to paint, and even an empty frame here costs the audience's
    // frame its deadline on a busy machine (bench/pointer.ts).
    const laserOnly = state.mode === "pointer" && state.overlays.live === previous.overlays.live && state.overlays.zoom === previous.overlays.zoom;
    if (!laserOnly) scheduleOverlays();
    return;
  }
  if (state.entry !== previous.entry || state.entryAt !== previous.entryAt) scheduleEntryExpiry(state);
  // Storage next, before painting: the sooner the write starts, the less a crash or a reload loses.
  save(state, previous);
  render(state, previous);
}

/** Open the deck named by the address and present it; a deck this browser cannot show gets a card saying why. */
export async function startPresenter() {
  const id = deckIdFromPath();
  const scriptMs = performance.now();
  let pictureMs: number | undefined;
  // Decoded while storage opens: the claim's picture of the first slide, if it left one.
  const prepainted = takeFirstSlide(id).then((kept) => {
    if (!kept) return;
    pictureMs = performance.now();
    prepaintFirstSlide(kept);
  });
  applyLayout(els.stage, session.presenterLayout);
  $("#btn-swap").hidden = !canPlaceWindows();
  keepScreenOn((status) => (document.body.dataset.wakeLock = status));
  // Start the worker early: compiling mupdf's WASM overlaps reading the deck from storage.
  // With the claim's picture to decode, after it (or WORKER_HOLD_MS): on two cores the
  // compile took the CPU the picture's decode needed. Without one, a microtask later.
  const workerStarted = Promise.race([prepainted, new Promise((resolve) => setTimeout(resolve, WORKER_HOLD_MS))]).then(() => {
    session.renderer = new Renderer();
    mediaCtx.renderer = session.renderer;
  });
  const t0 = performance.now();
  void watchOffline();
  try {
    session.store = await DeckStore.open();
  } catch {
    return showMissing("This browser refuses storage here (a private window, or storage turned off), so no deck can be opened.");
  }
  const record = await session.store.getDeck(id);
  if (!record) return showMissing("This deck is not in this browser. Open it from the library of the browser that claimed it, or open the PDF again from this computer.");
  session.deck = record;
  session.notesOverride = parseNotesPosition(session.deck.notesPosition);
  session.ownTimer = parseTimerSettings(session.deck.timerSettings);
  session.audienceWindow = new AudienceWindow(session.deck.id, () => session.channel, notice);
  replace(els.title, session.deck.title);
  els.title.title = session.deck.title;
  const [saved, storedInk] = await Promise.all([session.store.getProgress(session.deck.id).catch(() => undefined), session.store.getInk(session.deck.id).catch(() => new Map<number, unknown[]>())]);
  const ink: Record<number, readonly Stroke[]> = {};
  for (const [page, strokes] of storedInk) {
    ink[page] = parseStrokes(strokes);
    savedInk.set(page, ink[page]!);
  }
  const fromHash = slideFromHash();
  // A running timer keeps running: a short gap (a reload, a crash) counts, a longer one is left
  // out — it goes on from where the last window was seen (saved.updatedAt), with a notice.
  const restored = restoreTimer(parseTimer(saved?.timer), saved?.updatedAt, Date.now());
  presenter.set({
    ...presenter.current,
    page: fromHash || saved?.slide || 1,
    timer: restored.timer,
    ink,
    bookmark: typeof saved?.bookmark === "number" ? saved.bookmark : null,
    slideTimes: parseSlideTimes(saved?.slideTimes),
    pace: parsePaceChoice(saved?.pace),
  });
  showSkeleton();
  if (session.sizes) renderCounter(counterEls(), session.layout, presenter.current, session.deck.title);

  const found = await session.store.getDeckWithBytes(id);
  await workerStarted;
  if (!found) return showMissing("This deck's PDF is no longer stored in this browser. Open it again from its link or file.");
  const t1 = performance.now();
  let opened;
  try {
    const grouping = notesFile();
    opened = await session.renderer!.open(found.bytes, { transfer: true, ...(session.notesOverride ? { notesPosition: session.notesOverride } : {}), ...(grouping ? { notesFile: grouping } : {}) });
  } catch (error) {
    const code = error instanceof RenderError ? error.code : undefined;
    return showMissing(code && code in REFUSAL_DETAIL ? REFUSAL_DETAIL[code as RefusalCode] : "The stored PDF could not be read. Delete it from the library and open it again.");
  }
  // storageMs and openMs: this window's own (from its script's start); scriptMs and pictureMs:
  // from its navigation start to its script and to the claim's picture decoded; claim.*: the claim's steps.
  metrics.phases = { storageMs: t1 - t0, openMs: performance.now() - t1, scriptMs, pictureMs, claimMs: Number(sessionStorage.getItem("dh:claim-ms")) || undefined, ...claimPhases() };
  adoptOpened(opened);
  session.detectedLayout = opened.detected;
  void session.store.touchOpened(session.deck.id).catch(() => {});
  // The split in force goes with the state: the audience and live viewers apply the same.
  presenter.set({ ...presenter.current, page: clampPage(session.layout, presenter.current.page), notesPosition: notesPositionOf(opened.layout) });
  document.body.dataset.notesPosition = notesPositionOf(opened.layout);
  document.body.dataset.notesDetected = notesPositionOf(opened.detected);

  // Tapped: what the projector is sent, a recording hears (./recording.ts).
  session.channel = recordedChannel(openChannel(session.deck.id, (message) => {
    if (message.type === "hello") {
      session.channel?.post({ type: "state", state: audienceView(presenter.current) });
      session.live?.audienceHello();
    }
    else if (message.type === "command" && getAction(message.action)?.remote) presenter.dispatch(message.action, message.arg);
    else if (message.type === "report") notice("The audience window could not show this deck: " + (message.problem === "deck-missing" ? "it is not stored in this browser." : "the browser refused to read it."), "warn", "audience-report");
  }));
  window.addEventListener("pagehide", () => session.channel?.post({ type: "bye" }));
  // An audience window that stayed open while this one reloaded gets the state (and ink) now.
  session.channel.post({ type: "state", state: audienceView(presenter.current) });

  const label = (page: number) => session.layout.labels[page - 1] ?? String(page);
  session.talk = new TalkBack({
    store: session.store,
    deckId: () => session.deck.id,
    deckTitle: () => session.deck.title,
    send: (message) => session.live?.send(message) ?? false,
    channel: () => session.channel,
    panel: $("#talk-panel"),
    body: $("#talk-body"),
    floats: $("#reaction-floats"),
    anchor: $(".current-pane"),
    page: () => presenter.current.page,
    label,
    polls: () => session.extras.polls,
    openByDefault: () => session.deck.qaOpenByDefault === true,
    setOpenByDefault: (on) => {
      session.deck = { ...session.deck, ...(on ? { qaOpenByDefault: true } : {}) };
      if (!on) delete session.deck.qaOpenByDefault;
      void session.store.setQaOpenByDefault(session.deck.id, on).catch(() => {});
    },
  });
  session.live = new PresenterLive({
    store: session.store,
    deck: () => session.deck,
    state: () => presenter.current,
    dispatch: (name, arg) => presenter.dispatch(name, arg),
    label,
    panel: $("#live-panel"),
    body: $("#live-body"),
    button: $("#btn-live"),
    tokenForm: $("#live-token") as HTMLFormElement,
    tokenInput: $("#live-token-input") as HTMLInputElement,
    channel: () => session.channel,
    anchor: $(".current-pane"),
    joinBanner: $("#join-banner"),
    talk: session.talk,
  });
  void session.live.resume();

  wireInput();
  wireDeckSettings();
  wirePace();
  const rehearsalRead = wireRecording();
  presenter.subscribe(onChange);
  render(presenter.current, null);
  if (restored.awayMs !== null) timerAway.show(restored.awayMs, restored.timer);
  keepPresence(() => presenter.current.timer.status === "running", () => saveProgress(presenter.current));
  setInterval(() => {
    renderTimer(timerEls(), presenter.current.timer, timerSettings());
    renderPaceLine();
  }, TICK_MS);
  void loadExtras(rehearsalRead);
}
