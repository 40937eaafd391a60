/**
 * @module client/presenter/audience
 * What the audience sees, derived from the presenter state and nothing else: the page,
 * black/white screens, media playback, and (for the stage tools) the mode and overlays.
 * The audience window renders exactly this; live viewers on other devices will get the same
 * value. Speaker-only things — notes, timer, panels, typed digits, notices — are not in it,
 * so they cannot reach the projector.
 */
import type { Blank, MediaPlayback, Mode, Overlays, PresenterState } from "./state.ts";

export interface AudienceState {
  page: number;
  blank: Blank;
  mode: Mode;
  overlays: Overlays;
  media: Record<string, MediaPlayback>;
}

export function audienceView(state: PresenterState): AudienceState {
  return { page: state.page, blank: state.blank, mode: state.mode, overlays: state.overlays, media: state.media };
}

/** Whether two audience states differ (only then is one sent). */
export function audienceChanged(a: AudienceState, b: AudienceState): boolean {
  return a.page !== b.page || a.blank !== b.blank || a.mode !== b.mode || a.overlays !== b.overlays || a.media !== b.media;
}

/**
 * Where a medium should be now, from the presenter's last report: a playing medium has
 * moved on by the time since `at` (wall clock, so it holds across windows and devices).
 */
export function expectedTime(playback: MediaPlayback, now: number): number {
  return playback.playing ? playback.time + Math.max(0, now - playback.at) / 1000 : playback.time;
}
