/**
 * @module client/pages/present
 * /present/{deck} — the presenter window. It wires the pieces together and holds no
 * presenting logic of its own: the state and its named actions live in client/presenter/,
 * the key map in client/presenter/keymap.ts (the user's own from keymap-store.ts), and the
 * views render the state. Keys, buttons, the stage tools on the slide, swipes, the wheel and
 * the audience window's clicker all dispatch actions; every change is rendered, saved with
 * the deck (page, timer, bookmark, slide times, ink) or per browser (notes size, wheel,
 * layout, keys), and — the audience part only — sent to the audience window. Everything
 * comes from IndexedDB and the render worker, so it works with no network.
 *
 * A deck whose pages carry their notes (Beamer's notes on a second screen) is split by the
 * render worker: every slide shown here and on every other screen is the slide half. The
 * notes pane shows the notes half's text (or, toggled, its picture); the deck's layout can be
 * overridden per deck (kept with it), and the audience and live viewers follow the override.
 */
import { REFUSAL_DETAIL, type RefusalCode } from "../../../src/deck/accept.ts";
import { NO_NOTES_LAYOUT, type NotesLayout, type NotesPosition } from "../../../src/deck/notes-layout.ts";
import type { DeckExtras, TimerSettings } from "../../../src/deck/sidecar/types.ts";
import { openChannel, type Channel } from "../presenter/channel.ts";
import { deckIdFromPath } from "../lib/deck-path.ts";
import { takeFirstSlide, type FirstSlide } from "../lib/first-slide.ts";
import { $, h, replace } from "../lib/dom.ts";
import { failMedium, mountMedia, type MediaContext } from "../lib/media.ts";
import { offlineNotice, offlineReady, registerOffline } from "../lib/offline.ts";
import { RenderError, Renderer } from "../lib/renderer.ts";
import { parseTimer, restoreTimer } from "../lib/timer.ts";
import { offlineCopyNotice, storeUrlMedia } from "../lib/url-media.ts";
import { saveFile } from "../lib/download.ts";
import { canPlaceWindows } from "../lib/screens.ts";
import { keepScreenOn } from "../lib/wake-lock.ts";
import { getAction, type ActionName, type Effect } from "../presenter/actions.ts";
import { audienceChanged, audienceView, onlyOverlaysChanged } from "../presenter/audience.ts";
import { AudienceWindow } from "../presenter/audience-window.ts";
import { clampPage, layoutFromLabels, nextStepPage, plainLayout, positionOf, previewPage, withTalk, type DeckLayout } from "../presenter/deck-layout.ts";
import { entryExpiresIn, entryPending } from "../presenter/entry.ts";
import { effectiveTimer, parseNotesPosition, parseTimerSettings, notesPositionOf, readTimerInputs, timerInputsOf } from "../presenter/deck-settings.ts";
import { downloadDeck, exportName, inkForExport } from "../presenter/export.ts";
import { watchGestures } from "../presenter/gestures.ts";
import { parseStrokes, type Stroke } from "../presenter/ink.ts";
import { chordOf, resolveChord, type Binding } from "../presenter/keymap.ts";
import { browserStorage, KEYMAP_STORAGE_KEY, loadKeymap, resetKeymap, saveKeymap } from "../presenter/keymap-store.ts";
import { loadLayout, resetLayout, saveLayout, type PresenterLayout } from "../presenter/layout.ts";
import { reportMedia } from "../presenter/media-sync.ts";
import { parseSlideTimes, slideTimesNow } from "../presenter/navigation.ts";
import { loadPreferences, savePreferences } from "../presenter/preferences.ts";
import { watchSlideInput } from "../presenter/slide-input.ts";
import { initialState, type PresenterState } from "../presenter/state.ts";
import { PresenterStore } from "../presenter/store.ts";
import { renderCounter, slideName } from "../presenter/views/counter-view.ts";
import { KeysView } from "../presenter/views/keys-view.ts";
import { applyLayout, renderLayoutEditor, watchSplitters } from "../presenter/views/layout-view.ts";
import { NotesView } from "../presenter/views/notes-view.ts";
import { OverlayView } from "../presenter/views/overlay-view.ts";
import { OverviewView } from "../presenter/views/overview-view.ts";
import { pageSizes, SlideView, type PageSizes } from "../presenter/views/slide-view.ts";
import { renderTimer, TimerAwayView } from "../presenter/views/timer-view.ts";
import { keepPresence } from "../presenter/timer-presence.ts";
import { renderTimes, timeRows, timesCsv } from "../presenter/views/times-view.ts";
import { renderToolbox } from "../presenter/views/toolbox-view.ts";
import { watchMenu } from "../presenter/views/menu-view.ts";
import { EMPTY_EXTRAS } from "../worker/protocol.ts";
import { PresenterLive } from "../live/presenter-live.ts";
import { DeckStore, type DeckRecord } from "../storage/deck-store.ts";

/** Slides rendered ahead of the current one. */
const LOOKAHEAD = 3;
/** How often the clocks redraw. */
const TICK_MS = 500;
/** A page size until mupdf has read the deck: 16:9 in points. */
const GUESS_SIZE = { w: 720, h: 405 };
/** Panels that take the keyboard: only the keys that close them act on the talk meanwhile. */
const MODAL_PANELS = new Set(["overview", "help", "goto", "times", "export"]);

interface Metrics {
  phases?: Record<string, number | undefined>;
  /** performance.now() when the skeleton had the slide's final size. */
  skeletonMs?: number;
  /** performance.now() when mupdf's own render of the first slide was on screen. */
  firstPaintMs?: number;
  /** performance.now() when the claim's picture of the first slide was (lib/first-slide), if it was. */
  prepaintMs?: number;
  /** From the end of the claim's download to the first sharp slide on screen, whichever painted it. */
  firstSlideAfterDownloadMs?: number;
  steps: number[];
}
const metrics: Metrics = { steps: [] };
const storage = browserStorage();

