/**
 * @module pdf/worker/fair-line
 * Which waiting PDF job runs next (issue 20): the one whose owner (an address key) runs the
 * fewest jobs now, so a job from an address with nothing running goes before another job of an
 * address that already holds a worker; then `inspect` (an upload's validation: cheap, and a
 * person waits for it) before `check`; then the oldest. A `check` is passed over while checks
 * already fill their share of the workers, or when starting it would leave no loaded worker idle
 * for an upload, so an upload never waits behind expensive checks nor for mupdf to load.
 * Pure, so the order is tested without processes.
 */

export interface WaitingJob {
  owner: string;
  kind: "inspect" | "check";
  /** Arrival order. */
  seq: number;
}

/** The index in `line` of the job to run next, or -1 when none may run now. */
export function nextInLine(line: readonly WaitingJob[], runningBy: ReadonlyMap<string, number>, checkMayStart: boolean): number {
  let best = -1;
  let bestKey: readonly [number, number, number] | null = null;
  for (let at = 0; at < line.length; at++) {
    const job = line[at]!;
    const isCheck = job.kind === "check";
    if (isCheck && !checkMayStart) continue;
    const key = [runningBy.get(job.owner) ?? 0, isCheck ? 1 : 0, job.seq] as const;
    if (bestKey === null || key[0] < bestKey[0] || (key[0] === bestKey[0] && (key[1] < bestKey[1] || (key[1] === bestKey[1] && key[2] < bestKey[2])))) {
      best = at;
      bestKey = key;
    }
  }
  return best;
}

/** How many workers `check` jobs may hold: all but one when there are two or more, so `inspect` always finds one. */
export function checkShare(workers: number): number {
  return workers >= 2 ? workers - 1 : workers;
}
