/**
 * @module client/presenter/actions
 * Every thing a presenter can do, as one named action (Excalidraw's model): a label for the
 * key table, `perform(state, context, arg)` → the next state (pure, so it is tested without a
 * browser), and for the few that reach outside the state (full screen, a window, scrolling)
 * an `effect` the page carries out. Keys, buttons, swipes, the wheel, the pointer on the
 * slide and the audience window's clicker all dispatch these names; nothing else changes the
 * presenter state. The stage tools (modes, ink, zoom, freeze) are in ./tool-actions.ts; the
 * types both share are in ./action-types.ts, so the tools never import this module.
 */
import { resetTimer, startTimer, toggleTimer } from "../lib/timer.ts";
import { endPage, jumpSlides, nextShownPage, nextSlideStart, pageForLabel, previousShownPage, previousSlideStart } from "./deck-layout.ts";
import { clearEntry, entryPending, eraseDigit, expireEntry, settleEntry, typeDigit } from "./entry.ts";
import { advanceFrom } from "./auto-advance.ts";
import { parsePaceChoice } from "../record/pace.ts";
import { goTo, historyBack, historyForward, markSlideTime } from "./navigation.ts";
import { NOTES_SCALE_MAX, NOTES_SCALE_MIN, type Blank, type MediaPlayback, type PresenterState } from "./state.ts";
import { TOOL_ACTIONS, resizeTool } from "./tool-actions.ts";
import type { ActionContext, ActionName, PresenterAction } from "./action-types.ts";

export type { ActionContext, ActionName, Effect, PresenterAction } from "./action-types.ts";

/** Steps of the notes size: each press is a visible change, and the ends stay readable. */
const NOTES_STEP = 1.15;

function toggleBlank(state: PresenterState, blank: Exclude<Blank, "none">): PresenterState {
  return { ...state, blank: state.blank === blank ? "none" : blank };
}

function scaleNotes(state: PresenterState, factor: number): PresenterState {
  const scaled = Math.round(state.notesScale * factor * 100) / 100;
  return { ...state, notesScale: Math.min(NOTES_SCALE_MAX, Math.max(NOTES_SCALE_MIN, scaled)) };
}

/** +/-: the tool in hand grows or shrinks (pdfpc's increaseSize); in Normal, the notes text. */
function bigger(state: PresenterState, up: boolean): PresenterState {
  if (state.mode === "normal") return scaleNotes(state, up ? NOTES_STEP : 1 / NOTES_STEP);
  return resizeTool(state, up);
}

const same = (state: PresenterState) => state;

function isPlayback(value: unknown): value is { id: string; playback: MediaPlayback } {
  const v = value as { id?: unknown; playback?: Partial<MediaPlayback> } | null;
  return !!v && typeof v.id === "string" && !!v.playback && typeof v.playback.playing === "boolean" && Number.isFinite(v.playback.time) && Number.isFinite(v.playback.at);
}

/**
 * Enter: while a typed number is pending, go to the slide with that label; otherwise (nothing
 * typed, or the number expired — ./entry.ts) it is Next, after the expired number settled.
 */
function commitEntry(s: PresenterState, c: ActionContext): PresenterState {
  if (!entryPending(s, c.now)) {
    const settled = settleEntry(s);
    return goTo(settled, c, nextShownPage(c.layout, settled.page) ?? settled.page);
  }
  const page = pageForLabel(c.layout, s.entry);
  return page === null ? { ...clearEntry(s), notice: `No slide “${s.entry}” in this deck.` } : goTo(clearEntry(s), c, page, { jump: true });
}

function gotoLabel(s: PresenterState, c: ActionContext, arg: unknown): PresenterState {
  if (typeof arg !== "string" || !arg.trim()) return { ...s, panel: "none" };
  const page = pageForLabel(c.layout, arg);
  if (page === null) return { ...s, notice: `No slide “${arg.trim()}” in this deck.` };
  return { ...goTo(s, c, page, { jump: true }), panel: "none" };
}

function panel(s: PresenterState, which: PresenterState["panel"]): PresenterState {
  return { ...s, panel: s.panel === which ? "none" : which, entry: "" };
}

/**
 * Esc undoes the outermost thing, one at a time: a panel, typed digits, a zoom (or choosing
 * one), a black/white screen, a frozen audience, then the tool in hand.
 */
function escape(s: PresenterState): PresenterState {
  if (s.panel !== "none") return { ...s, panel: "none" };
  if (s.entry || s.notice) return { ...clearEntry(s), notice: null };
  if (s.zoomSelect) return { ...s, zoomSelect: false };
  if (s.overlays.zoom) return { ...s, overlays: { ...s.overlays, zoom: null } };
  if (s.blank !== "none") return { ...s, blank: "none" };
  if (s.frozen) return { ...s, frozen: null };
  if (s.mode !== "normal") return { ...s, mode: "normal", overlays: { ...s.overlays, pointer: null, live: null } };
  return s;
}

