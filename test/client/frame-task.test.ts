/**
 * One draw per frame (client/src/lib/frame-task.ts), on a clock driven by hand: any number of
 * asks before a frame run the task once; with no frame (a hidden page) the fallback timer runs
 * it; `now` runs it at once and not again at the frame; `requestIn` waits, one timer at a time.
 */
import { describe, expect, test } from "bun:test";
import { FRAME_FALLBACK_MS, FrameTask } from "../../client/src/lib/frame-task.ts";
import { handClock } from "../helpers/hand-clock.ts";

describe("a task drawn once per frame", () => {
  test("many asks before a frame: one run at the frame, and its fallback timer is cancelled", () => {
    const hand = handClock();
    let runs = 0;
    const task = new FrameTask(() => runs++, hand.clock);
    for (let i = 0; i < 1_000; i++) task.request();
    expect(runs).toBe(0);
    expect(hand.waiting()).toEqual({ frames: 1, timers: 1 });
    hand.frame();
    expect(runs).toBe(1);
    expect(hand.waiting()).toEqual({ frames: 0, timers: 0 });
    expect(task.pending).toBe(false);
  });

  test("no frame comes (a hidden page): the timer runs it after FRAME_FALLBACK_MS, once", () => {
    const hand = handClock();
    let runs = 0;
    const task = new FrameTask(() => runs++, hand.clock);
    task.request();
    hand.advance(FRAME_FALLBACK_MS - 1);
    expect(runs).toBe(0);
    hand.advance(1);
    expect(runs).toBe(1);
    hand.frame();
    expect(runs).toBe(1);
  });

  test("now runs it at once and not again at the frame; requestIn asks for a frame later, one wait at a time", () => {
    const hand = handClock();
    let runs = 0;
    const task = new FrameTask(() => runs++, hand.clock);
    task.request();
    task.now();
    expect(runs).toBe(1);
    hand.frame();
    hand.advance(FRAME_FALLBACK_MS);
    expect(runs).toBe(1);
    task.requestIn(1_000);
    task.requestIn(10);
    hand.advance(999);
    expect(task.pending).toBe(false);
    hand.advance(1);
    expect(task.pending).toBe(true);
    hand.frame();
    expect(runs).toBe(2);
  });

  test("a hidden page (no frames, slowed timers) runs it at the next turn instead, once however often asked", () => {
    const hand = handClock();
    const turns: (() => void)[] = [];
    let hidden = true;
    let runs = 0;
    const task = new FrameTask(() => runs++, { ...hand.clock, hidden: () => hidden, soon: (run) => (turns.push(run), () => {}) });
    task.request();
    task.request();
    expect(turns).toHaveLength(1);
    expect(hand.waiting()).toEqual({ frames: 0, timers: 0 });
    turns[0]!();
    expect(runs).toBe(1);
    hidden = false;
    task.request();
    expect(hand.waiting()).toEqual({ frames: 1, timers: 1 });
    hand.frame();
    expect(runs).toBe(2);
  });
});
