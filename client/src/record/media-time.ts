/**
 * @module client/record/media-time
 * A medium playing on a slide is sent as its position `time` read at `at`, a wall-clock
 * time (Date.now), so a receiver can tell where it is now. In a recording the wall clock
 * means nothing — a recording is played days later, paused, sought — so each `at` is written
 * on the recording's own clock instead (`onRecordingClock`: the event's time, less how long
 * before the event the position was read). Played back, the positions are put on the
 * player's wall clock again (`onPlayerClock`), so the audience window's own media code
 * follows them; while the player is paused, every medium is paused where it would be. Pure.
 */
import type { AudienceState } from "../presenter/audience.ts";
import type { MediaPlayback } from "../presenter/state.ts";
import type { PictureMessage } from "./timeline.ts";

function mapMedia(media: Record<string, MediaPlayback>, change: (p: MediaPlayback) => MediaPlayback): Record<string, MediaPlayback> {
  return Object.fromEntries(Object.entries(media).map(([id, p]) => [id, change(p)]));
}

/** The message as a recording keeps it: its media's `at` on the recording's clock (the event is at `t`, now is `wallNow`). */
export function onRecordingClock(message: PictureMessage, t: number, wallNow: number): PictureMessage {
  if (message.type !== "state" || !Object.keys(message.state.media).length) return message;
  return { ...message, state: { ...message.state, media: mapMedia(message.state.media, (p) => ({ ...p, at: t - (wallNow - p.at) })) } };
}

/**
 * A recorded state as the player shows it at `t` on the recording's clock: its media's `at`
 * back on the wall clock (`wallNow`) while playing; paused where they would be otherwise.
 */
export function onPlayerClock(state: AudienceState, t: number, wallNow: number, playing: boolean): AudienceState {
  if (!Object.keys(state.media).length) return state;
  const media = mapMedia(state.media, (p) => {
    if (playing) return { ...p, at: wallNow - (t - p.at) };
    const time = p.playing ? p.time + Math.max(0, t - p.at) / 1000 : p.time;
    return { ...p, playing: false, time, at: wallNow };
  });
  return { ...state, media };
}
