/**
 * Each address's budget of PDF reader time (pdf/worker/reader-budget): time spent comes back at
 * its rate; an owner with less than `refuseBelowMs` left is refused until `reopenMs` is left; time of jobs still
 * running counts; an owner whose job was stopped is remembered as slow for a while; a budget of
 * Infinity never refuses. The clock is passed in: no waiting.
 */
import { describe, expect, test } from "bun:test";
import { ReaderBudget } from "../../src/pdf/worker/reader-budget.ts";

// The server's defaults: two 10 s deadlines, one deadline back a minute, refused with less than
// half a deadline left, served again with a whole one.
const budget = () => new ReaderBudget({ capacityMs: 20_000, refillMsPerSecond: 10_000 / 60, refuseBelowMs: 5000, reopenMs: 10_000, slowMemoryMs: 60_000 });

describe("ReaderBudget", () => {
  test("time spent comes back at the refill rate, never below nothing", () => {
    const b = budget();
    expect(b.spent("A", 0)).toBe(0);
    b.charge("A", 600, 0);
    expect(b.spent("A", 0)).toBe(600);
    // 1/6 s a second: 600 ms are back after 3.6 s.
    expect(b.spent("A", 1800)).toBeCloseTo(300, 6);
    expect(b.spent("A", 3600)).toBeCloseTo(0, 6);
    expect(b.spent("A", 60_000)).toBe(0);
    expect(b.spent("B", 0)).toBe(0);
  });

  test("one file at the deadline leaves an owner served; a second, at once or in a row, leaves less than half a deadline: refused until a whole deadline is back", () => {
    const b = budget();
    expect(b.charge("A", 10_000, 0)).toBe(false);
    expect(b.refusedFor("A", 0)).toBe(0);
    // In a row (a reader restarted between them): 10 s − 1.75 s back + 10 s = 18.25 s spent.
    expect(b.charge("A", 10_000, 10_500)).toBe(true);
    expect(b.refusedFor("A", 10_500)).toBeCloseTo(49_500, 6);
    expect(b.refusedFor("A", 60_000)).toBe(0);
    // At once: two deadlines spent, refused until 10 s are back, 60 s.
    const c = budget();
    c.charge("A", 10_000, 0);
    expect(c.charge("A", 10_000, 0)).toBe(true);
    expect(c.refusedFor("A", 0)).toBeCloseTo(60_000, 6);
    expect(c.refusedFor("A", 59_000)).toBeCloseTo(1000, 6);
    expect(c.refusedFor("A", 60_000)).toBe(0);
    // Others are not touched.
    expect(c.refusedFor("B", 0)).toBe(0);
  });

  test("files under the deadline spend it too: time counts, not files past the bounds", () => {
    const b = budget();
    // 9 s files, back to back: 9 s, then 9 − 1.5 + 9 = 16.5 s spent, 3.5 s left.
    expect(b.charge("A", 9000, 9000)).toBe(false);
    expect(b.charge("A", 9000, 18_000)).toBe(true);
    // And many short ones: 100 checks of 60 ms a minute come back as fast as they are spent.
    const c = budget();
    for (let i = 0; i < 1000; i++) expect(c.charge("A", 60, i * 600)).toBe(false);
  });

  test("a charge while refused makes the wait longer and does not report a new refusal", () => {
    const b = budget();
    expect(b.charge("A", 20_000, 0)).toBe(true);
    expect(b.refusedFor("A", 0)).toBeCloseTo(60_000, 6);
    expect(b.charge("A", 10_000, 0)).toBe(false);
    expect(b.refusedFor("A", 0)).toBeCloseTo(120_000, 6);
  });

  test("the time of jobs running now counts toward the budget before it is charged", () => {
    const b = budget();
    b.charge("A", 12_000, 0);
    expect(b.refusedFor("A", 0, 2000)).toBe(0);
    // 12 + 9 = 21 s: refused until 10 s are left, 66 s.
    expect(b.refusedFor("A", 0, 9000)).toBeCloseTo(66_000, 6);
  });

  test("a budget of Infinity never refuses, but still tells the time spent", () => {
    const b = new ReaderBudget({ capacityMs: Number.POSITIVE_INFINITY, refillMsPerSecond: 1000 / 6, refuseBelowMs: 5000, reopenMs: 10_000, slowMemoryMs: 60_000 });
    for (let i = 0; i < 100; i++) expect(b.charge("A", 10_000, 0)).toBe(false);
    expect(b.refusedFor("A", 0)).toBe(0);
    expect(b.spent("A", 0)).toBe(1_000_000);
  });

  test("an owner whose job was stopped is slow for slowMemoryMs, however little it spent; a job that ended by itself does not make it slow", () => {
    const b = budget();
    b.charge("A", 5000, 0);
    expect(b.slowFor("A", 0)).toBe(0);
    b.charge("B", 1000, 0, true);
    expect(b.slowFor("B", 0)).toBe(60_000);
    // Its second came back within 6 s; it is still remembered as slow.
    expect(b.spent("B", 6000)).toBe(0);
    expect(b.slowFor("B", 6000)).toBe(54_000);
    expect(b.slowFor("B", 60_000)).toBe(0);
  });
});