const core: PresenterAction[] = [
  { name: "next", label: "Next page (the next step of a slide's overlays); hidden pages are passed by", remote: true, perform: (s, c) => goTo(s, c, nextShownPage(c.layout, s.page) ?? s.page) },
  { name: "prev", label: "Previous page; hidden pages are passed by", remote: true, perform: (s, c) => goTo(s, c, previousShownPage(c.layout, s.page) ?? s.page) },
  { name: "nextForced", label: "Next page, even a hidden one (pdfpc)", remote: true, perform: (s, c) => goTo(s, c, s.page + 1) },
  { name: "prevForced", label: "Previous page, even a hidden one (pdfpc)", remote: true, perform: (s, c) => goTo(s, c, s.page - 1) },
  {
    name: "next10",
    label: "Ten slides on, the slide finished (pdfpc)",
    remote: true,
    perform: (s, c) => {
      const page = jumpSlides(c.layout, s.page, 10);
      return page === null ? s : goTo(s, c, page, { jump: true });
    },
  },
  {
    name: "prev10",
    label: "Ten slides back, the slide finished (pdfpc)",
    remote: true,
    perform: (s, c) => {
      const page = jumpSlides(c.layout, s.page, -10);
      return page === null ? s : goTo(s, c, page, { jump: true });
    },
  },
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
  { name: "first", label: "First slide", remote: true, perform: (s, c) => goTo(s, c, 1, { jump: true }) },
  {
    name: "last",
    label: "The talk's last slide (a pdfpc end slide, if the deck names one; again for the deck's last page)",
    remote: true,
    perform: (s, c) => goTo(s, c, endPage(c.layout, s.page), { jump: true }),
  },
  {
    name: "autoAdvance",
    label: "A page with a duration (/Dur) moved on by itself, as in pdfpc",
    internal: true,
    perform: (s, c, arg) => advanceFrom(s, c.layout, arg, (state, page) => goTo(state, c, page)),
  },
  { name: "digit", label: "Type a slide number (then Enter goes to it)", perform: (s, c, arg) => typeDigit(s, c.now, arg) },
  { name: "commitEntry", label: "Go to the typed slide", perform: commitEntry },
  { name: "eraseEntry", label: "Erase the last typed digit", perform: (s, c) => eraseDigit(s, c.now) },
  { name: "expireEntry", label: "A typed number waited too long", internal: true, perform: (s, c) => expireEntry(s, c.now) },
  { name: "settleEntry", label: "A pointer action: a typed number is not a slide number", internal: true, perform: settleEntry },
  {
    name: "goToPage",
    label: "Go to a page",
    internal: true,
    perform: (s, c, arg) => (typeof arg === "number" && Number.isFinite(arg) ? goTo(s, c, arg, { jump: true }) : s),
  },
  { name: "gotoPrompt", label: "Go to a slide: asks for its label (pdfpc)", perform: (s) => panel(s, "goto") },
  { name: "gotoLabel", label: "Go to the slide with the label given", internal: true, perform: gotoLabel },
  { name: "histBack", label: "Back to where the last jump came from (history)", perform: historyBack },
  { name: "histFwd", label: "Forward again in the history (after going back)", perform: historyForward },
  { name: "bookmarkSet", label: "Bookmark this page", perform: (s) => ({ ...s, bookmark: s.page, notice: "Bookmarked; Shift+M returns here." }) },
  {
    name: "bookmarkGo",
    label: "Return to the bookmark",
    perform: (s, c) => (s.bookmark === null ? { ...s, notice: "No bookmark yet: M sets one." } : goTo(s, c, s.bookmark, { jump: true })),
  },
  { name: "overview", label: "Overview of all slides", perform: (s) => panel(s, "overview") },
  { name: "help", label: "Show the keys (and change them)", perform: (s) => panel(s, "help") },
  { name: "blackout", label: "Black screen for the audience (again to return)", remote: true, perform: (s) => toggleBlank(s, "black") },
  { name: "whiteout", label: "White screen for the audience (again to return)", remote: true, perform: (s) => toggleBlank(s, "white") },
  { name: "escape", label: "Close a panel, clear typed digits, zoom out, end a black/white screen or a freeze, then back to Normal", remote: true, perform: escape },
  { name: "notesBigger", label: "Larger: the notes text, or the pen, eraser, pointer or spotlight in hand", perform: (s) => bigger(s, true) },
  { name: "notesSmaller", label: "Smaller: the notes text, or the tool in hand", perform: (s) => bigger(s, false) },
  { name: "notesDown", label: "Scroll the notes down", effect: "notes-down", perform: same },
  { name: "notesUp", label: "Scroll the notes up", effect: "notes-up", perform: same },
  {
    name: "timerStart",
    label: "Start the timer",
    perform: (s, c) => {
      const timer = startTimer(s.timer, c.now);
      return { ...s, timer, slideTimes: markSlideTime(s.slideTimes, c.layout, s.page, s.timer, c.now) };
    },
  },
  {
    name: "timerPause",
    label: "Pause or resume the timer",
    perform: (s, c) => ({ ...s, timer: toggleTimer(s.timer, c.now), slideTimes: markSlideTime(s.slideTimes, c.layout, s.page, s.timer, c.now) }),
  },
  {
    name: "timerReset",
    label: "Reset the timer (it starts again at the next slide change); this run's slide times become the previous run's",
    perform: (s, c) => {
      const current = markSlideTime(s.slideTimes, c.layout, s.page, s.timer, c.now).current;
      const previous = Object.keys(current).length ? current : s.slideTimes.previous;
      return { ...s, timer: resetTimer(), slideTimes: { current: {}, previous, mark: null } };
    },
  },
  { name: "slideTimes", label: "Rehearsal: the time spent on each slide", perform: (s) => panel(s, "times") },
  { name: "pace", label: "Pace the talk against the last rehearsal, the deck's duration, or nothing", perform: (s, _c, arg) => ({ ...s, pace: parsePaceChoice(arg ?? s.pace) }) },
  { name: "fullscreen", label: "Full screen", effect: "fullscreen", perform: same },
  { name: "audience", label: "Open the audience window (on a second screen when the browser can place it)", effect: "open-audience", perform: same },
  { name: "swapScreens", label: "Swap the presenter and audience screens", effect: "swap-screens", perform: same },
  { name: "live", label: "Go live: viewers follow on their own screens, a phone becomes the remote (again to show or hide the live panel)", effect: "live", perform: same },
  { name: "questions", label: "Questions and polls of the live talk (show or hide the panel)", effect: "questions", perform: same },
  { name: "showQuestion", label: "Show the most voted open question on the projector (again to take it away)", effect: "show-question", perform: same },
  { name: "record", label: "Record the talk: the microphone and everything the projector shows (show or hide the Record panel)", effect: "record", perform: same },
  { name: "layoutEditor", label: "Arrange the presenter's layout", perform: (s) => panel(s, "layout") },
  { name: "theme", label: "Light or dark presenter theme", effect: "theme", perform: same },
  { name: "exportPanel", label: "Download the deck (as it came, or with the ink)", perform: (s) => panel(s, "export") },
  { name: "wheelToggle", label: "Mouse wheel and swipes change slides (on/off)", perform: (s) => ({ ...s, wheelNavigation: !s.wheelNavigation }) },
  {
    name: "media",
    label: "A medium on the slide played, paused or moved",
    internal: true,
    perform: (s, _c, arg) => (isPlayback(arg) ? { ...s, media: { ...s.media, [arg.id]: arg.playback } } : s),
  },
];

