/**
 * @module client/presenter/state
 * Everything the presenter window is, as one immutable value: where the talk is, what the
 * audience sees, the stage tools (mode, ink, pointer, zoom, freeze), the timer, the
 * rehearsal's slide times and what the talk is paced against, the notes size and which panel is open. Named actions
 * (./actions.ts, ./tool-actions.ts) turn one state into the next; views render it; the
 * audience window gets the part meant for it (./audience.ts), and live viewers will get the
 * same part.
 */
import type { NotesPosition } from "../../../src/deck/notes-layout.ts";
import { IDLE_TIMER, type TimerState } from "../lib/timer.ts";
import type { Point, Rect, Stroke } from "./ink.ts";

export type Blank = "none" | "black" | "white";

/** The stage tools, pdfpc's five: plain presenting, laser pointer, pen, eraser, spotlight. */
export type Mode = "normal" | "pointer" | "pen" | "eraser" | "spotlight";

/**
 * Drawn over the slide on every screen. Coordinates are PDF points from the page's top-left
 * (isotropic, so a stroke has one shape on every screen size, and export needs no conversion).
 */
export interface Overlays {
  /** The laser dot or the spotlight's centre and radius; null while the mouse is off the slide. */
  pointer: (Point & { r: number }) | null;
  /** The stroke being drawn now (committed to `ink` when the pen lifts). */
  live: Stroke | null;
  /** The part of the page shown, re-rendered sharp by mupdf; null = the whole page. */
  zoom: Rect | null;
  /** `d`: every stroke hidden on every screen (kept, not deleted). */
  inkHidden: boolean;
}

export const NO_OVERLAYS: Overlays = { pointer: null, live: null, zoom: null, inkHidden: false };

/** One medium's playback as the presenter's copy reports it. */
export interface MediaPlayback {
  playing: boolean;
  /** Position in seconds when it was read… */
  time: number;
  /** …at this wall-clock time (Date.now), so a receiver can extrapolate a playing medium. */
  at: number;
  /** The medium reached its end (a non-looping video); receivers let their copy finish. */
  ended?: boolean;
}

export type Panel = "none" | "overview" | "help" | "goto" | "layout" | "times" | "export";

/** Sizes of the tools in PDF points, changed by +/- while the tool is in hand. */
export interface ToolSizes {
  pen: number;
  eraser: number;
  pointer: number;
  spotlight: number;
}

export const PEN_COLOURS = ["#e11d48", "#2563eb", "#16a34a", "#f59e0b", "#111827", "#ffffff"] as const;
export const PEN_WIDTHS = [2, 4, 8] as const;
export const DEFAULT_SIZES: ToolSizes = { pen: 4, eraser: 12, pointer: 7, spotlight: 70 };

/** Undo and redo of one page's ink: snapshots of its stroke list (structurally shared). */
export interface InkHistory {
  undo: readonly (readonly Stroke[])[];
  redo: readonly (readonly Stroke[])[];
}

/** What the audience sees, frozen (`f`): kept while the presenter moves on. */
export interface Frozen {
  page: number;
  mode: Mode;
  overlays: Overlays;
  ink: readonly Stroke[];
  media: Record<string, MediaPlayback>;
}

/** Rehearsal: running-timer seconds spent on each logical slide (by slide index, 0-based). */
export interface SlideTimes {
  /** This run. */
  current: Record<number, number>;
  /** The run before the last timer reset, to pace the next one; null if none. */
  previous: Record<number, number> | null;
  /** Where the clock was read last: the page then and the elapsed seconds. */
  mark: { page: number; elapsed: number } | null;
}

/**
 * What the talk is paced against (../record/pace.ts): the last rehearsal, the deck's duration
 * spread by the rehearsal's proportions, or nothing. Kept with the deck.
 */
export type PaceChoice = "rehearsal" | "duration" | "off";

export interface PresenterState {
  /** Current PDF page, 1-based (a slide with overlays spans several pages). */
  page: number;
  blank: Blank;
  mode: Mode;
  overlays: Overlays;
  /** Ink by page: the committed strokes, stored per deck and page in IndexedDB. */
  ink: Readonly<Record<number, readonly Stroke[]>>;
  inkHistory: Readonly<Record<number, InkHistory>>;
  pen: { color: string };
  sizes: ToolSizes;
  /** `z` pressed: the next drag (or click) on the current slide picks the zoom region. */
  zoomSelect: boolean;
  frozen: Frozen | null;
  /** Pages left by jumps (not by steps), newest last: Shift+Backspace goes back. */
  history: readonly number[];
  /** Pages left by going back in the history, newest last: Shift+Space goes forward (pdfpc's histFwd). */
  future: readonly number[];
  bookmark: number | null;
  /**
   * The tool a lone typed digit picks (pdfpc's 1–5) if Enter does not follow in time: it is
   * only pending — never in `mode`, so never on the projector — until the number expires
   * (./entry.ts). Null once a second digit makes it a number.
   */
  entryTool: Mode | null;
  /** Wall-clock ms (Date.now) of the last digit typed: the pending number expires from it. */
  entryAt: number | null;
  slideTimes: SlideTimes;
  pace: PaceChoice;
  /** Media of the current page, by media id. */
  media: Record<string, MediaPlayback>;
  timer: TimerState;
  /** Notes text size as a factor of the default (pdfpc's +/-), remembered per browser. */
  notesScale: number;
  /** Mouse wheel and swipes change slides (pdfpc does); off by a setting. */
  wheelNavigation: boolean;
  panel: Panel;
  /** Digits typed so far for "number + Enter" (a slide label). */
  entry: string;
  /** A short message for the presenter (never shown to the audience), e.g. a label not found. */
  notice: string | null;
  /**
   * Where each page's notes half is (Beamer's notes on a second screen; "none": plain slides),
   * as the presenter applies it — the deck's own layout or the speaker's override. Every screen
   * shows only the slide half. null until the deck is open (screens keep their own meanwhile).
   */
  notesPosition: NotesPosition | null;
}

export const NOTES_SCALE_MIN = 0.6;
export const NOTES_SCALE_MAX = 2.6;

export function initialState(overrides: Partial<PresenterState> = {}): PresenterState {
  return {
    page: 1,
    blank: "none",
    mode: "normal",
    overlays: NO_OVERLAYS,
    ink: {},
    inkHistory: {},
    pen: { color: PEN_COLOURS[0] },
    sizes: DEFAULT_SIZES,
    zoomSelect: false,
    frozen: null,
    history: [],
    future: [],
    bookmark: null,
    entryTool: null,
    entryAt: null,
    slideTimes: { current: {}, previous: null, mark: null },
    pace: "rehearsal",
    media: {},
    timer: IDLE_TIMER,
    notesScale: 1,
    wheelNavigation: true,
    panel: "none",
    entry: "",
    notice: null,
    notesPosition: null,
    ...overrides,
  };
}
