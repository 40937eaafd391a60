/**
 * @module pdf/worker/pool
 * The server's PDF reader: a small pool of worker processes that run mupdf, so that no PDF can
 * stall the event loop. Each job has a wall-clock deadline and each worker a memory bound; a
 * job past either is killed with its process and answers 422 PDF_TOO_COMPLEX, and a fresh
 * worker takes its place. Jobs beyond the workers wait in a bounded line (503 SERVER_BUSY
 * past it), which is also the concurrency gate of /api/check and of MCP tool calls.
 *
 * Shared fairly (issue 20): each job belongs to an owner (pdf/worker/owner: the caller's address
 * key). A waiting job whose owner runs fewer jobs goes first, so one address looping slow files
 * cannot hold the line; `check` jobs never take the last worker, so validating an upload
 * (`inspect`, the cheap, common job) never waits behind expensive checks; an owner whose jobs
 * hit the deadline or the memory bound `strikeLimit` times (--pdf-strike-limit) within STRIKE_WINDOW_MS is refused
 * (429 PDF_TOO_SLOW with Retry-After) for COOLDOWN_MS, before it costs others more.
 *
 * Processes rather than threads: a Worker thread stuck in WASM cannot be stopped reliably, a
 * thread's memory cannot be bounded on its own, and a crash in mupdf would take the server
 * with it. A process is killed for certain, and its memory is its own.
 */
import type { Subprocess } from "bun";
import { join } from "node:path";
import { AppError } from "../../errors.ts";
import { deadlineProblem, memoryProblem, PDF_MEMORY_BYTES, PDF_TIMEOUT_MS } from "../bounds.ts";
import type { ErrorCode } from "../../shared/problem.ts";
import type { Logger } from "../../log.ts";
import type { CheckReport } from "../../deck/report-types.ts";
import { checkShare, nextInLine } from "./fair-line.ts";
import { currentPdfOwner, LOCAL_OWNER } from "./owner.ts";
import type { CheckOptions, FileMeta, InspectResult, NotesFileInput, PdfReader } from "../../core/pdf-reader.ts";
import { type JobRequest, MEMORY_ENV, WORKER_COMMAND, type WorkerMessage } from "./protocol.ts";

export interface PdfPoolOptions {
  /** Worker processes at most; more jobs wait for one. */
  workers: number;
  /** Wall-clock deadline of one job, from the moment a worker takes it. */
  timeoutMs: number;
  /** Resident-set bound of one worker process (its watchdog kills it past this); loading mupdf alone peaks near 105 MB. */
  memoryBytes: number;
  /** Jobs waiting for a worker at most; the next one is refused with SERVER_BUSY. */
  maxWaiting: number;
  /** How long a job may wait for a worker before SERVER_BUSY. */
  maxWaitMs: number;
  /** Files past the deadline or memory bound from one owner before it is refused for COOLDOWN_MS (0: never). */
  strikeLimit: number;
  logger?: Logger;
}

export const PDF_POOL_DEFAULTS: PdfPoolOptions = {
  workers: 2,
  timeoutMs: PDF_TIMEOUT_MS,
  memoryBytes: PDF_MEMORY_BYTES,
  maxWaiting: 32,
  maxWaitMs: 30_000,
  // One file past the bounds may be an honest mistake; two in a few minutes is a pattern.
  strikeLimit: 2,
};

/** mupdf's WASM heap never shrinks: a worker that grew past this after a job is replaced. */
const RECYCLE_FRACTION = 0.5;
/** A worker that dies this many times in a row before it is ready means workers cannot start. */
const MAX_START_FAILURES = 3;
/** Seconds a refused caller should wait before retrying. */
const RETRY_AFTER_SECONDS = 5;
/** Strikes older than this are forgotten: a few minutes covers a loop, not a day's honest uploads. */
const STRIKE_WINDOW_MS = 5 * 60_000;
/** How long an owner with `strikeLimit` strikes is refused: long enough that a loop costs a worker at most a few times an hour. */
const COOLDOWN_MS = 60_000;
/** Owners whose strikes are remembered at most (one small entry each; beyond it the oldest go). */
const MAX_STRIKE_OWNERS = 10_000;

declare const DECKHAND_COMPILED: boolean | undefined;

/** How to start a worker: the binary's hidden command, or the module under Bun from source. */
export function workerCommand(): string[] {
  if (typeof DECKHAND_COMPILED === "boolean" && DECKHAND_COMPILED) return [process.execPath, WORKER_COMMAND];
  return [process.execPath, join(import.meta.dir, "main.ts")];
}