const els = {
  title: $("#deck-title"),
  notices: $("#notices"),
  currentBox: $("#current-box"),
  currentFrame: $("#current-frame"),
  current: $("#current") as HTMLCanvasElement,
  mediaLayer: $("#media-layer"),
  blankCover: $("#blank-cover"),
  blankText: $("#blank-text"),
  nextBox: $("#next-box"),
  nextFrame: $("#next-frame"),
  next: $("#next") as HTMLCanvasElement,
  endCard: $("#end-card"),
  nextLabel: $("#next-label"),
  stepLabel: $("#step-label"),
  stepBox: $("#step-box"),
  stepFrame: $("#step-frame"),
  step: $("#step") as HTMLCanvasElement,
  stepEnd: $("#step-end"),
  counter: $("#counter"),
  steps: $("#steps"),
  entry: $("#goto"),
  prev: $("#btn-prev") as HTMLButtonElement,
  nextBtn: $("#btn-next") as HTMLButtonElement,
  overview: $("#overview"),
  help: $("#help"),
  wheelSetting: $("#setting-wheel") as HTMLInputElement,
  stage: $("#main"),
  toolbox: $("#toolbox"),
  gotoPanel: $("#goto-panel") as HTMLFormElement,
  gotoInput: $("#goto-input") as HTMLInputElement,
  layoutEditor: $("#layout-editor"),
  timesPanel: $("#times-panel"),
  exportPanel: $("#export-panel"),
};

let deck: DeckRecord;
let store: DeckStore;
let renderer: Renderer | null = null;
let layout: DeckLayout = plainLayout(1);
let sizes: PageSizes | null = null;
let extras: DeckExtras = EMPTY_EXTRAS;
let channel: Channel | null = null;
let stopReporting: (() => void) | null = null;
let mediaToken = 0;
/** When the key or click that started the current step happened (for the step metric). */
let stepStartedAt = 0;
/** Epoch ms of the pointer event behind the latest overlay change (the audience measures latency from it). */
let overlayInputAt = 0;
let bindings: Binding[] = loadKeymap(storage);
let presenterLayout: PresenterLayout = loadLayout(storage);
let audienceWindow: AudienceWindow | null = null;
/** What the deck says about its notes layout (from the worker), and the speaker's override for it. */
let detectedLayout: NotesLayout = NO_NOTES_LAYOUT;
let notesOverride: NotesPosition | null = null;
/** The speaker's own timer settings for this deck (override the deck's). */
let ownTimer: TimerSettings | undefined;
const { notesPicture: notesPictureSaved, ...preferences } = loadPreferences();
/** Notes from a notes half shown as its picture (remembered per browser). */
let notesPicture = notesPictureSaved ?? false;
let live: PresenterLive | null = null;
/** What ink is stored, per page, so only pages that changed are written. */
const savedInk = new Map<number, readonly Stroke[]>();

const pageSize = (page: number) => sizes?.get(page) ?? GUESS_SIZE;
const presenter = new PresenterStore(initialState(preferences), () => ({ layout, now: Date.now(), pageSize }), runEffect);
(window as unknown as { __deckhand: unknown }).__deckhand = { metrics, state: () => presenter.current, layout: () => layout, bindings: () => bindings, extras: () => extras, timerSettings: () => timerSettings() };

/** The timer's settings in force: the speaker's over the deck's (.pdfpc file, attached .pdfpc, XMP). */
const timerSettings = (): TimerSettings => effectiveTimer(extras.timer, ownTimer);

const currentView = new SlideView(els.currentFrame, els.currentBox, els.current, () => renderer, () => sizes, 100);
const nextView = new SlideView(els.nextFrame, els.nextBox, els.next, () => renderer, () => sizes, 90);
// pdfpc's "next overlay" preview: what the next click reveals on this slide.
const stepView = new SlideView(els.stepFrame, els.stepBox, els.step, () => renderer, () => sizes, 80);
const notesView = new NotesView($("#notes"));
// After a long gap the timer waits stopped; the speaker continues or resets it in one click.
const timerAway = new TimerAwayView($(".clock-pane"), (choice) => presenter.dispatch(choice === "continue" ? "timerStart" : "timerReset"));
// The laser dot is drawn on the audience window only; this window aims with a crosshair.
const overlayView = new OverlayView(els.currentFrame, els.mediaLayer, $("#zoom-box"), false);
const keysView = new KeysView({
  list: $("#keys"),
  status: $("#keys-status"),
  bindings: () => bindings,
  change: (next) => {
    bindings = next;
    saveKeymap(storage, next);
  },
});
const overviewView = new OverviewView(els.overview, $("#overview-grid"), (page) => {
  presenter.dispatch("goToPage", page);
  if (presenter.current.panel === "overview") presenter.dispatch("overview");
});

const mediaCtx: MediaContext = {
  renderer: null as unknown as Renderer,
  role: "presenter",
  blobUrls: new Map(),
  storedMedium: async (url) => {
    const record = await store.getMediaFile(deck.id, url);
    return record ? { data: record.data, mime: record.mime } : undefined;
  },
  online: () => navigator.onLine,
};

/** A message for the speaker above the stage, with a button to put it away. */
function notice(text: string, kind: "warn" | "info" = "info", id?: string): void {
  if (id) document.getElementById(id)?.remove();
  const el = h("div", { class: `notice notice-dismissable notice-${kind === "warn" ? "warn" : "ok"}`, role: "status", id }, h("span", {}, text));
  el.append(h("button", { type: "button", class: "btn btn-small btn-ghost", onclick: () => el.remove() }, "Dismiss"));
  els.notices.append(el);
}

// ---- effects: what only the page can do --------------------------------------------------

function toggleTheme() {
  changeLayout({ ...presenterLayout, theme: presenterLayout.theme === "dark" ? "light" : "dark" }, true);
}

function toggleFullscreen() {
  if (document.fullscreenElement) void document.exitFullscreen();
  else void document.documentElement.requestFullscreen?.().catch(() => {});
}

function runEffect(effect: Effect) {
  if (effect === "fullscreen") toggleFullscreen();
  else if (effect === "open-audience") void audienceWindow?.open();
  else if (effect === "swap-screens") void audienceWindow?.swap();
  else if (effect === "theme") toggleTheme();
  else if (effect === "live") live?.toggle();
  else if (effect === "notes-down") notesView.scroll(1);
  else if (effect === "notes-up") notesView.scroll(-1);
}

