/**
 * @module client/presenter/action-types
 * The shape of a presenter action and the names of them all, apart from the actions
 * themselves: ./actions.ts (the core list) and ./tool-actions.ts (the stage tools) both
 * build on these types, and neither has to import the other's module for them — the core
 * list includes the tools, never the other way round.
 */
import type { DeckLayout } from "./deck-layout.ts";
import type { PresenterState } from "./state.ts";

export interface ActionContext {
  layout: DeckLayout;
  /** Wall-clock ms (Date.now) of the action. */
  now: number;
  /** A page's size in PDF points (zoom regions are fitted to it); a 16:9 guess when unknown. */
  pageSize?: (page: number) => { w: number; h: number };
}

/** What a page does beyond the state: things only the DOM or the browser can do. */
export type Effect = "fullscreen" | "open-audience" | "notes-down" | "notes-up" | "swap-screens" | "theme" | "live" | "questions" | "show-question" | "record";

export interface PresenterAction {
  name: ActionName;
  /** What it does, for the key table (`?`) and the README. */
  label: string;
  /** An audience window may send it: a clicker or keyboard pointed at the projector's window. */
  remote?: boolean;
  effect?: Effect;
  /** Pointer and stroke samples: many a second, never a key of their own. */
  internal?: boolean;
  perform(state: PresenterState, context: ActionContext, arg?: unknown): PresenterState;
}

export type ActionName =
  | "next"
  | "prev"
  | "nextSlide"
  | "prevSlide"
  | "first"
  | "last"
  | "autoAdvance"
  | "nextForced"
  | "prevForced"
  | "next10"
  | "prev10"
  | "histFwd"
  | "digit"
  | "commitEntry"
  | "eraseEntry"
  | "expireEntry"
  | "settleEntry"
  | "goToPage"
  | "gotoPrompt"
  | "gotoLabel"
  | "histBack"
  | "bookmarkSet"
  | "bookmarkGo"
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
  | "slideTimes"
  | "pace"
  | "fullscreen"
  | "audience"
  | "swapScreens"
  | "live"
  | "questions"
  | "showQuestion"
  | "record"
  | "layoutEditor"
  | "theme"
  | "exportPanel"
  | "wheelToggle"
  | "media"
  | "modeNormal"
  | "modePointer"
  | "modePen"
  | "modeEraser"
  | "modeSpotlight"
  | "penColor"
  | "penWidth"
  | "pointer"
  | "strokeStart"
  | "strokeMove"
  | "strokeEnd"
  | "erase"
  | "clearInk"
  | "toggleInk"
  | "undo"
  | "redo"
  | "zoom"
  | "zoomTo"
  | "freeze";
