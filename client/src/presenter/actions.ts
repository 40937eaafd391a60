/**
 * @module client/presenter/actions
 * Every thing a presenter can do, as one named action (Excalidraw's model): a label for the
 * key table, `perform(state, context, arg)` → the next state (pure, so it is tested without a
 * browser), and for the few that reach outside the state (full screen, a window, scrolling)
 * an `effect` the page carries out. Keys, buttons, swipes, the wheel and the audience
 * window's clicker all dispatch these names; nothing else changes the presenter state.
 */
import { resetTimer, startTimer, toggleTimer } from "../lib/timer.ts";
import { clampPage, nextSlideStart, pageForLabel, previousSlideStart, type DeckLayout } from "./deck-layout.ts";
import { NOTES_SCALE_MAX, NOTES_SCALE_MIN, type Blank, type MediaPlayback, type PresenterState } from "./state.ts";

export interface ActionContext {
  layout: DeckLayout;
  /** Wall-clock ms (Date.now) of the action. */
  now: number;
}

/** What a page does beyond the state: things only the DOM or the browser can do. */
export type Effect = "fullscreen" | "open-audience" | "notes-down" | "notes-up";

export interface PresenterAction {
  name: ActionName;
  /** What it does, for the key table (`?`) and the README. */
  label: string;
  /** An audience window may send it: a clicker or keyboard pointed at the projector's window. */
  remote?: boolean;
  effect?: Effect;
  perform(state: PresenterState, context: ActionContext, arg?: unknown): PresenterState;
}

export type ActionName =
  | "next"
  | "prev"
  | "nextSlide"
  | "prevSlide"
  | "first"
  | "last"
  | "digit"
  | "commitEntry"
  | "eraseEntry"
  | "goToPage"
  | "overview"
  | "help"
  | "blackout"
  | "whiteout"
  | "escape"
  | "notesBigger"
  | "notesSmaller"
  | "notesDown"
  | "notesUp"
  | "timerStart"
  | "timerPause"
  | "timerReset"
  | "fullscreen"
  | "audience"
  | "wheelToggle"
  | "media";

/** Steps of the notes size: each press is a visible change, and the ends stay readable. */
const NOTES_STEP = 1.15;
/** Digits kept for "number + Enter": no deck has a label longer than this. */
const MAX_ENTRY = 8;

/**
 * Move to `page`. Leaving the page drops its media state (the new page reports its own),
 * and the first move of the talk starts an idle timer, as in pdfpc.
 */
export function goTo(state: PresenterState, context: ActionContext, page: number): PresenterState {
  const target = clampPage(context.layout, page);
  const base = { ...state, entry: "", notice: null };
  if (target === state.page) return base;
  const timer = state.timer.status === "idle" ? startTimer(state.timer, context.now) : state.timer;
  return { ...base, page: target, media: {}, timer };
}

function toggleBlank(state: PresenterState, blank: Exclude<Blank, "none">): PresenterState {
  return { ...state, blank: state.blank === blank ? "none" : blank };
}

function scaleNotes(state: PresenterState, factor: number): PresenterState {
  const scaled = Math.round(state.notesScale * factor * 100) / 100;
  return { ...state, notesScale: Math.min(NOTES_SCALE_MAX, Math.max(NOTES_SCALE_MIN, scaled)) };
}

const same = (state: PresenterState) => state;

function isPlayback(value: unknown): value is { id: string; playback: MediaPlayback } {
  const v = value as { id?: unknown; playback?: Partial<MediaPlayback> } | null;
  return !!v && typeof v.id === "string" && !!v.playback && typeof v.playback.playing === "boolean" && Number.isFinite(v.playback.time) && Number.isFinite(v.playback.at);
}

