/**
 * @module client/presenter/page/input
 * Everything that dispatches an action from this window: keys (through the key map and its
 * policy on fields, focused controls and open panels — keymap.ts), buttons, the stage tools
 * on the slide, swipes and the wheel, the panels' forms; and the pending number's expiry.
 */
import { $, replace } from "../../lib/dom.ts";
import { getAction, type ActionName } from "../actions.ts";
import { previewPage } from "../../model/deck-layout.ts";
import { entryExpiresIn, entryPending } from "../entry.ts";
import { watchGestures } from "../gestures.ts";
import { chordOf, CONTROL, controlKeepsKey, fieldKeepsKeys, pageKeepsKey, panelKeepsKey, resolveChord } from "../keymap.ts";
import { KEYMAP_STORAGE_KEY, loadKeymap, resetKeymap } from "../keymap-store.ts";
import { watchSlideInput } from "../slide-input.ts";
import type { PresenterState } from "../state.ts";
import { slideName } from "../views/counter-view.ts";
import { watchSplitters } from "../views/layout-view.ts";
import { watchMenu } from "../views/menu-view.ts";
import { exportDeck } from "./downloads.ts";
import { layoutDeps } from "./effects.ts";
import { els } from "./elements.ts";
import { presenter } from "./presenter.ts";
import { showStep } from "./render.ts";
import { pageSize, session, storage } from "./session.ts";
import { currentView, keysView, nextView } from "./views.ts";

/**
 * The control the pointer last pressed, until Tab or a focus the pointer did not cause moves
 * it. Not `:focus-visible`: under automation Firefox does not report it after Tab, and the
 * engines' heuristics differ.
 */
let pointerControl: Element | null = null;

/**
 * The control the pointer pressed, as it is now: a panel may have drawn it anew in place (the
 * Questions panel redraws its switches from the server's answer and puts the focus back on the
 * one with the same `data-focus`). Asked when a key comes, not at the focus: a window without
 * the system's focus (a second window on the desk) gets no focus events at all.
 */
function pressedControl(): Element | null {
  const key = pointerControl instanceof HTMLElement && !pointerControl.isConnected ? pointerControl.dataset.focus : undefined;
  return (key && document.querySelector(`[data-focus="${CSS.escape(key)}"]`)) || pointerControl;
}

/** A key pressed anywhere in this window: the key map says which action, if any. */
function onKey(event: KeyboardEvent) {
  if (event.defaultPrevented || keysView.busy) return;
  const target = event.target as HTMLElement;
  const chord = chordOf(event);
  // A clicker's F5 is a reload to the browser: taken first, wherever the focus is (keymap.ts).
  if (pageKeepsKey(chord)) event.preventDefault();
  if (fieldKeepsKeys(target)) return;
  // Tab and Shift+Tab always move the focus (never bound: keymap.ts RESERVED_KEYS).
  if (chord === "Tab" || chord === "Shift+Tab") pointerControl = null;
  if (!chord || chord === "Tab" || chord === "Shift+Tab") return;
  const state = presenter.current;
  const resolved = resolveChord(chord, { entry: entryPending(state, Date.now()) }, session.bindings);
  if (!resolved) return;
  // Who keeps the key (keymap.ts): a focused control its Enter and Space, an open panel all but its closers.
  if (controlKeepsKey(chord, resolved.action, target, pressedControl()) || panelKeepsKey(state.panel, resolved.action)) return;
  event.preventDefault();
  session.stepStartedAt = performance.now();
  if (resolved.action === "digit") presenter.dispatch("digit", resolved.mode ? { digit: resolved.arg, mode: resolved.mode } : resolved.arg);
  else presenter.dispatch(resolved.action, resolved.arg);
}

/** The pending number's expiry (entry.ts): settled on time even if no key or pointer comes. */
let entryTimer: ReturnType<typeof setTimeout> | undefined;

