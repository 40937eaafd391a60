/**
 * @module client/presenter/page/render
 * Rendering the presenter state into the window: the slide and its media, the previews (next
 * slide, next step), the counter, the notes pane, the blank cover, the stage tools' overlays,
 * the open panel and the timer. `render(state, previous)` repaints only what changed; a
 * pointer sample repaints only the overlays, once per frame (`scheduleOverlays`).
 */
import { $, replace } from "../../lib/dom.ts";
import { failMedium, mountMedia } from "../../lib/media.ts";
import { audienceView } from "../audience.ts";
import type { ActionName } from "../actions.ts";
import { AutoAdvance, autoAdvancePlan } from "../auto-advance.ts";
import { nextStepPage, pageDuration, positionOf, previewPage, withTalk } from "../../model/deck-layout.ts";
import { timerInputsOf } from "../../model/deck-settings.ts";
import { inkForExport } from "../export.ts";
import { reportMedia } from "../media-sync.ts";
import type { PresenterState } from "../state.ts";
import { renderCounter, slideName, stepEndText } from "../views/counter-view.ts";
import { renderLayoutEditor } from "../views/layout-view.ts";
import { renderTimer } from "../views/timer-view.ts";
import { renderToolbox } from "../views/toolbox-view.ts";
import { layoutDeps } from "./effects.ts";
import { counterEls, els, timerEls } from "./elements.ts";
import { paceNow, renderPaceLine, renderTimesPanel } from "./pace.ts";
import { overviewView, presenter, timerAway } from "./presenter.ts";
import { metrics, mediaCtx, pageSize, session, timerSettings } from "./session.ts";
import { currentView, keysView, nextView, notesView, overlayView, stepView } from "./views.ts";

/** The pending advance of a page with a `/Dur` (../auto-advance), on the window's clock. */
const autoAdvance = new AutoAdvance({ setTimeout: (fire, ms) => window.setTimeout(fire, ms), clearTimeout: (handle) => window.clearTimeout(handle as number) }, (page) => presenter.dispatch("autoAdvance", page));

/** Seconds as the badge says them: "0.2 s", "3 s", "1 min 30 s". */
function secondsText(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds * 100) / 100} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds - minutes * 60);
  return rest ? `${minutes} min ${rest} s` : `${minutes} min`;
}

/**
 * Arm (or drop) the page's advance and say it beside the counter: this page moves on by
 * itself — only here, never on the projector. While the timer does not run it says it waits.
 */
function renderAutoAdvance(state: PresenterState) {
  const plan = autoAdvancePlan(state, session.layout);
  autoAdvance.update(plan);
  const badge = els.autoAdvance;
  const seconds = pageDuration(session.layout, state.page);
  badge.hidden = seconds === null;
  document.body.dataset.autoAdvance = seconds === null ? "" : plan ? "armed" : "waiting";
  if (seconds === null) return;
  const after = secondsText(seconds);
  const why = plan ? "" : state.frozen ? " (held: the audience is frozen)" : state.timer.status === "running" ? " (last page)" : " once the timer runs";
  replace(badge, `▸ Advances by itself after ${after}${why}`);
  badge.title = "This page has a duration (/Dur): the presenter moves on by itself, as pdfpc does. A key press moves on at once.";
}

/** Slides rendered ahead of the current one. */
const LOOKAHEAD = 3;
/** Which media mount is the latest: a slower mount for a page already left is dropped. */
let mediaToken = 0;

/** For the benchmark: the time from the claim's download to the first sharp slide on screen. */
export function noteFirstSlide() {
  if (metrics.firstSlideAfterDownloadMs !== undefined) return;
  const downloadEnd = Number(sessionStorage.getItem("dh:download-end"));
  if (!(downloadEnd > 0)) return;
  metrics.firstSlideAfterDownloadMs = performance.timeOrigin + performance.now() - downloadEnd;
  sessionStorage.removeItem("dh:download-end");
}

export async function showPage(page: number) {
  const startedAt = session.stepStartedAt || performance.now();
  session.stepStartedAt = 0;
  session.stopReporting?.();
  session.stopReporting = null;
  els.mediaLayer.replaceChildren();
  const label = slideName(session.layout, page);
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
  session.renderer?.prefetch(page, width, LOOKAHEAD, session.layout.pageCount);
  await mountPageMedia(page);
}