type Outcome = { ok: true; value: InspectResult | string } | { ok: false; error: AppError };

type JobInput = JobRequest extends infer R ? (R extends JobRequest ? Omit<R, "id"> : never) : never;

interface Job {
  request: JobInput;
  /** Whose job it is (pdf/worker/owner). */
  owner: string;
  /** Arrival order, the last tie-breaker. */
  seq: number;
  settle(outcome: Outcome): void;
  waitTimer?: ReturnType<typeof setTimeout>;
}

interface Slot {
  proc: Subprocess<"ignore", "ignore", "inherit">;
  ready: boolean;
  job: { id: number; job: Job; deadline: ReturnType<typeof setTimeout>; started: number } | null;
  /** Why we killed it, if we did. */
  killedFor: "deadline" | "recycle" | "close" | null;
}

function busy(reason: string): AppError {
  return new AppError("SERVER_BUSY", `The server is busy reading other PDFs (${reason}); retry in ${RETRY_AFTER_SECONDS} s.`, {
    headers: { "retry-after": String(RETRY_AFTER_SECONDS) },
  });
}

export class PdfPool implements PdfReader {
  private readonly options: PdfPoolOptions;
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private nextSeq = 1;
  private startFailures = 0;
  /** Jobs running per owner, for the fair order of the line. */
  private readonly runningBy = new Map<string, number>();
  /** Times an owner's job ran into a bound, and when a refused owner may send again. */
  private readonly strikes = new Map<string, { at: number[]; refusedUntil: number }>();
  private closed = false;

  constructor(options: Partial<PdfPoolOptions> = {}) {
    this.options = { ...PDF_POOL_DEFAULTS, ...options };
    if (!(this.options.workers >= 1)) throw new RangeError("a PDF pool needs at least one worker");
  }

  inspect(path: string, notes?: NotesFileInput): Promise<InspectResult> {
    return this.submit({ kind: "inspect", path, ...(notes ? { notes } : {}) }) as Promise<InspectResult>;
  }

  async check(path: string, meta: FileMeta, options?: CheckOptions, notes?: NotesFileInput): Promise<CheckReport> {
    return JSON.parse(await this.checkJson(path, meta, options, notes)) as CheckReport;
  }

  checkJson(path: string, meta: FileMeta, options?: CheckOptions, notes?: NotesFileInput): Promise<string> {
    return this.submit({ kind: "check", path, meta, ...(options ? { options } : {}), ...(notes ? { notes } : {}) }) as Promise<string>;
  }

  /** Start one worker now, so the first upload does not wait for mupdf to load. */
  warm(): void {
    if (!this.closed && this.slots.size === 0) this.spawn();
  }

  /** Workers running, and jobs running and waiting (for tests and logs). */
  get stats(): { workers: number; running: number; waiting: number; pids: number[] } {
    const slots = [...this.slots];
    return { workers: slots.length, running: slots.filter((s) => s.job).length, waiting: this.queue.length, pids: slots.map((s) => s.proc.pid) };
  }

  /** Refuse new jobs, fail the waiting ones and stop every worker. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) this.finish(job, { ok: false, error: busy("the server is shutting down") });
    const exits = [...this.slots].map((slot) => {
      // Held until it has exited: the caller awaits that.
      slot.proc.ref();
      this.kill(slot, "close");
      return slot.proc.exited;
    });
    await Promise.all(exits);
  }

  private submit(request: JobInput): Promise<InspectResult | string> {
    return new Promise((resolve, reject) => {
      const owner = currentPdfOwner();
      const job: Job = { request, owner, seq: this.nextSeq++, settle: (outcome) => (outcome.ok ? resolve(outcome.value) : reject(outcome.error)) };
      if (this.closed) return this.finish(job, { ok: false, error: busy("the server is shutting down") });
      const refused = this.refusal(owner);
      if (refused) return this.finish(job, { ok: false, error: refused });
      if (this.queue.length >= this.options.maxWaiting && !this.makeRoomFor(owner)) {
        return this.finish(job, { ok: false, error: busy(`${this.queue.length} files already waiting`) });
      }
      job.waitTimer = setTimeout(() => {
        const at = this.queue.indexOf(job);
        if (at === -1) return;
        this.queue.splice(at, 1);
        this.finish(job, { ok: false, error: busy(`no reader free within ${Math.round(this.options.maxWaitMs / 100) / 10} s`) });
      }, this.options.maxWaitMs);
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** 429 PDF_TOO_SLOW while `owner` is refused for files past the bounds, else null. */
  private refusal(owner: string): AppError | null {
    const entry = this.strikes.get(owner);
    const wait = entry ? entry.refusedUntil - Date.now() : 0;
    if (!entry || wait <= 0) return null;
    const seconds = Math.max(1, Math.ceil(wait / 1000));
    return new AppError(
      "PDF_TOO_SLOW",
      `${this.options.strikeLimit} PDFs from this address took longer (or more memory) than the server allows for one file; it reads no more from this address for ${seconds} s. Export the deck again from its source, then send it after that time.`,
      { headers: { "retry-after": String(seconds) } },
    );
  }

