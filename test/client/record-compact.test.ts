/**
 * A stored piece's events (client/record/compact): while the pen draws, an overlay event is kept
 * as the points the stroke gained, not the whole stroke again — and reads back exactly as it
 * came, for any sequence of events, each piece on its own.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { compactEvents, expandEvents } from "../../client/src/record/compact.ts";
import type { TimelineEvent } from "../../client/src/record/timeline.ts";
import { NO_OVERLAYS, type Overlays } from "../../client/src/presenter/state.ts";
import type { AudienceState } from "../../client/src/presenter/audience.ts";

const live = (points: number[], id = "s1", color = "#e11d48"): Overlays["live"] => ({ id, color, width: 4, points });
const overlay = (t: number, overlays: Partial<Overlays>): TimelineEvent => ({ t, m: { type: "overlay", overlays: { ...NO_OVERLAYS, ...overlays }, at: 1000 + t } });
const state = (t: number, page: number): TimelineEvent => ({ t, m: { type: "state", state: { page, blank: "none", mode: "pen", overlays: NO_OVERLAYS, ink: [], media: {}, frozen: false } as AudienceState } });

/** A stroke drawn sample by sample: each overlay event carries the whole stroke so far. */
function drawing(samples: number, from = 0): TimelineEvent[] {
  const points: number[] = [];
  const out: TimelineEvent[] = [];
  for (let i = 0; i < samples; i++) {
    points.push(10 + i, 20 + i, 0.5);
    out.push(overlay(from + i * 16, { live: live(points.slice()), pointer: { x: 10 + i, y: 20 + i, r: 4 } }));
  }
  return out;
}

describe("compacted events", () => {
  test("a stroke being drawn is kept as what each sample added: linear, not quadratic", () => {
    const size = (x: unknown) => JSON.stringify(x).length;
    const events = drawing(120);
    const stored = compactEvents(events);
    // Twice the samples: the events as sent grow about four times, the stored ones twice.
    const twice = drawing(240);
    expect(size(twice) / size(events)).toBeGreaterThan(3.5);
    expect(size(compactEvents(twice)) / size(stored)).toBeLessThan(2.2);
    expect(size(stored)).toBeLessThan(size(events) / 5);
    expect("grown" in stored[0]!).toBe(false);
    expect(stored.slice(1).every((e) => "grown" in e)).toBe(true);
    expect(expandEvents(stored)).toEqual(events);
  });

  test("a new stroke, another colour, a zoom or hidden ink starts over with the whole overlays", () => {
    const events = [
      overlay(0, { live: live([1, 1, 0.5]) }),
      overlay(16, { live: live([1, 1, 0.5, 2, 2, 0.5]) }),
      overlay(32, { live: live([5, 5, 0.5], "s2") }),
      overlay(48, { live: live([5, 5, 0.5, 6, 6, 0.5], "s2", "#2563eb") }),
      overlay(64, { live: live([5, 5, 0.5, 6, 6, 0.5, 7, 7, 0.5], "s2", "#2563eb"), zoom: { x: 0, y: 0, w: 100, h: 50 } }),
      overlay(80, { live: live([9, 9, 0.5]) }),
      state(90, 2),
      overlay(100, { live: null, pointer: { x: 1, y: 2, r: 7 } }),
    ];
    const stored = compactEvents(events);
    expect(stored.map((e) => "grown" in e)).toEqual([false, true, false, false, false, false, false, false]);
    expect(expandEvents(stored)).toEqual(events);
  });

  test("any sequence of events reads back exactly as it came", () => {
    const point = fc.tuple(fc.integer({ min: 0, max: 720 }), fc.integer({ min: 0, max: 405 }), fc.constantFrom(0.25, 0.5, 1));
    const step = fc.oneof(
      fc.record({ kind: fc.constant("grow" as const), add: fc.array(point, { minLength: 1, maxLength: 3 }) }),
      fc.record({ kind: fc.constant("new" as const), id: fc.constantFrom("a", "b", "c") }),
      fc.record({ kind: fc.constant("pointer" as const), x: fc.integer({ min: 0, max: 720 }) }),
      fc.record({ kind: fc.constant("state" as const), page: fc.integer({ min: 1, max: 4 }) }),
      fc.record({ kind: fc.constant("hide" as const) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let stroke: NonNullable<Overlays["live"]> | null = null;
        let hidden = false;
        const events: TimelineEvent[] = [];
        steps.forEach((s, i) => {
          const t = i * 10;
          if (s.kind === "state") return events.push(state(t, s.page));
          if (s.kind === "new") stroke = { id: s.id, color: "#e11d48", width: 4, points: [] };
          if (s.kind === "grow") stroke = { ...(stroke ?? { id: "z", color: "#111827", width: 2 }), points: [...(stroke?.points ?? []), ...s.add.flat()] };
          if (s.kind === "hide") hidden = !hidden;
          events.push(overlay(t, { live: stroke, inkHidden: hidden, pointer: s.kind === "pointer" ? { x: s.x, y: 1, r: 7 } : null }));
        });
        expect(expandEvents(compactEvents(events))).toEqual(events);
      }),
      { numRuns: 300 },
    );
  });
});
