/**
 * The PDF pool's fair order (issue 20, finding 2): a job from an address with nothing running
 * goes before another job of an address that already holds a worker; an upload's validation
 * goes before a check; checks never take the last worker; otherwise first come, first served.
 */
import { describe, expect, test } from "bun:test";
import { checkShare, nextInLine, type WaitingJob } from "../../src/pdf/worker/fair-line.ts";

const job = (owner: string, kind: WaitingJob["kind"], seq: number): WaitingJob => ({ owner, kind, seq });

describe("nextInLine", () => {
  test("an address with nothing running goes before an earlier job of an address holding a worker", () => {
    const line = [job("A", "check", 1), job("A", "check", 2), job("B", "check", 3)];
    expect(nextInLine(line, new Map([["A", 1]]), true)).toBe(2);
  });

  test("the address running fewer jobs goes first, whatever it sends", () => {
    const line = [job("A", "inspect", 1), job("B", "check", 2)];
    expect(nextInLine(line, new Map([["A", 2], ["B", 1]]), true)).toBe(1);
  });

  test("among equals an upload's validation (inspect) goes before a check, then the oldest", () => {
    expect(nextInLine([job("A", "check", 1), job("B", "inspect", 2)], new Map(), true)).toBe(1);
    expect(nextInLine([job("A", "inspect", 5), job("B", "inspect", 2)], new Map(), true)).toBe(1);
  });

  test("a check waits while it may not start (checks fill their share, or no other loaded worker is idle); an inspect still runs", () => {
    const line = [job("A", "check", 1), job("B", "check", 2)];
    expect(nextInLine(line, new Map(), false)).toBe(-1);
    expect(nextInLine([...line, job("C", "inspect", 3)], new Map(), false)).toBe(2);
  });

  test("checks may hold all workers but one (all of a single worker)", () => {
    expect([checkShare(1), checkShare(2), checkShare(4)]).toEqual([1, 1, 3]);
  });
});