  /** Count a job of `owner` that ran into the deadline or the memory bound; refuse it for a while at `strikeLimit`. */
  private strike(owner: string): void {
    const now = Date.now();
    const entry = this.strikes.get(owner) ?? { at: [], refusedUntil: 0 };
    this.strikes.delete(owner);
    entry.at = [...entry.at.filter((t) => now - t < STRIKE_WINDOW_MS), now];
    // Re-inserted last: the map's first entries are the least recently struck.
    this.strikes.set(owner, entry);
    if (entry.at.length >= this.options.strikeLimit) {
      entry.refusedUntil = now + COOLDOWN_MS;
      entry.at = [];
      this.options.logger?.info("pdf_owner_refused", { owner, seconds: COOLDOWN_MS / 1000 });
      // Its files still waiting are refused too: they would only cost the others more.
      const error = (): AppError => this.refusal(owner) as AppError;
      for (let at = this.queue.length - 1; at >= 0; at--) {
        if (this.queue[at]!.owner === owner) this.finish(this.queue.splice(at, 1)[0]!, { ok: false, error: error() });
      }
    }
    while (this.strikes.size > MAX_STRIKE_OWNERS) this.strikes.delete(this.strikes.keys().next().value as string);
  }

  /**
   * The line is full: when another owner holds more of it than `owner` does, its newest waiting
   * job gives way (503 SERVER_BUSY for it), so many addresses still each get a place.
   */
  private makeRoomFor(owner: string): boolean {
    const held = new Map<string, number>();
    for (const job of this.queue) held.set(job.owner, (held.get(job.owner) ?? 0) + 1);
    const mine = held.get(owner) ?? 0;
    let heaviest: string | null = null;
    for (const [other, count] of held) if (count > mine + 1 && (heaviest === null || count > (held.get(heaviest) ?? 0))) heaviest = other;
    if (heaviest === null) return false;
    for (let at = this.queue.length - 1; at >= 0; at--) {
      if (this.queue[at]!.owner !== heaviest) continue;
      const [evicted] = this.queue.splice(at, 1);
      this.finish(evicted!, { ok: false, error: busy("this address has many files waiting; others go first") });
      return true;
    }
    return false;
  }

  /**
   * The waiting job to run next (pdf/worker/fair-line), or -1. A check may start while checks
   * hold less than their share and, with two workers or more, another loaded worker stays idle
   * for an upload's validation.
   */
  private nextIndex(): number {
    let checks = 0;
    let idle = 0;
    for (const slot of this.slots) {
      if (slot.job?.job.request.kind === "check") checks++;
      if (slot.ready && !slot.job && slot.killedFor === null) idle++;
    }
    const checkMayStart = checks < checkShare(this.options.workers) && (this.options.workers < 2 || idle >= 2);
    return nextInLine(this.queue.map((job) => ({ owner: job.owner, kind: job.request.kind, seq: job.seq })), this.runningBy, checkMayStart);
  }

  private finish(job: Job, outcome: Outcome): void {
    clearTimeout(job.waitTimer);
    job.settle(outcome);
  }

