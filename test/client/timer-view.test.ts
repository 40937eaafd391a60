/**
 * The presenter's clocks are drawn every tick (twice a second) but change at most once a
 * second: renderTimer writes only what changed. A rewrite of the same text re-laid and
 * repainted an idle presenter twice a second — in WebKit without a GPU, a fifth of a core.
 */
import { describe, expect, test } from "bun:test";
import { renderTimer, type TimerEls } from "../../client/src/presenter/views/timer-view.ts";
import type { TimerState } from "../../client/src/lib/timer.ts";
import { fakeDocumentForFile, type FakeElement } from "../helpers/fake-dom.ts";

const doc = fakeDocumentForFile();

function clocks(): TimerEls & Record<string, FakeElement> {
  const el = (tag = "span") => doc().createElement(tag);
  return { elapsed: el(), countdownBox: el("div"), countdown: el(), wallclock: el(), toggle: el("button") } as unknown as TimerEls & Record<string, FakeElement>;
}

/** The text node each clock holds now: a node replaced is a node written. */
const nodes = (els: TimerEls) => [els.elapsed, els.countdown, els.wallclock, els.toggle].map((e) => (e as unknown as FakeElement).childNodes[0]);

describe("renderTimer", () => {
  const start = new Date(2026, 10, 29, 9, 0, 0, 0).getTime();
  const running: TimerState = { status: "running", startedAt: start, accumulatedMs: 0 };
  const settings = { durationMinutes: 20 };

  test("draws the elapsed time, the countdown, the wall clock and the button's word", () => {
    const els = clocks();
    renderTimer(els, running, settings, start + 61_000);
    expect(els.elapsed.textContent).toBe("1:01");
    expect(els.elapsed.dataset.status).toBe("running");
    expect(els.countdownBox.hidden).toBe(false);
    expect(els.countdown.textContent).toBe("18:59");
    expect(els.toggle.textContent).toBe("Pause");
    expect(els.wallclock.textContent).not.toBe("");
  });

  test("a tick within the same second writes nothing; the next second rewrites only the clocks that changed", () => {
    const els = clocks();
    renderTimer(els, running, settings, start + 10_100);
    const before = nodes(els);
    renderTimer(els, running, settings, start + 10_600);
    expect(nodes(els)).toEqual(before);
    for (const [i, node] of nodes(els).entries()) expect(node).toBe(before[i]);
    renderTimer(els, running, settings, start + 11_100);
    const after = nodes(els);
    expect(els.elapsed.textContent).toBe("0:11");
    expect(after[0]).not.toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    // The wall clock (same minute) and the button's word stay the nodes they were.
    expect(after[2]).toBe(before[2]);
    expect(after[3]).toBe(before[3]);
  });

  test("a pause changes the button's word and the status at once", () => {
    const els = clocks();
    renderTimer(els, running, settings, start + 5_000);
    renderTimer(els, { status: "paused", startedAt: null, accumulatedMs: 5_000 }, settings, start + 5_200);
    expect(els.toggle.textContent).toBe("Resume");
    expect(els.elapsed.dataset.status).toBe("paused");
    expect(els.elapsed.textContent).toBe("0:05");
  });
});
