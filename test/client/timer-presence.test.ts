/**
 * Issue 21 item 3, without a browser: the timer counts only while a presenter window is open.
 * A saved running timer comes back running after a reload or a crash within the grace, and
 * stopped where the window was last seen after a longer gap (Continue or Reset, one click
 * each); the slide times never book the time the window was closed.
 */
import { describe, expect, test } from "bun:test";
import { elapsedSeconds, PRESENCE_GRACE_MS, restoreTimer, type TimerState } from "../../client/src/lib/timer.ts";
import { perform, type ActionContext, type ActionName } from "../../client/src/presenter/actions.ts";
import { layoutFromLabels } from "../../client/src/presenter/deck-layout.ts";
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

  test("after a longer gap it stops where the window was last seen: the closed time is not counted", () => {
    const seen = running.startedAt! + 60_000;
    const now = seen + 8 * MIN;
    const back = restoreTimer(running, seen, now);
    expect(back.awayMs).toBe(8 * MIN);
    expect(back.timer).toEqual({ status: "paused", startedAt: null, accumulatedMs: 90_000 });
    expect(elapsedSeconds(back.timer, now)).toBe(90);
  });

  test("a record that does not say when it was seen counts only up to the start of its stretch", () => {
    const back = restoreTimer(running, undefined, running.startedAt! + 10 * MIN);
    expect(back.timer).toEqual({ status: "paused", startedAt: null, accumulatedMs: 30_000 });
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

  test("reopened 8 minutes later: 1:30 elapsed, not 9:30; Continue books only the open time to the slide", () => {
    const { state, closedAt } = rehearse();
    clock = closedAt + 8 * MIN;
    const back = restoreTimer(state.timer, closedAt, clock);
    expect(back.awayMs).toBe(8 * MIN);
    let s: PresenterState = { ...state, timer: back.timer };
    expect(elapsedSeconds(s.timer, clock)).toBe(90);
    // While the speaker decides, nothing is booked.
    clock += 30_000;
    expect(slideTimesNow(s, layout, clock)).toEqual({ 1: 40, 2: 50 });
    // Continue (the timer's Start/Resume): counting on from 1:30.
    s = run(s, "timerStart");
    expect(s.timer.status).toBe("running");
    clock += 10_000;
    expect(elapsedSeconds(s.timer, clock)).toBe(100);
    expect(slideTimesNow(s, layout, clock)).toEqual({ 1: 40, 2: 60 });
    s = run(s, "next");
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