/**
 * The next slide finished and, in a deck with builds, pdfpc's next-step preview: the page the
 * next click shows on this slide, or a card saying the next click leaves the slide. A deck
 * without builds never shows the step box (its space stays with the next slide).
 *
 * The column is laid out first — the step box in or out — and the previews are drawn only once
 * it is ready (`session.columnReady`): until the deck's extras are read, its timer may still add
 * the countdown and the pace line to the clocks, which takes height from the previews. Drawn
 * before, the next slide's frame shrank on screen as the step box and then the clocks came, and
 * the render worker rendered it at each size (326, 266 and 245 device pixels wide at 1440×900).
 */
export function showPreviews(page: number) {
  const preview = previewPage(session.layout, page);
  const builds = session.layout.slides.length < session.layout.pageCount;
  els.stepLabel.hidden = els.stepBox.hidden = !builds;
  $("#previews").classList.toggle("has-step", builds);
  els.endCard.hidden = preview !== null;
  els.next.hidden = preview === null;
  document.body.dataset.nextSlide = String(preview ?? "");
  // Past pdfpc's end slide come the backup slides: the speaker sees where the talk ends.
  const backup = preview !== null && positionOf(session.layout, preview).backup;
  replace(els.nextLabel, backup ? "Next: a backup slide" : "Next slide");
  if (builds) showStep(page);
  if (!session.columnReady) return;
  if (preview !== null) void nextView.show(preview, `Next: ${slideName(session.layout, preview)}`);
  else nextView.card(page);
}

/** The next-step preview for `page`: the page the next click shows on this slide, or a card. */
export function showStep(page: number) {
  const step = nextStepPage(session.layout, page);
  els.stepEnd.hidden = step !== null;
  els.step.hidden = step === null;
  document.body.dataset.nextStep = String(step ?? "");
  if (step === null) replace(els.stepEnd, stepEndText(positionOf(session.layout, page).steps, previewPage(session.layout, page) === null));
  if (!session.columnReady) return;
  if (step === null) {
    stepView.card(page);
    return;
  }
  // A phone's layout leaves the preview out: nothing to render at no size (a resize brings it back).
  if (!els.stepBox.getClientRects().length) return;
  void stepView.show(step, `Next step: ${slideName(session.layout, step)}`);
}

/**
 * What the deck's pdfpc data says about the talk — pages hidden in pdfpc and the end slide
 * (a .pdfpc's endSlide, pdfpc.sty's EndUserSlide) — applied to the layout: Next passes the
 * hidden pages by, the counter counts to the end slide and End goes there.
 */
export function applyTalk() {
  session.layout = withTalk(session.layout, { hidden: session.extras.hidden, endSlide: timerSettings().endSlide });
  document.body.dataset.hiddenPages = String(session.layout.hidden?.size ?? 0);
  document.body.dataset.endSlide = session.layout.endSlide === undefined ? "" : String(session.layout.endSlide + 1);
  const state = presenter.current;
  renderCounter(counterEls(), session.layout, state, session.deck?.title ?? "deckhand");
  renderAutoAdvance(state);
  showPreviews(state.page);
}

