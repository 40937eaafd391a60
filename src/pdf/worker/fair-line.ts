/**
 * @module pdf/worker/fair-line
 * Which waiting PDF job runs next, and which running job gives its reader back, decided from
 * each owner's recent reader time (pdf/worker/reader-budget plus its jobs running now). The job
 * of the owner that used the readers least recently goes first, so a new address's first upload
 * goes before more files of addresses whose files ran long; among owners with equal time, the
 * one with fewer files in the line; then `inspect` (an upload's validation: cheap, and a person
 * waits for it) before `check`; then the oldest.
 *
 * Two kinds of job may hold all readers but one, and start only while another loaded reader
 * stays idle: checks, and the jobs of costly owners (recent reader time at least `costlyMs`, or
 * a job stopped lately: the pool says which). So one reader is always left for uploads and for
 * addresses not known to be slow. An owner becomes costly while its job runs; when jobs of
 * costly owners hold every reader that way and a job of a cheap owner waits, the costliest one
 * is stopped and goes back in the line (`victim`), once per job. Pure, so the order is tested
 * without processes.
 */

export interface WaitingJob {
  owner: string;
  kind: "inspect" | "check";
  /** Arrival order. */
  seq: number;
}

export interface RunningJob {
  owner: string;
  kind: "inspect" | "check";
  /** When it started (ms): of equally costly owners, the job started last is stopped. */
  started: number;
  /** Stopped once already: it is not stopped again. */
  stoppedBefore: boolean;
}

/** What the order needs to know of the owners and the readers now. */
export interface LineState {
  /** Recent reader time of each owner with a job waiting or running (ms); absent: none. */
  cost: ReadonlyMap<string, number>;
  /** Files of each owner waiting or being read. */
  files: ReadonlyMap<string, number>;
  /** Recent reader time from which an owner is costly (ms). */
  costlyMs: number;
  /** Readers at most (--pdf-workers). */
  workers: number;
  /** Readers loaded and idle that may take a job now (no more than `workers` run at once). */
  idle: number;
  /** Readers running a check. */
  checks: number;
  /** Readers running a job of a costly owner. */
  costly: number;
}

/** How many readers checks, or the jobs of costly owners, may hold: all but one when there are two or more. */
export function shareLeavingOne(workers: number): number {
  return workers >= 2 ? workers - 1 : workers;
}

const costOf = (state: LineState, owner: string) => state.cost.get(owner) ?? 0;

/** Whether `owner` has used the readers for at least `costlyMs` recently. */
export function isCostly(state: LineState, owner: string): boolean {
  return costOf(state, owner) >= state.costlyMs;
}

/** The index in `line` of the job to run next on an idle reader, or -1 when none may start now. */
export function nextInLine(line: readonly WaitingJob[], state: LineState): number {
  if (state.idle < 1) return -1;
  const share = shareLeavingOne(state.workers);
  // Another loaded reader stays idle: the next upload starts at once instead of waiting for mupdf to load.
  const leavesOne = state.workers < 2 || state.idle >= 2;
  const checkMayStart = state.checks < share && leavesOne;
  const costlyMayStart = state.costly < share && leavesOne;
  let best = -1;
  let bestKey: readonly number[] | null = null;
  for (let at = 0; at < line.length; at++) {
    const job = line[at]!;
    const isCheck = job.kind === "check";
    if (isCheck && !checkMayStart) continue;
    if (!costlyMayStart && isCostly(state, job.owner)) continue;
    const key = [costOf(state, job.owner), state.files.get(job.owner) ?? 0, isCheck ? 1 : 0, job.seq];
    if (bestKey === null || before(key, bestKey)) {
      best = at;
      bestKey = key;
    }
  }
  return best;
}

function before(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}

/**
 * The index in `running` of the job to stop so that a waiting job of a cheap owner can start,
 * or -1. Only when every reader is loaded and busy with jobs of costly owners, or (for a check)
 * the share those hold keeps it out: a reader that is starting, or running a cheap owner's
 * job, is waited for. The costliest owner's job goes first (of equals, the one started last);
 * a job already stopped once is never stopped again.
 */
export function victim(line: readonly WaitingJob[], running: readonly RunningJob[], state: LineState): number {
  if (!line.some((job) => !isCostly(state, job.owner))) return -1;
  if (running.length + state.idle < state.workers) return -1;
  if (running.some((job) => !isCostly(state, job.owner))) return -1;
  const pick = nextInLine(line, state);
  if (pick !== -1 && !isCostly(state, line[pick]!.owner)) return -1;
  const order = running
    .map((job, at) => ({ job, at }))
    .filter(({ job }) => !job.stoppedBefore)
    .sort((a, b) => costOf(state, b.job.owner) - costOf(state, a.job.owner) || b.job.started - a.job.started);
  for (const { job, at } of order) {
    const freed: LineState = { ...state, idle: state.idle + 1, checks: state.checks - (job.kind === "check" ? 1 : 0), costly: state.costly - 1 };
    const next = nextInLine(line, freed);
    if (next !== -1 && !isCostly(freed, line[next]!.owner)) return at;
  }
  return -1;
}