  /** Hand waiting jobs to idle workers; start workers while there is waiting work and room. */
  private dispatch(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (!(slot.ready && !slot.job && slot.killedFor === null)) continue;
      const at = this.nextIndex();
      if (at === -1) break;
      const [job] = this.queue.splice(at, 1);
      this.start(slot, job!);
    }
    let starting = [...this.slots].filter((s) => !s.ready).length;
    while (this.queue.length > starting && this.slots.size < this.options.workers) {
      this.spawn();
      starting++;
    }
    // While checks hold their share, keep the worker they may not take loaded and idle: an
    // upload's validation then starts at once instead of waiting for mupdf to load (seconds
    // on a loaded machine).
    const spare = [...this.slots].some((s) => !s.job && s.killedFor === null);
    if (!spare && this.slots.size < this.options.workers) this.spawn();
  }

  private start(slot: Slot, job: Job): void {
    clearTimeout(job.waitTimer);
    const id = this.nextId++;
    const deadline = setTimeout(() => this.kill(slot, "deadline"), this.options.timeoutMs);
    slot.job = { id, job, deadline, started: performance.now() };
    this.runningBy.set(job.owner, (this.runningBy.get(job.owner) ?? 0) + 1);
    // A worker with a job keeps the process alive until it answers; an idle one does not.
    slot.proc.ref();
    slot.proc.send({ ...job.request, id } as JobRequest);
  }

  private spawn(): void {
    let proc: Slot["proc"];
    const slot = { ready: false, job: null, killedFor: null } as unknown as Slot;
    try {
      proc = Bun.spawn(workerCommand(), {
        env: { ...process.env, [MEMORY_ENV]: String(this.options.memoryBytes) },
        stdin: "ignore",
        stdout: "ignore",
        stderr: "inherit",
        ipc: (message: WorkerMessage) => this.onMessage(slot, message),
        onExit: (_proc, exitCode, signalCode) => this.onExit(slot, exitCode, signalCode === null ? null : String(signalCode)),
      });
    } catch (cause) {
      this.failAll(new AppError("INTERNAL", undefined, { cause }));
      return;
    }
    // Workers never keep the server (or a test run, or `deckhand check`) alive by themselves.
    proc.unref();
    slot.proc = proc;
    this.slots.add(slot);
  }

  private onMessage(slot: Slot, message: WorkerMessage): void {
    if (message.type === "ready") {
      slot.ready = true;
      this.startFailures = 0;
      this.dispatch();
      return;
    }
    const running = slot.job;
    if (!running || running.id !== message.id) return;
    clearTimeout(running.deadline);
    slot.job = null;
    this.released(running.job.owner);
    slot.proc.unref();
    if (message.type === "done") this.finish(running.job, { ok: true, value: message.result });
    else {
      const cause = message.cause ? new Error(message.cause) : undefined;
      this.finish(running.job, { ok: false, error: new AppError(message.code as ErrorCode, message.detail, cause ? { cause } : undefined) });
    }
    if (message.rss > this.options.memoryBytes * RECYCLE_FRACTION) this.kill(slot, "recycle");
    else this.dispatch();
  }

  private onExit(slot: Slot, exitCode: number | null, signalCode: string | null): void {
    this.slots.delete(slot);
    const running = slot.job;
    if (running) {
      clearTimeout(running.deadline);
      slot.job = null;
      this.released(running.job.owner);
      const error = this.deathError(slot, exitCode, signalCode);
      // Work without a request (the CLI's own files) is never refused.
      if (error.code === "PDF_TOO_COMPLEX" && running.job.owner !== LOCAL_OWNER && this.options.strikeLimit > 0) this.strike(running.job.owner);
      this.finish(running.job, { ok: false, error });
    }
    if (!slot.ready && slot.killedFor === null && ++this.startFailures >= MAX_START_FAILURES) {
      this.failAll(new AppError("INTERNAL", undefined, { cause: new Error(`PDF workers exit before they are ready (last: code ${exitCode}, signal ${signalCode})`) }));
      this.startFailures = 0;
      return;
    }
    this.dispatch();
    // A killed worker is replaced at once, so the next upload does not wait for mupdf to load.
    if (slot.killedFor !== "close" && slot.ready) this.warm();
  }

  private released(owner: string): void {
    const left = (this.runningBy.get(owner) ?? 1) - 1;
    if (left <= 0) this.runningBy.delete(owner);
    else this.runningBy.set(owner, left);
  }

  private deathError(slot: Slot, exitCode: number | null, signalCode: string | null): AppError {
    if (slot.killedFor === "deadline") return deadlineProblem(this.options.timeoutMs);
    if (slot.killedFor === "close") return busy("the server is shutting down");
    // SIGKILL that we did not send: the watchdog (or the kernel) stopped a runaway heap.
    if (signalCode === "SIGKILL") return memoryProblem(this.options.memoryBytes);
    return new AppError("INTERNAL", undefined, { cause: new Error(`a PDF worker died during a job (code ${exitCode}, signal ${signalCode})`) });
  }

  private kill(slot: Slot, reason: NonNullable<Slot["killedFor"]>): void {
    if (slot.killedFor !== null) return;
    slot.killedFor = reason;
    if (reason === "deadline" && slot.job) {
      this.options.logger?.info("pdf_job_killed", { kind: slot.job.job.request.kind, reason, ms: Math.round(performance.now() - slot.job.started) });
    }
    slot.proc.kill("SIGKILL");
  }

  private failAll(error: AppError): void {
    for (const job of this.queue.splice(0)) this.finish(job, { ok: false, error });
  }
}
