import { describe, expect, test } from "bun:test";
import { MIN_GAP_MS, REACT_BURST, REACT_RATE, ReactionBatch } from "../../client/src/live/viewer/reaction-batch.ts";
import { LIVE_REACTIONS, MAX_REACTION_BATCH, type LiveReactionCountsT, type LiveReactionT } from "../../src/shared/live-audience-protocol.ts";

/** A clock and timers driven by hand. */
function harness(connected = () => true) {
  let now = 0;
  const timers: { at: number; fn: () => void; live: boolean }[] = [];
  const sent: { at: number; counts: LiveReactionCountsT }[] = [];
  const batch = new ReactionBatch({
    now: () => now,
    later: (fn, ms) => {
      const t = { at: now + ms, fn, live: true };
      timers.push(t);
      return () => (t.live = false);
    },
    send: (counts) => {
      if (!connected()) return false;
      sent.push({ at: now, counts });
      return true;
    },
  });
  /** Move the clock to `to`, running the timers due on the way, in order. */
  const advance = (to: number) => {
    for (;;) {
      const due = timers.filter((t) => t.live && t.at <= to).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      due.live = false;
      now = Math.max(now, due.at);
      due.fn();
    }
    now = to;
  };
  return { batch, sent, advance, pending: () => timers.filter((t) => t.live).length };
}

const total = (sent: { counts: LiveReactionCountsT }[], emoji?: LiveReactionT) =>
  sent.reduce((sum, m) => sum + Object.entries(m.counts).reduce((s, [e, n]) => s + (emoji && e !== emoji ? 0 : (n ?? 0)), 0), 0);

describe("reaction taps are batched", () => {
  test("the first tap goes at once; taps right after it wait and go together, never one message per tap", () => {
    const { batch, sent, advance } = harness();
    batch.tap("👍");
    expect(sent).toEqual([{ at: 0, counts: { "👍": 1 } }]);
    for (let t = 10; t <= 200; t += 10) {
      advance(t);
      batch.tap(t % 20 ? "👏" : "👍");
    }
    expect(sent).toHaveLength(1);
    advance(MIN_GAP_MS);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual({ at: MIN_GAP_MS, counts: { "👍": 10, "👏": 10 } });
  });

  test("fast tapping for ten seconds: at most 4 messages in any second, the sustained rate stays under the server's 2/s, and every tap is counted", () => {
    const { batch, sent, advance } = harness();
    let taps = 0;
    // 12 taps a second across the six reactions, for 10 s.
    for (let t = 0; t < 10_000; t += 83) {
      advance(t);
      batch.tap(LIVE_REACTIONS[taps % LIVE_REACTIONS.length]!);
      taps++;
    }
    advance(20_000);
    expect(total(sent)).toBe(taps);
    expect(sent.length).toBeLessThan(taps / 5);
    for (let from = 0; from < 10_000; from += 50) expect(sent.filter((m) => m.at >= from && m.at < from + 1000).length).toBeLessThanOrEqual(4);
    const gaps = sent.slice(1).map((m, i) => m.at - sent[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(MIN_GAP_MS);
    // The whole run: the burst, then REACT_RATE a second (the server allows 2/s with a burst of 10).
    expect(sent.length).toBeLessThanOrEqual(REACT_BURST + Math.ceil((sent.at(-1)!.at / 1000) * REACT_RATE));
  });

  test("one message carries at most MAX_REACTION_BATCH taps of a reaction: the taps past it before the next send are dropped", () => {
    const { batch, sent, advance } = harness();
    batch.tap("🎉");
    for (let i = 0; i < 50; i++) batch.tap("🎉");
    advance(1_000);
    expect(sent.map((m) => m.counts["🎉"])).toEqual([1, MAX_REACTION_BATCH]);
    expect(sent.every((m) => Object.values(m.counts).every((n) => n! >= 1 && n! <= MAX_REACTION_BATCH))).toBe(true);
  });

  test("no taps, no messages and no timers; stop() forgets waiting taps", () => {
    const { batch, sent, advance, pending } = harness();
    advance(5_000);
    expect(sent).toHaveLength(0);
    expect(pending()).toBe(0);
    batch.tap("❓");
    batch.tap("❓");
    expect(batch.waiting).toBe(1);
    batch.stop();
    advance(10_000);
    expect(sent).toHaveLength(1);
    expect(batch.waiting).toBe(0);
  });

  test("something that is not one of the six reactions is not counted", () => {
    const { batch, sent } = harness();
    batch.tap("💩" as LiveReactionT);
    expect(sent).toHaveLength(0);
    expect(batch.waiting).toBe(0);
  });

  test("taps while the socket is down are dropped, not stored up for later", () => {
    let up = false;
    const { batch, sent, advance } = harness(() => up);
    batch.tap("❤️");
    advance(300);
    batch.tap("❤️");
    advance(600);
    up = true;
    batch.tap("😂");
    advance(2_000);
    expect(sent.map((m) => m.counts)).toEqual([{ "😂": 1 }]);
  });
});