export function scheduleEntryExpiry(state: PresenterState) {
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
 * Which control the pointer put the focus on (`pointerControl`): a control clicked with the
 * mouse keeps none of the stage's keys (keymap.ts controlKeepsKey), so a clicker's PageDown or
 * Space after a click on *Allow viewers to save the PDF* steps the talk and leaves the box as
 * it is. And a button clicked with the pointer gives the focus back: a clicker's Space or Enter
 * then steps the talk instead of pressing *Black* again. Keyboard activation (detail 0) keeps
 * the focus where the keyboard user put it; modal panels keep theirs.
 */
function releaseClickedButtons() {
  // From a pointer press to the end of its click, a focus is the press's (a label's click
  // focuses its input only then); any other focus (Esc giving it back to the Menu button, a
  // panel closing) came from the keyboard or the page, and the control it lands on keeps its
  // keys again — unless it is the same control drawn anew by its panel (`pressedControl` above).
  let pressing = false;
  const pressEnds = () => setTimeout(() => (pressing = false), 0);
  document.addEventListener("pointerdown", (event) => {
    const hit = (event.target as HTMLElement).closest?.(`${CONTROL}, label`) ?? null;
    pointerControl = hit instanceof HTMLLabelElement ? hit.control : hit;
    pressing = true;
  }, true);
  document.addEventListener("pointerup", pressEnds, true);
  document.addEventListener("pointercancel", pressEnds, true);
  document.addEventListener("click", pressEnds, true);
  document.addEventListener("focusin", (event) => {
    const target = event.target as HTMLElement;
    if (pressing) return void (pointerControl = target.closest?.(CONTROL) ?? target);
    const redrawn = pointerControl instanceof HTMLElement && !pointerControl.isConnected && target === pressedControl();
    if (!redrawn) pointerControl = null;
  }, true);
  document.addEventListener("click", (event) => {
    const button = (event.target as HTMLElement).closest?.("button, summary");
    if (!(button instanceof HTMLElement) || event.detail === 0 || button.closest("[aria-modal='true']")) return;
    if (document.activeElement === button) button.blur();
  });
}

export function wireInput() {
  document.addEventListener("keydown", onKey);
  watchMenu($("#btn-menu"), $("#stage-menu"));
  watchPointerForEntry();
  releaseClickedButtons();
  for (const button of document.querySelectorAll<HTMLElement>("[data-action]")) {
    const name = button.dataset.action!;
    button.addEventListener("click", () => {
      session.stepStartedAt = performance.now();
      if (getAction(name)) presenter.dispatch(name as ActionName);
    });
  }
  // The go-to panel's moves close it: the slide they reach is what the speaker wanted to see.
  for (const button of document.querySelectorAll<HTMLElement>(".goto-nav [data-action]")) {
    button.addEventListener("click", () => {
      if (presenter.current.panel === "goto") presenter.dispatch("gotoPrompt");
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
    inputAt: (at) => (session.overlayInputAt = at),
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
    session.bindings = resetKeymap(storage);
    keysView.render();
    replace($("#keys-status"), "Keys reset to the defaults.");
  });
  // Another window changed the key map: this one follows.
  window.addEventListener("storage", (event) => {
    if (event.key !== KEYMAP_STORAGE_KEY) return;
    session.bindings = loadKeymap(storage);
    if (presenter.current.panel === "help") keysView.render();
  });
  $("#layout-reset").addEventListener("click", layoutDeps.reset);
  watchSplitters(layoutDeps);
  $("#export-original").addEventListener("click", () => void exportDeck(false));
  $("#export-ink").addEventListener("click", () => void exportDeck(true));
  let resizeTimer: ReturnType<typeof setTimeout> | undefined;
  new ResizeObserver(() => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      const page = presenter.current.page;
      void currentView.relayout(slideName(session.layout, page));
      const preview = previewPage(session.layout, page);
      if (preview !== null) void nextView.relayout(`Next: ${slideName(session.layout, preview)}`);
    }, 120);
  }).observe(els.currentBox);
  new ResizeObserver(() => {
    const page = presenter.current.page;
    const preview = previewPage(session.layout, page);
    if (preview !== null) void nextView.relayout(`Next: ${slideName(session.layout, preview)}`);
    else nextView.card(page);
  }).observe(els.nextBox);
  new ResizeObserver(() => {
    if (!els.stepBox.hidden) showStep(presenter.current.page);
  }).observe(els.stepBox);
}