export async function mountPageMedia(page: number) {
  const token = ++mediaToken;
  const items = session.extras.media.filter((m) => m.slide === page);
  if (!items.length || !session.sizes) return;
  const list = await mountMedia(els.mediaLayer, items, session.sizes.get(page), mediaCtx, () => token === mediaToken && presenter.current.page === page);
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
  session.stopReporting = reportMedia(playing, autoplay, (id, playback) => presenter.dispatch("media", { id, playback }));
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
  if (state.panel === "overview" && session.renderer && session.sizes) overviewView.open(session.layout, session.renderer, session.sizes, state.page, paceNow(state).long);
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
    renderTimesPanel(state);
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
export function renderNotesPane(state: PresenterState) {
  const half = hasNotesHalf(state);
  const toggle = $("#btn-notes-picture");
  toggle.hidden = !half;
  toggle.setAttribute("aria-pressed", String(half && session.notesPicture));
  if (half && session.notesPicture && session.renderer) void notesView.picture(state.page, session.renderer.notesPicture(state.page, notesView.pictureWidth()).catch(() => null));
  else notesView.render(state.page, session.extras.notes[state.page], state.notesScale, session.extras.notesFormat[state.page]);
  document.body.dataset.notesView = half && session.notesPicture ? "picture" : "text";
}

export function renderDeckSettings() {
  const select = $("#setting-notes-position") as HTMLSelectElement;
  select.value = session.notesOverride ?? "";
  const said = session.detectedLayout.kind === "none" ? "whole pages, no notes half" : `notes on the ${session.detectedLayout.position} half${session.detectedLayout.from === "xmp" ? " (pdfpc metadata)" : session.detectedLayout.from === "geometry" ? " (page shape)" : ""}`;
  replace($("#notes-position-hint"), `The deck says: ${said}.`);
  const inputs = timerInputsOf(session.ownTimer);
  const deckTimer = session.extras.timer;
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

function renderBlank(state: PresenterState) {
  els.blankCover.hidden = state.blank === "none";
  els.blankCover.dataset.blank = state.blank;
  const keyOf = (action: ActionName) => session.bindings.find((b) => b.action === action && !b.when)?.keys[0];
  replace(els.blankText, state.blank === "white" ? `The audience sees a white screen — ${keyOf("whiteout")?.toUpperCase() ?? "W"} or Esc to return` : `The audience sees a black screen — ${keyOf("blackout")?.toUpperCase() ?? "B"} or Esc to return`);
  $("#btn-blank").setAttribute("aria-pressed", String(state.blank === "black"));
  $("#btn-white").setAttribute("aria-pressed", String(state.blank === "white"));
  document.body.classList.toggle("is-blank", state.blank !== "none");
  document.body.dataset.blank = state.blank;
}

/** The stage tools over the presenter's own slide: what the audience sees when not frozen. */
function renderOverlays(state: PresenterState, previous: PresenterState | null) {
  if (previous && state.overlays === previous.overlays && state.ink === previous.ink && state.mode === previous.mode && state.page === previous.page) return;
  const shown = audienceView({ ...state, frozen: null });
  if (!previous || state.page === previous.page) currentView.setZoom(state.overlays.zoom, slideName(session.layout, state.page));
  overlayView.render(shown, pageSize(state.page));
}

export function onlyOverlays(state: PresenterState, previous: PresenterState): boolean {
  if (state.overlays === previous.overlays) return false;
  for (const key of Object.keys(state) as (keyof PresenterState)[]) if (key !== "overlays" && state[key] !== previous[key]) return false;
  return true;
}

let overlayFrame = 0;

export function scheduleOverlays() {
  if (overlayFrame) return;
  overlayFrame = requestAnimationFrame(() => {
    overlayFrame = 0;
    const state = presenter.current;
    overlayView.render(audienceView({ ...state, frozen: null }), pageSize(state.page));
  });
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

export function render(state: PresenterState, previous: PresenterState | null) {
  const moved = !previous || state.page !== previous.page;
  if (moved || state.entry !== previous.entry || state.notice !== previous.notice || state.mode !== previous.mode) {
    renderCounter(counterEls(), session.layout, state, session.deck?.title ?? "deckhand");
  }
  if (moved) {
    document.body.dataset.slide = String(state.page);
    document.body.dataset.label = session.layout.labels[state.page - 1] ?? String(state.page);
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
  const paced = !previous || moved || state.timer !== previous.timer || state.pace !== previous.pace || state.slideTimes.previous !== previous.slideTimes.previous;
  if (paced) renderPaceLine(state);
  // The open Slide times panel follows a new plan, a slide left (its time booked) and a reset.
  if (previous && state.panel === "times" && previous.panel === "times" && (state.pace !== previous.pace || state.slideTimes !== previous.slideTimes)) renderTimesPanel(state);
  renderToolbox(els.toolbox, state, previous);
  if (moved || state.timer !== previous.timer || state.frozen !== previous.frozen) renderAutoAdvance(state);
  $("#frozen-banner").hidden = !state.frozen;
  $("#zoom-banner").hidden = !state.zoomSelect;
  els.wheelSetting.checked = state.wheelNavigation;
}
