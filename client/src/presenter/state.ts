/**
 * @module client/presenter/state
 * Everything the presenter window is, as one immutable value: where the talk is, what the
 * audience sees, the timer, the notes size and which panel is open. Named actions
 * (./actions.ts) turn one state into the next; views render it; the audience window gets
 * the part meant for it (./audience.ts). Stage tools (pointer, ink, zoom, freeze) join as a
 * `mode` and `overlays`, and live viewers get the same audience part, without a new model.
 */
import { IDLE_TIMER, type TimerState } from "../lib/timer.ts";

export type Blank = "none" | "black" | "white";

/** Tools of the stage issue join here ("pointer" | "pen" | …); "normal" is plain presenting. */
export type Mode = "normal";

/**
 * Drawn over the slide on every screen (pointer, ink, zoom region). None exist yet; the
 * field is carried through to the audience so adding one changes no message type.
 */
export type Overlays = Record<string, never>;

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

export type Panel = "none" | "overview" | "help";

export interface PresenterState {
  /** Current PDF page, 1-based (a slide with overlays spans several pages). */
  page: number;
  blank: Blank;
  mode: Mode;
  overlays: Overlays;
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
}

export const NOTES_SCALE_MIN = 0.6;
export const NOTES_SCALE_MAX = 2.6;

export function initialState(overrides: Partial<PresenterState> = {}): PresenterState {
  return {
    page: 1,
    blank: "none",
    mode: "normal",
    overlays: {},
    media: {},
    timer: IDLE_TIMER,
    notesScale: 1,
    wheelNavigation: true,
    panel: "none",
    entry: "",
    notice: null,
    ...overrides,
  };
}