const list: PresenterAction[] = [
  { name: "next", label: "Next page (the next step of a slide's overlays)", remote: true, perform: (s, c) => goTo(s, c, s.page + 1) },
  { name: "prev", label: "Previous page", remote: true, perform: (s, c) => goTo(s, c, s.page - 1) },
  {
    name: "nextSlide",
    label: "Next slide, skipping the rest of its overlays",
    remote: true,
    perform: (s, c) => goTo(s, c, nextSlideStart(c.layout, s.page) ?? s.page),
  },
  {
    name: "prevSlide",
    label: "Previous slide (its first overlay)",
    remote: true,
    perform: (s, c) => goTo(s, c, previousSlideStart(c.layout, s.page) ?? 1),
  },
  { name: "first", label: "First slide", remote: true, perform: (s, c) => goTo(s, c, 1) },
  { name: "last", label: "Last slide", remote: true, perform: (s, c) => goTo(s, c, c.layout.pageCount) },
  {
    name: "digit",
    label: "Type a slide number (then Enter goes to it)",
    perform: (s, _c, arg) => (typeof arg === "string" && /^[0-9]$/.test(arg) && s.entry.length < MAX_ENTRY ? { ...s, entry: s.entry + arg, notice: null } : s),
  },
  {
    name: "commitEntry",
    label: "Go to the typed slide",
    perform: (s, c) => {
      if (!s.entry) return goTo(s, c, s.page + 1);
      const page = pageForLabel(c.layout, s.entry);
      return page === null ? { ...s, entry: "", notice: `No slide “${s.entry}” in this deck.` } : goTo(s, c, page);
    },
  },
  { name: "eraseEntry", label: "Erase the last typed digit", perform: (s) => ({ ...s, entry: s.entry.slice(0, -1) }) },
  {
    name: "goToPage",
    label: "Go to a page",
    perform: (s, c, arg) => (typeof arg === "number" && Number.isFinite(arg) ? goTo(s, c, arg) : s),
  },
  { name: "overview", label: "Overview of all slides", perform: (s) => ({ ...s, panel: s.panel === "overview" ? "none" : "overview", entry: "" }) },
  { name: "help", label: "Show the keys", perform: (s) => ({ ...s, panel: s.panel === "help" ? "none" : "help", entry: "" }) },
  { name: "blackout", label: "Black screen for the audience (again to return)", remote: true, perform: (s) => toggleBlank(s, "black") },
  { name: "whiteout", label: "White screen for the audience (again to return)", remote: true, perform: (s) => toggleBlank(s, "white") },
  {
    name: "escape",
    label: "Close a panel, clear typed digits, or end a black/white screen",
    remote: true,
    perform: (s) => {
      if (s.panel !== "none") return { ...s, panel: "none" };
      if (s.entry || s.notice) return { ...s, entry: "", notice: null };
      return s.blank !== "none" ? { ...s, blank: "none" } : s;
    },
  },
  { name: "notesBigger", label: "Larger notes text", perform: (s) => scaleNotes(s, NOTES_STEP) },
  { name: "notesSmaller", label: "Smaller notes text", perform: (s) => scaleNotes(s, 1 / NOTES_STEP) },
  { name: "notesDown", label: "Scroll the notes down", effect: "notes-down", perform: same },
  { name: "notesUp", label: "Scroll the notes up", effect: "notes-up", perform: same },
  { name: "timerStart", label: "Start the timer", perform: (s, c) => ({ ...s, timer: startTimer(s.timer, c.now) }) },
  { name: "timerPause", label: "Pause or resume the timer", perform: (s, c) => ({ ...s, timer: toggleTimer(s.timer, c.now) }) },
  { name: "timerReset", label: "Reset the timer (it starts again at the next slide change)", perform: (s) => ({ ...s, timer: resetTimer() }) },
  { name: "fullscreen", label: "Full screen", effect: "fullscreen", perform: same },
  { name: "audience", label: "Open the audience window", effect: "open-audience", perform: same },
  { name: "wheelToggle", label: "Mouse wheel and swipes change slides (on/off)", perform: (s) => ({ ...s, wheelNavigation: !s.wheelNavigation }) },
  {
    name: "media",
    label: "A medium on the slide played, paused or moved",
    perform: (s, _c, arg) => (isPlayback(arg) ? { ...s, media: { ...s.media, [arg.id]: arg.playback } } : s),
  },
];

export const ACTIONS: ReadonlyMap<ActionName, PresenterAction> = new Map(list.map((a) => [a.name, a]));

export function getAction(name: string): PresenterAction | undefined {
  return ACTIONS.get(name as ActionName);
}

/** Run one action; unknown names leave the state as it is. */
export function perform(state: PresenterState, name: ActionName, context: ActionContext, arg?: unknown): PresenterState {
  const action = ACTIONS.get(name);
  return action ? action.perform(state, context, arg) : state;
}