// ---- rendering the state -----------------------------------------------------------------

async function showPage(page: number) {
  const startedAt = stepStartedAt || performance.now();
  stepStartedAt = 0;
  stopReporting?.();
  stopReporting = null;
  els.mediaLayer.replaceChildren();
  const label = slideName(layout, page);
  currentView.zoom = presenter.current.overlays.zoom;
  const width = await currentView.show(page, label);
  if (width === null || presenter.current.page !== page) return;
  currentView.describe(page, label);
  requestAnimationFrame(() => {
    if (presenter.current.page !== page) return;
    if (metrics.firstPaintMs === undefined) {
      metrics.firstPaintMs = performance.now();
      noteFirstSlide();
      document.body.dataset.ready = "true";
    } else metrics.steps.push(performance.now() - startedAt);
  });
  showPreviews(page);
  renderer?.prefetch(page, width, LOOKAHEAD, layout.pageCount);
  await mountPageMedia(page);
}

/**
 * The next slide finished and, in a deck with builds, pdfpc's next-step preview: the page the
 * next click shows on this slide, or a card saying the next click leaves the slide. A deck
 * without builds never shows the step box (its space stays with the next slide).
 */
function showPreviews(page: number) {
  const preview = previewPage(layout, page);
  els.endCard.hidden = preview !== null;
  els.next.hidden = preview === null;
  if (preview !== null) void nextView.show(preview, `Next: ${slideName(layout, preview)}`);
  else nextView.size(page);
  // Past pdfpc's end slide come the backup slides: the speaker sees where the talk ends.
  const backup = preview !== null && positionOf(layout, preview).backup;
  replace(els.nextLabel, backup ? "Next: a backup slide" : "Next slide");
  const builds = layout.slides.length < layout.pageCount;
  els.stepLabel.hidden = els.stepBox.hidden = !builds;
  $("#previews").classList.toggle("has-step", builds);
  if (builds) showStep(page);
}

/** The next-step preview for `page`: the page the next click shows on this slide, or a card. */
function showStep(page: number) {
  const step = nextStepPage(layout, page);
  els.stepEnd.hidden = step !== null;
  els.step.hidden = step === null;
  document.body.dataset.nextStep = String(step ?? "");
  if (step === null) {
    replace(els.stepEnd, positionOf(layout, page).steps > 1 ? "Last step — Next goes to the next slide" : "No build on this slide");
    stepView.size(page);
    return;
  }
  // A phone's layout leaves the preview out: nothing to render at no size (a resize brings it back).
  if (!els.stepBox.getClientRects().length) return;
  void stepView.show(step, `Next step: ${slideName(layout, step)}`);
}

/**
 * What the deck's pdfpc data says about the talk — pages hidden in pdfpc and the end slide
 * (a .pdfpc's endSlide, pdfpc.sty's EndUserSlide) — applied to the layout: Next passes the
 * hidden pages by, the counter counts to the end slide and End goes there.
 */
function applyTalk() {
  layout = withTalk(layout, { hidden: extras.hidden, endSlide: timerSettings().endSlide });
  document.body.dataset.hiddenPages = String(layout.hidden?.size ?? 0);
  document.body.dataset.endSlide = layout.endSlide === undefined ? "" : String(layout.endSlide + 1);
  const state = presenter.current;
  renderCounter({ counter: els.counter, steps: els.steps, entry: els.entry, prev: els.prev, next: els.nextBtn }, layout, state, deck?.title ?? "deckhand");
  showPreviews(state.page);
}

async function mountPageMedia(page: number) {
  const token = ++mediaToken;
  const items = extras.media.filter((m) => m.slide === page);
  if (!items.length || !sizes) return;
  const list = await mountMedia(els.mediaLayer, items, sizes.get(page), mediaCtx, () => token === mediaToken && presenter.current.page === page);
  if (token !== mediaToken) return;
  const playing = new Map<string, HTMLMediaElement>();
  const autoplay = new Set<string>();
  for (const m of list) {
    if (!(m.element instanceof HTMLMediaElement)) continue;
    playing.set(m.media.id, m.element);
    if (m.media.autoplay) {
      autoplay.add(m.media.id);
      void m.element.play().catch((error: { name?: string }) => {
        // The load failed: a damaged stored file, or a network medium whose server is gone.
        if (error?.name === "NotSupportedError") failMedium(m, "presenter");
      });
    }
  }
  stopReporting = reportMedia(playing, autoplay, (id, playback) => presenter.dispatch("media", { id, playback }));
  document.body.dataset.media = String(list.length);
}

function renderPanels(state: PresenterState, previous: PresenterState | null) {
  if (previous && state.panel === previous.panel) return;
  els.overview.hidden = state.panel !== "overview";
  els.help.hidden = state.panel !== "help";
  els.gotoPanel.hidden = state.panel !== "goto";
  els.layoutEditor.hidden = state.panel !== "layout";
  els.timesPanel.hidden = state.panel !== "times";
  els.exportPanel.hidden = state.panel !== "export";
  for (const [id, panel] of [["#btn-overview", "overview"], ["#btn-help", "help"], ["#btn-layout", "layout"], ["#btn-times", "times"], ["#btn-export", "export"]] as const) {
    $(id).setAttribute("aria-pressed", String(state.panel === panel));
  }
  document.body.dataset.panel = state.panel;
  if (state.panel === "overview" && renderer && sizes) overviewView.open(layout, renderer, sizes, state.page);
  else if (state.panel === "help") {
    keysView.render();
    renderDeckSettings();
    $("#help-close").focus();
  } else if (state.panel === "goto") {
    els.gotoInput.value = "";
    replace($("#goto-status"), "");
    els.gotoInput.focus();
  } else if (state.panel === "layout") renderLayoutEditor(layoutDeps);
  else if (state.panel === "times") {
    renderTimes($("#times-table"), $("#times-summary"), currentTimeRows());
    $("#times-csv").focus();
  } else if (state.panel === "export") focusDefaultDownload(state);
  else if (previous && previous.panel !== "none") {
    const open = [els.overview, els.help, els.gotoPanel, els.layoutEditor, els.timesPanel, els.exportPanel];
    if (open.some((p) => p.contains(document.activeElement))) (document.activeElement as HTMLElement | null)?.blur();
  }
}

