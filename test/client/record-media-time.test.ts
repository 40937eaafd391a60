/**
 * A medium playing on a slide, recorded and played back (client/record/media-time): its read
 * time goes onto the recording's clock when recorded and back onto the player's wall clock when
 * played, so the audience window's own media code puts it where it was at that moment of the
 * talk — and a paused player pauses it there.
 */
import { describe, expect, test } from "bun:test";
import { expectedTime, type AudienceState } from "../../client/src/presenter/audience.ts";
import { NO_OVERLAYS } from "../../client/src/presenter/state.ts";
import { onPlayerClock, onRecordingClock } from "../../client/src/record/media-time.ts";

const state = (media: AudienceState["media"]): AudienceState => ({ page: 2, blank: "none", mode: "normal", overlays: NO_OVERLAYS, ink: [], media, frozen: false });

describe("media in a recording", () => {
  test("recorded: a position read 300 ms before the event, at 12.5 s into the clip, is on the recording's clock", () => {
    const wall = 1_700_000_000_000;
    const recorded = onRecordingClock({ type: "state", state: state({ v: { playing: true, time: 12.5, at: wall - 300 } }) }, 60_000, wall);
    expect(recorded.type === "state" && recorded.state.media.v).toEqual({ playing: true, time: 12.5, at: 59_700 });
    // Other messages, and states without media, pass unchanged (the same object).
    const plain = { type: "state" as const, state: state({}) };
    expect(onRecordingClock(plain, 5, wall)).toBe(plain);
  });

  test("played back: at 65 s on the recording's clock the clip is 5.3 s further, whatever the wall clock says", () => {
    const recorded = state({ v: { playing: true, time: 12.5, at: 59_700 } });
    const wall = 2_000_000_000_000;
    const shown = onPlayerClock(recorded, 65_000, wall, true);
    expect(expectedTime(shown.media.v!, wall)).toBeCloseTo(17.8, 6);
    expect(expectedTime(shown.media.v!, wall + 1000)).toBeCloseTo(18.8, 6);
  });

  test("a paused player pauses the clip where it would be; a paused clip stays where it was", () => {
    const shown = onPlayerClock(state({ v: { playing: true, time: 12.5, at: 59_700 }, w: { playing: false, time: 3, at: 10 } }), 65_000, 99, false);
    expect(shown.media.v).toEqual({ playing: false, time: 17.8, at: 99 });
    expect(shown.media.w).toEqual({ playing: false, time: 3, at: 99 });
  });
});
