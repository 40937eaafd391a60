/**
 * @module client/presenter/audience
 * What the audience sees, derived from the presenter state and nothing else: the page,
 * black/white screens, the stage tools (mode, pointer, the stroke being drawn, zoom), the
 * page's ink and media playback — or, while frozen, the picture kept at the freeze (a black
 * or white screen still covers it). The audience window renders exactly this; live viewers
 * on other devices will get the same value. Speaker-only things — notes, timer, panels, typed
 * digits, notices, other pages' ink, undo history — are not in it, so they cannot reach the
 * projector. Plain JSON: it crosses a BroadcastChannel now and a WebSocket later.
 */
import type { NotesPosition } from "../../../src/deck/notes-layout.ts";
import type { Stroke } from "./ink.ts";
import type { Blank, MediaPlayback, Mode, Overlays, PresenterState } from "./state.ts";

export interface AudienceState {
  page: number;
  blank: Blank;
  mode: Mode;
  overlays: Overlays;
  /** The committed strokes of `page` (empty while ink is hidden). */
  ink: readonly Stroke[];
  media: Record<string, MediaPlayback>;
  /** The picture is frozen (the presenter is elsewhere); only blank follows the presenter. */
  frozen: boolean;
  /**
   * The notes layout in force (which half of each page is the slide): a screen shows only the
   * slide half. Absent: the screen keeps the layout it has (its deck's own, until told).
   */
  notesPosition?: NotesPosition;
}

const EMPTY: readonly Stroke[] = [];

export function audienceView(state: PresenterState): AudienceState {
  // The layout is the deck's, not the picture's: a frozen picture follows a change of it too.
  const layout = state.notesPosition ? { notesPosition: state.notesPosition } : {};
  if (state.frozen) return { ...state.frozen, blank: state.blank, frozen: true, ...layout };
  const hidden = state.overlays.inkHidden;
  const overlays = hidden && state.overlays.live ? { ...state.overlays, live: null } : state.overlays;
  return { page: state.page, blank: state.blank, mode: state.mode, overlays, ink: hidden ? EMPTY : (state.ink[state.page] ?? EMPTY), media: state.media, frozen: false, ...layout };
}

/** Whether two audience states differ (only then is one sent). */
export function audienceChanged(a: AudienceState, b: AudienceState): boolean {
  return a.page !== b.page || a.blank !== b.blank || a.mode !== b.mode || a.overlays !== b.overlays || a.ink !== b.ink || a.media !== b.media || a.frozen !== b.frozen || a.notesPosition !== b.notesPosition;
}

/**
 * Whether only the fast-moving overlays (pointer, the stroke being drawn) changed: then a
 * small `overlay` message is enough, which keeps the pointer within a frame.
 */
export function onlyOverlaysChanged(a: AudienceState, b: AudienceState): boolean {
  return a.overlays !== b.overlays && a.page === b.page && a.blank === b.blank && a.mode === b.mode && a.ink === b.ink && a.media === b.media && a.frozen === b.frozen && a.notesPosition === b.notesPosition && a.overlays.zoom === b.overlays.zoom && a.overlays.inkHidden === b.overlays.inkHidden;
}

/**
 * Where a medium should be now, from the presenter's last report: a playing medium has
 * moved on by the time since `at` (wall clock, so it holds across windows and devices).
 */
export function expectedTime(playback: MediaPlayback, now: number): number {
  return playback.playing ? playback.time + Math.max(0, now - playback.at) / 1000 : playback.time;
}