/** Whether pages carry a notes half now (then the notes may show as its picture). */
function hasNotesHalf(state: PresenterState): boolean {
  return !!state.notesPosition && state.notesPosition !== "none";
}

/** The notes of the current page: text (markdown), or the notes half's picture when toggled. */
function renderNotesPane(state: PresenterState) {
  const half = hasNotesHalf(state);
  const toggle = $("#btn-notes-picture");
  toggle.hidden = !half;
  toggle.setAttribute("aria-pressed", String(half && notesPicture));
  if (half && notesPicture && renderer) void notesView.picture(state.page, renderer.notesPicture(state.page, notesView.pictureWidth()).catch(() => null));
  else notesView.render(state.page, extras.notes[state.page], state.notesScale);
  document.body.dataset.notesView = half && notesPicture ? "picture" : "text";
}

function toggleNotesPicture() {
  notesPicture = !notesPicture;
  notesView.reset();
  renderNotesPane(presenter.current);
  const s = presenter.current;
  savePreferences({ notesScale: s.notesScale, wheelNavigation: s.wheelNavigation, notesPicture });
}

// ---- this deck's settings: notes layout and timer --------------------------------------------

/** The deck's notes file (a .pdfpc beside the PDF, stored with the deck by the claim or the library). */
function notesFile(): string | undefined {
  return typeof deck.notes?.pdfpc === "string" ? deck.notes.pdfpc : undefined;
}

function renderDeckSettings() {
  const select = $("#setting-notes-position") as HTMLSelectElement;
  select.value = notesOverride ?? "";
  const said = detectedLayout.kind === "none" ? "whole pages, no notes half" : `notes on the ${detectedLayout.position} half${detectedLayout.from === "xmp" ? " (pdfpc metadata)" : detectedLayout.from === "geometry" ? " (page shape)" : ""}`;
  replace($("#notes-position-hint"), `The deck says: ${said}.`);
  const inputs = timerInputsOf(ownTimer);
  const deckTimer = extras.timer;
  const duration = $("#setting-duration") as HTMLInputElement;
  const end = $("#setting-end-time") as HTMLInputElement;
  const last = $("#setting-last-minutes") as HTMLInputElement;
  duration.value = inputs.duration;
  end.value = inputs.endTime;
  last.value = inputs.lastMinutes;
  duration.placeholder = deckTimer.durationMinutes !== undefined ? `deck: ${deckTimer.durationMinutes}` : "";
  last.placeholder = deckTimer.lastMinutes !== undefined ? `deck: ${deckTimer.lastMinutes}` : "5";
  end.title = deckTimer.endTime ? `The deck says ${deckTimer.endTime}` : "";
}

/**
 * Split the pages another way (null: as the deck says): kept with the deck, applied here, in
 * the audience window and for live viewers (the state carries it); everything re-renders.
 */
async function changeNotesPosition(override: NotesPosition | null) {
  if (!renderer || override === notesOverride) return;
  notesOverride = override;
  document.body.dataset.notesOverride = override ?? "";
  const kept = store.setNotesPosition(deck.id, override).then(() => (document.body.dataset.savedNotesPosition = override ?? ""));
  const result = await renderer.setLayout(override);
  sizes = pageSizes(result.firstPage);
  void store.setDeckLayout(deck.id, { pageSize: result.firstPage, labels: layout.labels }).catch(() => {});
  // A zoom region was in the old half's coordinates.
  const state = presenter.current;
  presenter.set({ ...state, notesPosition: notesPositionOf(result.layout), overlays: state.overlays.zoom ? { ...state.overlays, zoom: null } : state.overlays });
  currentView.clear();
  nextView.clear();
  stepView.clear();
  void showPage(presenter.current.page);
  if (presenter.current.panel === "overview" && sizes) overviewView.open(layout, renderer, sizes, presenter.current.page);
  extras = await renderer.extras(notesFile()).catch(() => EMPTY_EXTRAS);
  applyTalk();
  notesView.reset();
  renderNotesPane(presenter.current);
  renderDeckSettings();
  document.body.dataset.notesPosition = presenter.current.notesPosition ?? "";
  await kept.catch(() => notice("This browser refused to keep the notes setting; it holds until the window closes.", "warn", "deck-settings"));
}

async function changeTimerSettings(settings: TimerSettings | undefined) {
  ownTimer = settings;
  renderTimer(timerEls(), presenter.current.timer, timerSettings());
  renderDeckSettings();
  try {
    await store.setTimerSettings(deck.id, settings ?? null);
    document.body.dataset.savedTimerSettings = JSON.stringify(settings ?? {});
    replace($("#timer-settings-status"), settings ? "Timer set for this deck." : "The timer follows the deck again.");
  } catch {
    replace($("#timer-settings-status"), "This browser refused to keep the timer setting; it holds until the window closes.");
  }
}

function wireDeckSettings() {
  $("#btn-notes-picture").addEventListener("click", toggleNotesPicture);
  const select = $("#setting-notes-position") as HTMLSelectElement;
  select.addEventListener("change", () => void changeNotesPosition(parseNotesPosition(select.value)));
  const form = $("#timer-settings") as HTMLFormElement;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const read = readTimerInputs({
      duration: ($("#setting-duration") as HTMLInputElement).value,
      endTime: ($("#setting-end-time") as HTMLInputElement).value,
      lastMinutes: ($("#setting-last-minutes") as HTMLInputElement).value,
    });
    if (!read.ok) return replace($("#timer-settings-status"), read.message);
    void changeTimerSettings(read.settings);
  });
  $("#timer-settings-clear").addEventListener("click", () => void changeTimerSettings(undefined));
}

