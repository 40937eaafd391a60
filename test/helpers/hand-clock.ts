/**
 * Animation frames and timers that run only when a test says (client/src/lib/frame-task.ts's
 * FrameClock): `frame()` runs the frames asked for, `advance(ms)` the timers due by then.
 */
import type { FrameClock } from "../../client/src/lib/frame-task.ts";

/** Frames and timers that run only when the test says. */
export function handClock() {
  let frames: (() => void)[] = [];
  let timers: { at: number; run: () => void }[] = [];
  let time = 0;
  const clock: FrameClock = {
    frame(run) {
      frames.push(run);
      return () => (frames = frames.filter((f) => f !== run));
    },
    later(run, ms) {
      const timer = { at: time + ms, run };
      timers.push(timer);
      return () => (timers = timers.filter((t) => t !== timer));
    },
  };
  return {
    clock,
    frame() {
      const due = frames;
      frames = [];
      for (const run of due) run();
    },
    advance(ms: number) {
      time += ms;
      for (const timer of timers.filter((t) => t.at <= time)) {
        timers = timers.filter((t) => t !== timer);
        timer.run();
      }
    },
    waiting: () => ({ frames: frames.length, timers: timers.length }),
    /** Milliseconds advanced so far. */
    now: () => time,
  };
}

