/**
 * @module pdf/worker/waiting-line
 * The jobs waiting for a PDF reader (pdf/worker/pool): each waits at most `maxWaitMs` (503
 * SERVER_BUSY past it, saying whether the readers were busy or still starting); a full line
 * makes room for an owner holding less of it than another (that one's newest job gives way),
 * so many addresses still each get a place; an owner that spent its budget has its waiting
 * jobs refused at once. Which job goes next is pdf/worker/fair-line's rule; the pool takes it
 * from here.
 */
import { AppError } from "../../base/errors.ts";
import type { InspectResult } from "../../core/pdf-reader.ts";
import type { WaitingJob } from "./fair-line.ts";
import type { JobRequest } from "./protocol.ts";

/** Seconds a refused caller should wait before retrying. */
const RETRY_AFTER_SECONDS = 5;

export type Outcome = { ok: true; value: InspectResult | string } | { ok: false; error: AppError };

export type JobInput = JobRequest extends infer R ? (R extends JobRequest ? Omit<R, "id"> : never) : never;

export interface Job {
  request: JobInput;
  /** Whose job it is (pdf/worker/owner). */
  owner: string;
  /** Arrival order, the last tie-breaker. */
  seq: number;
  /** It gave its reader back to a cheap owner's job once already (pdf/worker/fair-line `victim`). */
  stopped: boolean;
  settle(outcome: Outcome): void;
  waitTimer?: ReturnType<typeof setTimeout>;
}

/** 503 SERVER_BUSY with a Retry-After: `sentence`, then when to retry. */
function refusal(sentence: string): AppError {
  return new AppError("SERVER_BUSY", `${sentence}; retry in ${RETRY_AFTER_SECONDS} s.`, {
    headers: { "retry-after": String(RETRY_AFTER_SECONDS) },
  });
}

/** 503 SERVER_BUSY with a Retry-After, saying why. */
export function busy(reason: string): AppError {
  return refusal(`The server is busy reading other PDFs (${reason})`);
}

/**
 * 503 SERVER_BUSY for a job that waited `seconds` while no reader had loaded mupdf yet: the
 * server has just started (or its readers are being replaced), not busy with other files.
 */
function starting(seconds: number): AppError {
  return refusal(`The server is still starting its PDF readers (none was ready within ${seconds} s)`);
}

/** Answer `job` (its wait is over). */
export function finish(job: Job, outcome: Outcome): void {
  clearTimeout(job.waitTimer);
  job.settle(outcome);
}

export class WaitingLine {
  /** In arrival order (jobs put back after giving their reader away come last). */
  readonly jobs: Job[] = [];

  /** `anyReady`: whether some reader has mupdf loaded (else a job that waited too long is told they are starting). */
  constructor(
    private readonly maxWaitMs: number,
    private readonly anyReady: () => boolean,
  ) {}

  get length(): number {
    return this.jobs.length;
  }

  /** Put `job` in the line, to wait at most maxWaitMs (SERVER_BUSY past it). */
  enqueue(job: Job): void {
    job.waitTimer = setTimeout(() => {
      const at = this.jobs.indexOf(job);
      if (at === -1) return;
      this.jobs.splice(at, 1);
      const seconds = Math.round(this.maxWaitMs / 100) / 10;
      finish(job, { ok: false, error: this.anyReady() ? busy(`no reader free within ${seconds} s`) : starting(seconds) });
    }, this.maxWaitMs);
    this.jobs.push(job);
  }

  /** Take the job at `at` (an index of `waiting()`) out of the line. */
  take(at: number): Job {
    return this.jobs.splice(at, 1)[0]!;
  }

  /** The line as the fair order sees it (same indices as `jobs`). */
  waiting(): WaitingJob[] {
    return this.jobs.map((job) => ({ owner: job.owner, kind: job.request.kind, seq: job.seq }));
  }

  /** Refuse every waiting job of `owner` with `error`. */
  refuseOwner(owner: string, error: AppError): void {
    for (let at = this.jobs.length - 1; at >= 0; at--) {
      if (this.jobs[at]!.owner === owner) finish(this.jobs.splice(at, 1)[0]!, { ok: false, error });
    }
  }

  /** Refuse every waiting job with `error`. */
  failAll(error: AppError): void {
    for (const job of this.jobs.splice(0)) finish(job, { ok: false, error });
  }

  /**
   * The line is full: when another owner holds more of it than `owner` does, its newest waiting
   * job gives way (503 SERVER_BUSY for it), so many addresses still each get a place.
   */
  makeRoomFor(owner: string): boolean {
    const held = new Map<string, number>();
    for (const job of this.jobs) held.set(job.owner, (held.get(job.owner) ?? 0) + 1);
    const mine = held.get(owner) ?? 0;
    let heaviest: string | null = null;
    for (const [other, count] of held) if (count > mine + 1 && (heaviest === null || count > (held.get(heaviest) ?? 0))) heaviest = other;
    if (heaviest === null) return false;
    for (let at = this.jobs.length - 1; at >= 0; at--) {
      if (this.jobs[at]!.owner !== heaviest) continue;
      const [evicted] = this.jobs.splice(at, 1);
      finish(evicted!, { ok: false, error: busy("this address has many files waiting; others go first") });
      return true;
    }
    return false;
  }
}