function renderBlank(state: PresenterState) {
  els.blankCover.hidden = state.blank === "none";
  els.blankCover.dataset.blank = state.blank;
  const keyOf = (action: ActionName) => bindings.find((b) => b.action === action && !b.when)?.keys[0];
  replace(els.blankText, state.blank === "white" ? `The audience sees a white screen — ${keyOf("whiteout")?.toUpperCase() ?? "W"} or Esc to return` : `The audience sees a black screen — ${keyOf("blackout")?.toUpperCase() ?? "B"} or Esc to return`);
  $("#btn-blank").setAttribute("aria-pressed", String(state.blank === "black"));
  $("#btn-white").setAttribute("aria-pressed", String(state.blank === "white"));
  document.body.classList.toggle("is-blank", state.blank !== "none");
  document.body.dataset.blank = state.blank;
}

function timerEls() {
  return { elapsed: $("#elapsed"), countdownBox: $("#countdown-box"), countdown: $("#countdown"), wallclock: $("#wallclock"), toggle: $("#btn-timer") as HTMLButtonElement };
}

/** The stage tools over the presenter's own slide: what the audience sees when not frozen. */
function renderOverlays(state: PresenterState, previous: PresenterState | null) {
  if (previous && state.overlays === previous.overlays && state.ink === previous.ink && state.mode === previous.mode && state.page === previous.page) return;
  const live = audienceView({ ...state, frozen: null });
  if (!previous || state.page === previous.page) currentView.setZoom(state.overlays.zoom, slideName(layout, state.page));
  overlayView.render(live, pageSize(state.page));
}

function onlyOverlays(state: PresenterState, previous: PresenterState): boolean {
  if (state.overlays === previous.overlays) return false;
  for (const key of Object.keys(state) as (keyof PresenterState)[]) if (key !== "overlays" && state[key] !== previous[key]) return false;
  return true;
}

let overlayFrame = 0;
function scheduleOverlays() {
  if (overlayFrame) return;
  overlayFrame = requestAnimationFrame(() => {
    overlayFrame = 0;
    const state = presenter.current;
    overlayView.render(audienceView({ ...state, frozen: null }), pageSize(state.page));
  });
}

function render(state: PresenterState, previous: PresenterState | null) {
  const moved = !previous || state.page !== previous.page;
  if (moved || state.entry !== previous.entry || state.notice !== previous.notice || state.mode !== previous.mode) {
    renderCounter({ counter: els.counter, steps: els.steps, entry: els.entry, prev: els.prev, next: els.nextBtn }, layout, state, deck?.title ?? "deckhand");
  }
  if (moved) {
    document.body.dataset.slide = String(state.page);
    document.body.dataset.label = layout.labels[state.page - 1] ?? String(state.page);
    void showPage(state.page);
  }
  renderOverlays(state, previous);
  if (moved || state.notesScale !== previous.notesScale || state.notesPosition !== previous.notesPosition) renderNotesPane(state);
  if (!previous || state.blank !== previous.blank) renderBlank(state);
  renderPanels(state, previous);
  if (!previous || state.timer !== previous.timer) {
    renderTimer(timerEls(), state.timer, timerSettings());
    timerAway.update(state.timer);
  }
  renderToolbox(els.toolbox, state, previous);
  $("#frozen-banner").hidden = !state.frozen;
  $("#zoom-banner").hidden = !state.zoomSelect;
  els.wheelSetting.checked = state.wheelNavigation;
}

function currentTimeRows() {
  const s = presenter.current;
  return timeRows(layout, slideTimesNow(s, layout, Date.now()), s.slideTimes.previous);
}

/** Store the pages whose ink changed (each page is its own record). */
function saveInk(state: PresenterState) {
  for (const [key, strokes] of Object.entries(state.ink)) {
    const page = Number(key);
    if (savedInk.get(page) === strokes) continue;
    savedInk.set(page, strokes);
    void store.putInk(deck.id, page, strokes).then(() => {
      if (presenter.current.ink[page] === strokes) document.body.dataset.savedInk = String(Object.values(presenter.current.ink).reduce((n, list) => n + list.length, 0));
    }, () => notice("This browser refused to store the ink (storage full?); it stays until the window closes.", "warn", "ink-storage"));
  }
}

