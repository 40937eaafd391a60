/**
 * The audience copy of a medium follows the presenter's playback (client/presenter/media-sync),
 * on a stand-in element: the rules, without a browser (the e2e suites play real media).
 */
import { describe, expect, test } from "bun:test";
import { follow, MAX_DRIFT_S } from "../../client/src/presenter/media-sync.ts";

/** The parts of an HTMLMediaElement that `follow` reads and drives; `seeks` counts seeks. */
function element(currentTime: number, { loop = false, paused = true } = {}) {
  // deckhand loops by hand (client/lib/media): the flag is on the element's dataset.
  const el = { readyState: 4, currentTime, paused, ended: false, dataset: loop ? { loop: "true" } : {}, duration: 6, muted: false, seeks: 0 };
  return new Proxy(
    Object.assign(el, {
      play: async () => void (el.paused = false),
      pause: () => void (el.paused = true),
    }),
    {
      set(target, key, value) {
        if (key === "currentTime") target.seeks++;
        return Reflect.set(target, key, value);
      },
    },
  );
}

const media = (el: ReturnType<typeof element>) => el as unknown as HTMLMediaElement;
const NOW = 1_000_000;

describe("the audience copy of a medium", () => {
  test("is moved to the presenter's position when it is further off than the bound", () => {
    const el = element(0);
    follow(media(el), { playing: false, time: 4, at: NOW }, "none", NOW);
    expect(el.currentTime).toBe(4);
    expect(el.seeks).toBe(1);
  });

  test("is left alone within the bound, and follows play and pause", () => {
    const el = element(4 + MAX_DRIFT_S / 2);
    follow(media(el), { playing: true, time: 4, at: NOW }, "none", NOW);
    expect(el.seeks).toBe(0);
    expect(el.paused).toBe(false);
    follow(media(el), { playing: false, time: 4.05, at: NOW }, "none", NOW);
    expect(el.paused).toBe(true);
  });

  test("looping: a copy about to wrap is not seeked to the start the presenter's copy just wrapped to", () => {
    const el = element(5.95, { loop: true, paused: false });
    follow(media(el), { playing: true, time: 0.02, at: NOW }, "none", NOW);
    expect(el.seeks).toBe(0);
    // The same positions without a loop are 5.9 s apart: that copy is moved.
    const once = element(5.95, { paused: false });
    follow(media(once), { playing: true, time: 0.02, at: NOW }, "none", NOW);
    expect(once.seeks).toBe(1);
    // Far off around the loop too: moved.
    const far = element(3, { loop: true, paused: false });
    follow(media(far), { playing: true, time: 0.02, at: NOW }, "none", NOW);
    expect(far.currentTime).toBeCloseTo(0.02, 5);
  });

  test("falls silent and still on a black screen, without seeking", () => {
    const el = element(1, { paused: false });
    follow(media(el), { playing: true, time: 5, at: NOW }, "black", NOW);
    expect(el.muted).toBe(true);
    expect(el.paused).toBe(true);
    expect(el.seeks).toBe(0);
  });
});
