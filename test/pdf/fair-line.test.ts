/**
 * The PDF pool's order (pdf/worker/fair-line): the owner with the least recent reader time goes
 * first, then the one with fewer files, an upload's validation before a check, the oldest;
 * checks and costly owners' jobs hold all readers but one; and when costly owners' jobs hold the
 * reader a cheap owner's job needs, the costliest gives it back, once per job.
 */
import { describe, expect, test } from "bun:test";
import { type LineState, nextInLine, type RunningJob, shareLeavingOne, victim, type WaitingJob } from "../../src/pdf/worker/fair-line.ts";

const job = (owner: string, kind: WaitingJob["kind"], seq: number): WaitingJob => ({ owner, kind, seq });
const run = (owner: string, kind: RunningJob["kind"], started: number, stoppedBefore = false): RunningJob => ({ owner, kind, started, stoppedBefore });

/** Two readers, `costlyMs` 1 s; `cost` and `files` per owner; the readers' counts as given. */
function state(over: Partial<Omit<LineState, "cost" | "files">> & { cost?: Record<string, number>; files?: Record<string, number> } = {}): LineState {
  return {
    costlyMs: 1000,
    workers: 2,
    idle: 2,
    checks: 0,
    costly: 0,
    ...over,
    cost: new Map(Object.entries(over.cost ?? {})),
    files: new Map(Object.entries(over.files ?? {})),
  };
}

describe("nextInLine", () => {
  test("the owner with the least recent reader time goes first, whatever it sends and whenever it came", () => {
    const line = [job("A", "inspect", 1), job("A", "inspect", 2), job("B", "check", 3)];
    expect(nextInLine(line, state({ cost: { A: 40, B: 0 } }))).toBe(2);
    expect(nextInLine(line, state({ cost: { A: 0, B: 40 } }))).toBe(0);
  });

  test("between owners with no recent reader time, the one with fewer files in the line goes first", () => {
    const line = [job("A", "inspect", 1), job("A", "inspect", 2), job("A", "inspect", 3), job("B", "inspect", 4)];
    expect(nextInLine(line, state({ files: { A: 3, B: 1 } }))).toBe(3);
  });

  test("then an upload's validation (inspect) before a check, then the oldest", () => {
    expect(nextInLine([job("A", "check", 1), job("B", "inspect", 2)], state())).toBe(1);
    expect(nextInLine([job("A", "inspect", 5), job("B", "inspect", 2)], state())).toBe(1);
  });

  test("nothing starts without an idle reader", () => {
    expect(nextInLine([job("A", "inspect", 1)], state({ idle: 0 }))).toBe(-1);
  });

  test("a check waits while checks fill their share or no other loaded reader would stay idle; an inspect still runs", () => {
    const line = [job("A", "check", 1), job("B", "check", 2)];
    expect(nextInLine(line, state({ idle: 1 }))).toBe(-1);
    expect(nextInLine(line, state({ idle: 2, checks: 1, workers: 3 }))).toBe(0);
    expect(nextInLine(line, state({ idle: 2, checks: 2, workers: 3 }))).toBe(-1);
    expect(nextInLine([...line, job("C", "inspect", 3)], state({ idle: 1 }))).toBe(2);
  });

  test("a costly owner's job waits while costly owners fill their share or no other loaded reader would stay idle; a cheap owner's runs", () => {
    const line = [job("slow", "inspect", 1), job("new", "inspect", 2)];
    const cost = { slow: 15_000 };
    // Two readers: costly owners hold one at most.
    expect(nextInLine(line, state({ cost, idle: 1, costly: 1 }))).toBe(1);
    expect(nextInLine([line[0]!], state({ cost, idle: 1, costly: 1 }))).toBe(-1);
    // None held, but it would take the last idle reader.
    expect(nextInLine([line[0]!], state({ cost, idle: 1, costly: 0 }))).toBe(-1);
    expect(nextInLine([line[0]!], state({ cost, idle: 2, costly: 0 }))).toBe(0);
    // One reader: it may be taken (a cheap owner's job then takes it back, see victim).
    expect(nextInLine([line[0]!], state({ cost, workers: 1, idle: 1 }))).toBe(0);
  });

  test("checks and costly owners may hold all readers but one (all of a single reader)", () => {
    expect([shareLeavingOne(1), shareLeavingOne(2), shareLeavingOne(4)]).toEqual([1, 1, 3]);
  });
});

describe("victim", () => {
  test("two costly jobs hold both readers and a new address's upload waits: the costliest owner's job is stopped", () => {
    const line = [job("C", "inspect", 5), job("new", "inspect", 6)];
    const running = [run("A", "inspect", 0), run("B", "inspect", 100)];
    const s = state({ cost: { A: 4000, B: 1500, C: 2000 }, idle: 0, costly: 2 });
    expect(victim(line, running, s)).toBe(0);
  });

  test("of owners equally costly, the job started last is stopped (it loses least)", () => {
    const running = [run("A", "inspect", 0), run("B", "inspect", 100)];
    expect(victim([job("new", "inspect", 3)], running, state({ cost: { A: 1200, B: 1200 }, idle: 0, costly: 2 }))).toBe(1);
  });

  test("a job stopped once is never stopped again", () => {
    const running = [run("A", "inspect", 0, true), run("B", "inspect", 100)];
    const s = state({ cost: { A: 4000, B: 1500 }, idle: 0, costly: 2 });
    expect(victim([job("new", "inspect", 3)], running, s)).toBe(1);
    expect(victim([job("new", "inspect", 3)], [running[0]!, run("B", "inspect", 100, true)], s)).toBe(-1);
  });

  test("nothing is stopped while a cheap owner's job runs (its reader is free soon, or it turns costly)", () => {
    const running = [run("A", "inspect", 0), run("fresh", "inspect", 100)];
    expect(victim([job("new", "inspect", 3)], running, state({ cost: { A: 4000, fresh: 300 }, idle: 0, costly: 1 }))).toBe(-1);
  });

  test("nothing is stopped while a reader is starting or not yet started: the waiting job takes that one", () => {
    const s = state({ cost: { A: 4000 }, idle: 0, costly: 1 });
    expect(victim([job("new", "inspect", 3)], [run("A", "inspect", 0)], s)).toBe(-1);
  });

  test("nothing is stopped for a costly owner's job, nor when the cheap job can start anyway", () => {
    const running = [run("A", "inspect", 0), run("B", "inspect", 100)];
    const s = state({ cost: { A: 4000, B: 1500, C: 2000 }, idle: 0, costly: 2 });
    expect(victim([job("C", "inspect", 5)], running, s)).toBe(-1);
    expect(victim([job("new", "inspect", 5)], [run("A", "inspect", 0)], state({ cost: { A: 4000 }, idle: 1, costly: 1 }))).toBe(-1);
  });

  test("a cheap owner's check kept out by a costly owner's check holding the checks' share: that check is stopped", () => {
    const running = [run("A", "check", 0)];
    const s = state({ cost: { A: 3000 }, idle: 1, checks: 1, costly: 1 });
    expect(nextInLine([job("new", "check", 2)], s)).toBe(-1);
    expect(victim([job("new", "check", 2)], running, s)).toBe(0);
  });

  test("a single reader: a costly job is stopped for a cheap owner's job", () => {
    expect(victim([job("new", "inspect", 2)], [run("A", "inspect", 0)], state({ cost: { A: 3000 }, workers: 1, idle: 0, costly: 1 }))).toBe(0);
  });
});