function onChange(state: PresenterState, previous: PresenterState) {
  // The audience first: a pointer's message leaves before this window paints its own copy.
  const seen = audienceView(state);
  const before = audienceView(previous);
  if (audienceChanged(seen, before)) {
    if (onlyOverlaysChanged(seen, before)) channel?.post({ type: "overlay", overlays: seen.overlays, at: overlayInputAt || performance.timeOrigin + performance.now() });
    else channel?.post({ type: "state", state: seen });
  }
  // Live viewers get the same; the phone remote also hears of the timer.
  live?.changed(state, previous);
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

/** Write where the talk is (its `updatedAt` is also when this window was last seen: timer-presence). */
function saveProgress(state: PresenterState) {
  void store.saveProgress(deck.id, state.page, state.timer, { bookmark: state.bookmark, slideTimes: state.slideTimes }).then(() => {
    if (presenter.current.timer === state.timer) document.body.dataset.savedTimer = state.timer.status;
    if (presenter.current.page === state.page) document.body.dataset.savedPage = String(state.page);
  }, () => {});
}

function save(state: PresenterState, previous: PresenterState) {
  if (deck && (state.page !== previous.page || state.timer !== previous.timer || state.bookmark !== previous.bookmark || state.slideTimes !== previous.slideTimes)) saveProgress(state);
  if (deck && state.ink !== previous.ink) saveInk(state);
  if (state.notesScale !== previous.notesScale || state.wheelNavigation !== previous.wheelNavigation) {
    savePreferences({ notesScale: state.notesScale, wheelNavigation: state.wheelNavigation, notesPicture });
  }
}

// ---- layout ------------------------------------------------------------------------------

function changeLayout(next: PresenterLayout, save: boolean) {
  presenterLayout = next;
  applyLayout(els.stage, next);
  if (save) saveLayout(storage, next);
}

const layoutDeps = {
  stage: els.stage,
  editor: els.layoutEditor,
  layout: () => presenterLayout,
  change: changeLayout,
  reset: () => {
    changeLayout(resetLayout(storage), false);
    renderLayoutEditor(layoutDeps);
  },
};

// ---- export ------------------------------------------------------------------------------

async function exportDeck(withInk: boolean) {
  const status = $("#export-status");
  replace(status, withInk ? "Writing the ink into the PDF…" : "");
  try {
    const found = await store.getDeckWithBytes(deck.id);
    if (!found) throw new Error("gone");
    await downloadDeck({ bytes: found.bytes, title: deck.title, ink: inkForExport(presenter.current.ink), withInk, renderer, notesPosition: presenter.current.notesPosition ?? undefined });
    replace(status, withInk && !inkForExport(presenter.current.ink).length ? `No ink yet: saved “${exportName(deck.title, false)}” as it came.` : "Saved to your downloads.");
  } catch {
    replace(status, "The PDF could not be written. Try again, or download it as it came.");
  }
}

/**
 * The download the export panel offers first: with the ink only when there is ink; else the
 * deck as it came (Enter on the panel never writes an "ink" copy that has none).
 */
function focusDefaultDownload(state: PresenterState) {
  const hasInk = inkForExport(state.ink).length > 0;
  const original = $("#export-original");
  const ink = $("#export-ink");
  original.classList.toggle("btn-primary", !hasInk);
  ink.classList.toggle("btn-primary", hasInk);
  replace(ink, hasInk ? "With the ink" : "With the ink (none yet)");
  replace($("#export-status"), "");
  (hasInk ? ink : original).focus();
}

// ---- input -----------------------------------------------------------------------------------

/** An open panel (a dialog) holding the focus: its controls keep Enter and Space. */
const inOpenPanel = (target: HTMLElement) => !!target.closest("[role='dialog']:not([hidden])");

/**
 * The control the pointer last pressed, until Tab moves the focus. Not `:focus-visible`: under
 * automation Firefox does not report it after Tab, and the engines' heuristics differ.
 */
let pointerControl: Element | null = null;

/**
 * Whether a focused button or link keeps Enter and Space (they activate it) instead of the
 * talk: inside an open panel, or when the keyboard put the focus there (Tab) — a button
 * clicked with the mouse never holds a clicker's Space or Enter (issue 21, item 6).
 */
function controlKeepsKey(target: HTMLElement): boolean {
  const control = target.closest("button, a, summary");
  if (!control) return false;
  return inOpenPanel(target) || control !== pointerControl;
}

function onKey(event: KeyboardEvent) {
  if (event.defaultPrevented || keysView.busy) return;
  const target = event.target as HTMLElement;
  if (target.closest("input, textarea, select, [contenteditable='true'], [role='separator']")) return;
  const chord = chordOf(event);
  // Tab and Shift+Tab always move the focus (never bound: keymap.ts RESERVED_KEYS).
  if (chord === "Tab" || chord === "Shift+Tab") pointerControl = null;
  if (!chord || chord === "Tab" || chord === "Shift+Tab") return;
  const state = presenter.current;
  const resolved = resolveChord(chord, { entry: entryPending(state, Date.now()) }, bindings);
  if (!resolved) return;
  // A typed number's Enter is the number's, even on a focused button (number + Enter).
  if ((chord === "Enter" || chord === "Space") && resolved.action !== "commitEntry" && controlKeepsKey(target)) return;
  // In an open panel only the keys that close it act; the grid handles its own arrows.
  if (MODAL_PANELS.has(state.panel) && !["escape", "overview", "help", "slideTimes", "exportPanel", "gotoPrompt"].includes(resolved.action)) return;
  event.preventDefault();
  stepStartedAt = performance.now();
  if (resolved.action === "digit") presenter.dispatch("digit", resolved.mode ? { digit: resolved.arg, mode: resolved.mode } : resolved.arg);
  else presenter.dispatch(resolved.action, resolved.arg);
}

/** The pending number's expiry (entry.ts): settled on time even if no key or pointer comes. */
let entryTimer: ReturnType<typeof setTimeout> | undefined;
function scheduleEntryExpiry(state: PresenterState) {
  clearTimeout(entryTimer);
  const wait = entryExpiresIn(state, Date.now());
  if (wait !== null) entryTimer = setTimeout(() => presenter.dispatch("expireEntry"), wait + 10);
}

/**
 * Pointer actions settle a typed number at once (entry.ts): a press, a wheel turn, or a move
 * of the pointer — a real one: engines send moves with no movement after a layout change.
 * Capture phase, so the slide's own input (slide-input.ts) already sees the tool picked.
 */
function watchPointerForEntry() {
  let last: { x: number; y: number } | null = null;
  const settle = () => {
    if (presenter.current.entry) presenter.dispatch("settleEntry");
  };
  document.addEventListener("pointermove", (event) => {
    const moved = !last || Math.abs(event.clientX - last.x) > 1 || Math.abs(event.clientY - last.y) > 1;
    last = { x: event.clientX, y: event.clientY };
    if (moved) settle();
  }, true);
  document.addEventListener("pointerdown", settle, true);
  document.addEventListener("wheel", settle, { capture: true, passive: true });
}

/**
 * A button clicked with the pointer gives the focus back (issue 21, item 6): a clicker's Space
 * or Enter then steps the talk instead of pressing *Black* again. Keyboard activation (detail
 * 0) keeps the focus where the keyboard user put it; modal panels keep theirs.
 */
function releaseClickedButtons() {
  document.addEventListener("pointerdown", (event) => (pointerControl = (event.target as HTMLElement).closest?.("button, a, summary") ?? null), true);
  document.addEventListener("click", (event) => {
    const button = (event.target as HTMLElement).closest?.("button, summary");
    if (!(button instanceof HTMLElement) || event.detail === 0 || button.closest("[aria-modal='true']")) return;
    if (document.activeElement === button) button.blur();
  });
}

function wireInput() {
  document.addEventListener("keydown", onKey);
  watchMenu($("#btn-menu"), $("#stage-menu"));
  watchPointerForEntry();
  releaseClickedButtons();
  for (const button of document.querySelectorAll<HTMLElement>("[data-action]")) {
    const name = button.dataset.action!;
    button.addEventListener("click", () => {
      stepStartedAt = performance.now();
      if (getAction(name)) presenter.dispatch(name as ActionName);
    });
  }
  for (const swatch of els.toolbox.querySelectorAll<HTMLElement>("[data-color]")) swatch.addEventListener("click", () => presenter.dispatch("penColor", swatch.dataset.color));
  for (const width of els.toolbox.querySelectorAll<HTMLElement>("[data-width]")) width.addEventListener("click", () => presenter.dispatch("penWidth", Number(width.dataset.width)));
  const gestures = watchGestures([$(".current-pane"), $(".next-pane")], () => presenter.current.wheelNavigation && presenter.current.mode === "normal", (direction) => presenter.dispatch(direction));
  els.currentFrame.addEventListener("click", (event) => {
    // A click on a video's controls drives the video, not the talk; a swipe's tap is the swipe;
    // with a tool in hand (or choosing a zoom) a click is the tool's.
    const s = presenter.current;
    if ((event.target as HTMLElement).closest(".media-item") || gestures.swipedRecently() || s.mode !== "normal" || s.zoomSelect) return;
    presenter.dispatch("next");
  });
  watchSlideInput({
    frame: els.currentFrame,
    zoomBox: $("#zoom-box"),
    state: () => presenter.current,
    pageSize: () => pageSize(presenter.current.page),
    dispatch: (name, arg) => presenter.dispatch(name, arg),
    inputAt: (at) => (overlayInputAt = at),
  });
  els.wheelSetting.addEventListener("change", () => {
    if (els.wheelSetting.checked !== presenter.current.wheelNavigation) presenter.dispatch("wheelToggle");
  });
  els.gotoPanel.addEventListener("submit", (event) => {
    event.preventDefault();
    presenter.dispatch("gotoLabel", els.gotoInput.value);
    if (presenter.current.panel === "goto") replace($("#goto-status"), presenter.current.notice ?? "");
  });
  els.gotoPanel.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    presenter.dispatch("escape");
  });
  $("#keys-reset").addEventListener("click", () => {
    bindings = resetKeymap(storage);
    keysView.render();
    replace($("#keys-status"), "Keys reset to the defaults.");
  });
  // Another window changed the key map: this one follows.
  window.addEventListener("storage", (event) => {
    if (event.key !== KEYMAP_STORAGE_KEY) return;
    bindings = loadKeymap(storage);
    if (presenter.current.panel === "help") keysView.render();
  });
  $("#layout-reset").addEventListener("click", layoutDeps.reset);
  watchSplitters(layoutDeps);
  $("#times-csv").addEventListener("click", () => saveFile(timesCsv(currentTimeRows()), exportName(deck.title, false).replace(/\.pdf$/, " — slide times.csv"), "text/csv"));
  $("#export-original").addEventListener("click", () => void exportDeck(false));
  $("#export-ink").addEventListener("click", () => void exportDeck(true));
  let resizeTimer: ReturnType<typeof setTimeout> | undefined;
  new ResizeObserver(() => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      const page = presenter.current.page;
      void currentView.relayout(slideName(layout, page));
      const preview = previewPage(layout, page);
      if (preview !== null) void nextView.relayout(`Next: ${slideName(layout, preview)}`);
    }, 120);
  }).observe(els.currentBox);
  new ResizeObserver(() => {
    const page = presenter.current.page;
    const preview = previewPage(layout, page);
    if (preview !== null) void nextView.relayout(`Next: ${slideName(layout, preview)}`);
    else nextView.size(page);
  }).observe(els.nextBox);
  new ResizeObserver(() => {
    if (!els.stepBox.hidden) showStep(presenter.current.page);
  }).observe(els.stepBox);
}

