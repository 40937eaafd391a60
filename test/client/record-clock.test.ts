/**
 * The recording's clock (client/record/clock) stands still while paused and starts where a
 * continued recording left off; the player's silent clock (client/record/playback-clock) runs
 * at real speed from where it was sought and stops at the end.
 */
import { describe, expect, test } from "bun:test";
import { RecordingClock } from "../../client/src/record/clock.ts";
import { SilentClock } from "../../client/src/record/playback-clock.ts";

function fakeTime(start = 100) {
  let now = start;
  return { source: () => now, advance: (ms: number) => (now += ms) };
}

describe("the recording's clock", () => {
  test("counts only while running: paused time is not recorded time", () => {
    const time = fakeTime();
    const clock = new RecordingClock(0, time.source);
    expect(clock.now()).toBe(0);
    time.advance(500);
    expect(clock.now()).toBe(0);
    clock.run();
    time.advance(1500);
    expect(clock.now()).toBe(1500);
    clock.hold();
    time.advance(60_000);
    expect(clock.now()).toBe(1500);
    expect(clock.running).toBe(false);
    clock.run();
    time.advance(250.4);
    expect(clock.now()).toBe(1750);
    // Running twice or holding twice changes nothing.
    clock.run();
    time.advance(250);
    clock.hold();
    clock.hold();
    expect(clock.now()).toBe(2000);
  });

  test("a continued recording's clock starts at the length kept", () => {
    const time = fakeTime();
    const clock = new RecordingClock(42_000, time.source);
    clock.run();
    time.advance(1000);
    expect(clock.now()).toBe(43_000);
  });

  test("a source that steps back never makes the clock go back", () => {
    const time = fakeTime(1000);
    const clock = new RecordingClock(0, time.source);
    clock.run();
    time.advance(-500);
    expect(clock.now()).toBe(0);
  });
});

describe("the player's silent clock", () => {
  test("plays from where it was sought, pauses, and never runs past the end", async () => {
    const time = fakeTime();
    const clock = new SilentClock(10_000, time.source);
    expect(clock.playing()).toBe(false);
    clock.seek(4000);
    expect(clock.now()).toBe(4000);
    await clock.play();
    time.advance(1500);
    expect(clock.now()).toBe(5500);
    clock.pause();
    time.advance(3000);
    expect(clock.now()).toBe(5500);
    clock.seek(99_000);
    expect(clock.now()).toBe(10_000);
    clock.seek(-5);
    expect(clock.now()).toBe(0);
    clock.pause();
  });

  test("says when it reached the end, and plays again from the start", async () => {
    const clock = new SilentClock(30);
    let ended = 0;
    clock.onEnded = () => ended++;
    await clock.play();
    await Bun.sleep(120);
    expect(ended).toBe(1);
    expect(clock.playing()).toBe(false);
    expect(clock.now()).toBe(30);
    await clock.play();
    expect(clock.now()).toBeLessThan(30);
    clock.pause();
  });
});