/**
 * Actions that leave a typed number pending: the number keys themselves, Esc (it clears the
 * number without picking a tool) and what no one pressed (a medium reporting its playback, a
 * page that advanced by itself).
 */
const KEEPS_ENTRY = new Set<ActionName>(["digit", "commitEntry", "eraseEntry", "expireEntry", "settleEntry", "escape", "media", "autoAdvance"]);

/**
 * Any other action — a key, a button, the pointer, a remote — first settles the typed number
 * (./entry.ts): `3` then `→` is the pen and the next page; `4` `5` then `B` drops the 45.
 */
function settlingEntry(action: PresenterAction): PresenterAction {
  if (KEEPS_ENTRY.has(action.name)) return action;
  const perform = action.perform;
  return { ...action, perform: (state, context, arg) => perform(settleEntry(state), context, arg) };
}

const list: PresenterAction[] = [...core, ...TOOL_ACTIONS].map(settlingEntry);

export const ACTIONS: ReadonlyMap<ActionName, PresenterAction> = new Map(list.map((a) => [a.name, a]));

export function getAction(name: string): PresenterAction | undefined {
  return ACTIONS.get(name as ActionName);
}

/** Run one action; unknown names leave the state as it is. */
export function perform(state: PresenterState, name: ActionName, context: ActionContext, arg?: unknown): PresenterState {
  const action = ACTIONS.get(name);
  return action ? action.perform(state, context, arg) : state;
}