// ---- start-up ----------------------------------------------------------------------------

function showMissing(message: string) {
  document.body.classList.add("is-missing");
  replace($("#main"), h("div", { class: "card missing" }, h("h2", {}, "This deck cannot be presented"), h("p", {}, message), h("a", { class: "btn btn-primary", href: "/" }, "Go to your decks")));
  replace(els.title, "deckhand");
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

/** For the benchmark: the time from the claim's download to the first sharp slide on screen. */
function noteFirstSlide() {
  if (metrics.firstSlideAfterDownloadMs !== undefined) return;
  const downloadEnd = Number(sessionStorage.getItem("dh:download-end"));
  if (!(downloadEnd > 0)) return;
  metrics.firstSlideAfterDownloadMs = performance.timeOrigin + performance.now() - downloadEnd;
  sessionStorage.removeItem("dh:download-end");
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
    sizes ??= pageSizes(kept.pageSize);
    if (kept.labels.length) layout = layoutFromLabels(kept.labels);
    if (currentView.prepaint(kept.page, kept.bitmap, slideName(layout, kept.page))) {
      replace(els.title, kept.title);
      renderCounter({ counter: els.counter, steps: els.steps, entry: els.entry, prev: els.prev, next: els.nextBtn }, layout, state, kept.title);
      requestAnimationFrame(() => {
        metrics.prepaintMs = performance.now();
        noteFirstSlide();
      });
    }
  }
  kept.bitmap.close();
}

/** Size the skeleton and the counter from what the deck record knows, before mupdf loads. */
function showSkeleton() {
  if (!deck.pageSize) return;
  sizes = pageSizes(deck.pageSize);
  if (deck.labels?.length) layout = layoutFromLabels(deck.labels);
  currentView.size(presenter.current.page);
  metrics.skeletonMs = performance.now();
}

/** After the worker opened the deck: its real labels and sizes; remember them with the deck. */
function adoptOpened(opened: { pageCount: number; firstPage: { w: number; h: number }; labels: string[] }) {
  layout = opened.labels.length === opened.pageCount ? layoutFromLabels(opened.labels) : plainLayout(opened.pageCount);
  sizes ??= pageSizes(opened.firstPage);
  sizes.set(1, opened.firstPage);
  const same = deck.pageSize && deck.pageSize.w === opened.firstPage.w && deck.pageSize.h === opened.firstPage.h && deck.labels?.join("\n") === layout.labels.join("\n");
  if (!same) void store.setDeckLayout(deck.id, { pageSize: opened.firstPage, labels: layout.labels }).catch(() => {});
}

