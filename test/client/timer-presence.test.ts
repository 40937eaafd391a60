/**
 * The timer across a closed presenter window, without a browser, on an injected clock: one
 * rule — a timer that was running keeps running, always. A gap within the grace (a reload, a
 * crash, a window closed by mistake: 40 s) is counted as talk time; a longer one (135 s, 8 min,
 * a day) is left out: the timer goes on from what it showed when the window was last seen, and
 * the slide times never book that gap. Reset starts a new run.
 */
import { describe, expect, test } from "bun:test";
import { elapsedSeconds, PRESENCE_GRACE_MS, restoreTimer, type TimerState } from "../../client/src/lib/timer.ts";
import { perform, type ActionContext, type ActionName } from "../../client/src/presenter/actions.ts";
import { layoutFromLabels } from "../../client/src/model/deck-layout.ts";
import { slideTimesNow } from "../../client/src/presenter/navigation.ts";
import { initialState, type PresenterState } from "../../client/src/presenter/state.ts";

const MIN = 60_000;
const layout = layoutFromLabels(["1", "2", "2", "3", "4"]);
let clock = 5_000_000;
const ctx = (): ActionContext => ({ layout, now: clock });
const run = (state: PresenterState, ...names: ActionName[]) => names.reduce((s, n) => perform(s, n, ctx()), state);

describe("restoreTimer", () => {
  const running: TimerState = { status: "running", startedAt: 1_000_000, accumulatedMs: 30_000 };

  test("a paused or idle timer comes back as it was, whatever the gap", () => {
    const paused: TimerState = { status: "paused", startedAt: null, accumulatedMs: 90_000 };
    expect(restoreTimer(paused, 0, 10 * 24 * 60 * MIN)).toEqual({ timer: paused, awayMs: null });
    const idle: TimerState = { status: "idle", startedAt: null, accumulatedMs: 0 };
    expect(restoreTimer(idle, 0, 10 * 24 * 60 * MIN)).toEqual({ timer: idle, awayMs: null });
  });

  test("a reload or a crash within the grace keeps it running, the gap counted", () => {
    const seen = running.startedAt! + 60_000;
    const back = restoreTimer(running, seen, seen + 20_000);
    expect(back).toEqual({ timer: running, awayMs: null });
    expect(elapsedSeconds(back.timer, seen + 20_000)).toBe(30 + 60 + 20);
    // Exactly at the grace still runs; a clock set back is not a gap.
    expect(restoreTimer(running, seen, seen + PRESENCE_GRACE_MS).awayMs).toBeNull();
    expect(restoreTimer(running, seen, seen - 5 * MIN).awayMs).toBeNull();
  });

  test("closed for 40 s: the gap is counted, the timer runs on, no notice", () => {
    const seen = running.startedAt! + 60_000;
    const back = restoreTimer(running, seen, seen + 40_000);
    expect(back).toEqual({ timer: running, awayMs: null });
    expect(elapsedSeconds(back.timer, seen + 40_000)).toBe(30 + 60 + 40);
  });

  test("closed for 135 s: the gap is left out, and the timer is running — on from what it showed when last seen", () => {
    const seen = running.startedAt! + 60_000;
    const now = seen + 135_000;
    const back = restoreTimer(running, seen, now);
    expect(back.awayMs).toBe(135_000);
    expect(back.timer).toEqual({ status: "running", startedAt: now, accumulatedMs: 90_000 });
    expect(elapsedSeconds(back.timer, now)).toBe(90);
    expect(elapsedSeconds(back.timer, now + 20_000)).toBe(110);
  });

  test("after any longer gap (8 min, a day) it is running too, never stopped", () => {
    const seen = running.startedAt! + 60_000;
    for (const gap of [8 * MIN, 24 * 60 * MIN]) {
      const back = restoreTimer(running, seen, seen + gap);
      expect(back.awayMs).toBe(gap);
      expect(back.timer.status).toBe("running");
      expect(elapsedSeconds(back.timer, seen + gap + 1000)).toBe(91);
    }
  });

  test("a record that does not say when it was seen counts only up to the start of its stretch", () => {
    const now = running.startedAt! + 10 * MIN;
    const back = restoreTimer(running, undefined, now);
    expect(back.timer).toEqual({ status: "running", startedAt: now, accumulatedMs: 30_000 });
    expect(back.awayMs).toBe(10 * MIN);
  });
});

describe("slide times across a closed window", () => {
  /** A talk: 1 → slide 2 (the timer starts), 40 s on it, then slide 3 for 50 s, then the window closes. */
  function rehearse(): { state: PresenterState; closedAt: number } {
    clock = 5_000_000;
    let s = initialState();
    s = run(s, "next");
    clock += 40_000;
    s = run(s, "next", "next");
    expect(s.page).toBe(4);
    clock += 50_000;
    return { state: s, closedAt: clock };
  }

  test("reopened 8 minutes later: 1:30 elapsed, not 9:30, and running on; the slide is booked only its open time", () => {
    const { state, closedAt } = rehearse();
    clock = closedAt + 8 * MIN;
    const back = restoreTimer(state.timer, closedAt, clock);
    expect(back.awayMs).toBe(8 * MIN);
    let s: PresenterState = { ...state, timer: back.timer };
    expect(elapsedSeconds(s.timer, clock)).toBe(90);
    // No click needed: it counts on from 1:30, and the slide on screen gets that time.
    clock += 10_000;
    expect(elapsedSeconds(s.timer, clock)).toBe(100);
    expect(slideTimesNow(s, layout, clock)).toEqual({ 1: 40, 2: 60 });
    s = run(s, "next");
    expect(s.timer.status).toBe("running");
    expect(s.slideTimes.current).toEqual({ 1: 40, 2: 60 });
  });

  test("Reset after the gap: zero, waiting for the next slide change; the rehearsal becomes the previous run", () => {
    const { state, closedAt } = rehearse();
    clock = closedAt + 24 * 60 * MIN;
    let s: PresenterState = { ...state, timer: restoreTimer(state.timer, closedAt, clock).timer };
    s = run(s, "timerReset");
    expect(s.timer.status).toBe("idle");
    expect(elapsedSeconds(s.timer, clock)).toBe(0);
    expect(s.slideTimes.previous).toEqual({ 1: 40, 2: 50 });
    expect(s.slideTimes.current).toEqual({});
  });

  test("a reload within the grace: the timer and the slide's time run through the gap", () => {
    const { state, closedAt } = rehearse();
    clock = closedAt + 15_000;
    const back = restoreTimer(state.timer, closedAt, clock);
    expect(back.awayMs).toBeNull();
    expect(slideTimesNow({ ...state, timer: back.timer }, layout, clock)).toEqual({ 1: 40, 2: 65 });
  });
});