/** Notes, media and the pdfpc timer arrive after the first slide; then URL media are kept for offline. */
async function loadExtras() {
  extras = await renderer!.extras(notesFile()).catch(() => EMPTY_EXTRAS);
  applyTalk();
  const state = presenter.current;
  renderNotesPane(state);
  renderTimer(timerEls(), state.timer, timerSettings());
  if (!stopReporting) await mountPageMedia(state.page);
  document.body.dataset.extras = "ready";
  if (!navigator.onLine || !extras.media.some((m) => m.kind === "url")) return;
  const outcomes = await storeUrlMedia(deck.id, extras.media, store);
  document.body.dataset.urlMedia = "stored";
  const unkept = offlineCopyNotice(outcomes);
  if (unkept) notice(unkept, "warn", "url-media");
}

async function main() {
  const id = deckIdFromPath();
  // Decoded while storage opens: the claim's picture of the first slide, if it left one.
  void takeFirstSlide(id).then((kept) => kept && prepaintFirstSlide(kept));
  applyLayout(els.stage, presenterLayout);
  $("#btn-swap").hidden = !canPlaceWindows();
  keepScreenOn((status) => (document.body.dataset.wakeLock = status));
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
  const record = await store.getDeck(id);
  if (!record) return showMissing("This deck is not in this browser. Open it from the library of the browser that claimed it, or open the PDF again from this computer.");
  deck = record;
  notesOverride = parseNotesPosition(deck.notesPosition);
  ownTimer = parseTimerSettings(deck.timerSettings);
  audienceWindow = new AudienceWindow(deck.id, () => channel, notice);
  replace(els.title, deck.title);
  els.title.title = deck.title;
  const [saved, storedInk] = await Promise.all([store.getProgress(deck.id).catch(() => undefined), store.getInk(deck.id).catch(() => new Map<number, unknown[]>())]);
  const ink: Record<number, readonly Stroke[]> = {};
  for (const [page, strokes] of storedInk) {
    ink[page] = parseStrokes(strokes);
    savedInk.set(page, ink[page]!);
  }
  const fromHash = slideFromHash();
  // The timer counts only while a presenter window is open: after a reload it runs on, after a
  // longer gap it waits where the last window was seen (saved.updatedAt) for Continue or Reset.
  const restored = restoreTimer(parseTimer(saved?.timer), saved?.updatedAt, Date.now());
  presenter.set({
    ...presenter.current,
    page: fromHash || saved?.slide || 1,
    timer: restored.timer,
    ink,
    bookmark: typeof saved?.bookmark === "number" ? saved.bookmark : null,
    slideTimes: parseSlideTimes(saved?.slideTimes),
  });
  showSkeleton();
  if (sizes) renderCounter({ counter: els.counter, steps: els.steps, entry: els.entry, prev: els.prev, next: els.nextBtn }, layout, presenter.current, deck.title);

  const found = await store.getDeckWithBytes(id);
  if (!found) return showMissing("This deck's PDF is no longer stored in this browser. Open it again from its link or file.");
  const t1 = performance.now();
  let opened;
  try {
    opened = await renderer.open(found.bytes, { transfer: true, ...(notesOverride ? { notesPosition: notesOverride } : {}) });
  } catch (error) {
    const code = error instanceof RenderError ? error.code : undefined;
    return showMissing(code && code in REFUSAL_DETAIL ? REFUSAL_DETAIL[code as RefusalCode] : "The stored PDF could not be read. Delete it from the library and open it again.");
  }
  metrics.phases = { storageMs: t1 - t0, openMs: performance.now() - t1, claimMs: Number(sessionStorage.getItem("dh:claim-ms")) || undefined };
  adoptOpened(opened);
  detectedLayout = opened.detected;
  void store.touchOpened(deck.id).catch(() => {});
  // The split in force goes with the state: the audience and live viewers apply the same.
  presenter.set({ ...presenter.current, page: clampPage(layout, presenter.current.page), notesPosition: notesPositionOf(opened.layout) });
  document.body.dataset.notesPosition = notesPositionOf(opened.layout);
  document.body.dataset.notesDetected = notesPositionOf(opened.detected);

  channel = openChannel(deck.id, (message) => {
    if (message.type === "hello") {
      channel?.post({ type: "state", state: audienceView(presenter.current) });
      live?.audienceHello();
    }
    else if (message.type === "command" && getAction(message.action)?.remote) presenter.dispatch(message.action, message.arg);
    else if (message.type === "report") notice("The audience window could not show this deck: " + (message.problem === "deck-missing" ? "it is not stored in this browser." : "the browser refused to read it."), "warn", "audience-report");
  });
  window.addEventListener("pagehide", () => channel?.post({ type: "bye" }));
  // An audience window that stayed open while this one reloaded gets the state (and ink) now.
  channel.post({ type: "state", state: audienceView(presenter.current) });

  live = new PresenterLive({
    store,
    deck: () => deck,
    state: () => presenter.current,
    dispatch: (name, arg) => presenter.dispatch(name, arg),
    label: (page) => layout.labels[page - 1] ?? String(page),
    panel: $("#live-panel"),
    body: $("#live-body"),
    button: $("#btn-live"),
    tokenForm: $("#live-token") as HTMLFormElement,
    tokenInput: $("#live-token-input") as HTMLInputElement,
    channel: () => channel,
    anchor: $(".current-pane"),
    joinBanner: $("#join-banner"),
  });
  void live.resume();

  wireInput();
  wireDeckSettings();
  presenter.subscribe(onChange);
  render(presenter.current, null);
  if (restored.awayMs !== null) timerAway.show(restored.awayMs, restored.timer);
  keepPresence(() => presenter.current.timer.status === "running", () => saveProgress(presenter.current));
  setInterval(() => renderTimer(timerEls(), presenter.current.timer, timerSettings()), TICK_MS);
  void loadExtras();
}

void main();
