/**
 * @module pdf/worker/pool
 * The server's PDF reader: a small pool of worker processes that run mupdf, so that no PDF can
 * stall the event loop. Each job has a wall-clock deadline and each worker a memory bound; a
 * job past either is killed with its process and answers 422 PDF_TOO_COMPLEX, and a fresh
 * worker takes its place. Jobs beyond the workers wait in a bounded line (503 SERVER_BUSY
 * past it), which is also the concurrency gate of /api/check and of MCP tool calls.
 *
 * Shared by reader time (docs/operating/availability.md): each job belongs to an owner
 * (pdf/worker/owner: the caller's address key) and takes the time it runs from the owner's
 * budget (pdf/worker/reader-budget; a job killed at a bound takes a whole deadline). The line
 * orders by recent reader time, costly owners and checks may hold all readers but one, and a
 * costly job holding the last reader a cheap owner needs is stopped and put back in the line
 * (pdf/worker/fair-line). Under pressure a reserve worker is kept loaded beyond `workers` (it
 * never runs a job while `workers` others do), so the cheap owner's job starts the moment the
 * slow one is stopped instead of waiting for mupdf to load. An owner that has spent its budget
 * (--pdf-strike-limit deadlines) is refused with 429 PDF_TOO_SLOW and a Retry-After of the time
 * until a deadline's worth is back, its waiting files too, before it costs others more.
 *
 * Processes rather than threads: a Worker thread stuck in WASM cannot be stopped reliably, a
 * thread's memory cannot be bounded on its own, and a crash in mupdf would take the server
 * with it. A process is killed for certain, and its memory is its own.
 *
 * Here the scheduling; the processes are pdf/worker/readers', the waiting jobs
 * pdf/worker/waiting-line's, the options and their defaults pdf/worker/pool-options'.
 */
import { AppError } from "../../base/errors.ts";
import type { ErrorCode } from "../../shared/problem.ts";
import type { CheckReport } from "../../deck/report-types.ts";
import { isCostly, type LineState, nextInLine, victim } from "./fair-line.ts";
import { currentPdfOwner, LOCAL_OWNER } from "./owner.ts";
import { ReaderBudget } from "./reader-budget.ts";
import type { CheckOptions, FileMeta, InspectResult, NotesFileInput, PdfReader } from "../../core/pdf-reader.ts";
import type { JobRequest, WorkerMessage } from "./protocol.ts";
import { deathError, isIdle, killReader, type Slot, spawnReader } from "./readers.ts";
import { PDF_POOL_DEFAULTS, type PdfPoolOptions } from "./pool-options.ts";
import { busy, finish, type Job, type JobInput, WaitingLine } from "./waiting-line.ts";

/** mupdf's WASM heap never shrinks: a worker that grew past this after a job is replaced. */
const RECYCLE_FRACTION = 0.5;
/** A worker that dies this many times in a row before it is ready means workers cannot start. */
const MAX_START_FAILURES = 3;
/** Reader time given back to each owner: one deadline a minute, so a loop of files past the deadline costs a reader a sixth of its time per address. */
const REFILL_DEADLINES_PER_MINUTE = 1;
/**
 * An owner whose job was stopped (at a bound, or to give its reader back) stays costly this
 * long whatever it has spent: a job stopped after a second spent a second, which comes back in
 * moments, and its next file would take the reader kept for cheap owners again.
 */
const SLOW_MEMORY_MS = 60_000;

export class PdfPool implements PdfReader {
  private readonly options: PdfPoolOptions;
  private readonly slots = new Set<Slot>();
  private readonly line: WaitingLine;
  private nextId = 1;
  private nextSeq = 1;
  private startFailures = 0;
  /** Reader time each owner spent and has not got back (pdf/worker/reader-budget). */
  private readonly budget: ReaderBudget;
  /** Reader time given back per ms of the clock (ms). */
  private readonly refillPerMs: number;
  /** Workers stopped for a cheap owner's job, no longer counted, until they have exited. */
  private readonly yielded = new Set<Slot>();
  /** Runs dispatch() again when a running owner turns costly or a waiting one cheap, or the reserve is due to go. */
  private recheck: ReturnType<typeof setTimeout> | undefined;
  /** Until when a reserve reader is kept loaded (performance.now() ms). */
  private reserveUntil = 0;
  private closed = false;

  constructor(options: Partial<PdfPoolOptions> = {}) {
    this.options = { ...PDF_POOL_DEFAULTS, ...options };
    if (!(this.options.workers >= 1)) throw new RangeError("a PDF pool needs at least one worker");
    this.line = new WaitingLine(this.options.maxWaitMs, () => [...this.slots].some((slot) => slot.ready && slot.killedFor === null));
    const { timeoutMs, strikeLimit } = this.options;
    this.refillPerMs = (REFILL_DEADLINES_PER_MINUTE * timeoutMs) / 60_000;
    this.budget = new ReaderBudget({
      capacityMs: strikeLimit > 0 ? strikeLimit * timeoutMs : Number.POSITIVE_INFINITY,
      refillMsPerSecond: this.refillPerMs * 1000,
      // Refused with less than half a deadline left (two files stopped at the deadline, at once
      // or in a row, leave less), served again with a whole deadline back: the next file's worth.
      refuseBelowMs: timeoutMs / 2,
      reopenMs: timeoutMs,
      slowMemoryMs: SLOW_MEMORY_MS,
    });
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

  /** Workers (and how many have mupdf loaded), and jobs running and waiting (for tests and logs). */
  get stats(): { workers: number; ready: number; running: number; waiting: number; pids: number[] } {
    const slots = [...this.slots];
    return { workers: slots.length, ready: slots.filter((s) => s.ready).length, running: slots.filter((s) => s.job).length, waiting: this.line.length, pids: slots.map((s) => s.proc.pid) };
  }

  /** Refuse new jobs, fail the waiting ones and stop every worker. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.recheck);
    this.line.failAll(busy("the server is shutting down"));
    const exits = [...this.slots, ...this.yielded].map((slot) => {
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
      const job: Job = { request, owner, seq: this.nextSeq++, stopped: false, settle: (outcome) => (outcome.ok ? resolve(outcome.value) : reject(outcome.error)) };
      if (this.closed) return finish(job, { ok: false, error: busy("the server is shutting down") });
      const refused = this.refusal(owner, performance.now());
      if (refused) return finish(job, { ok: false, error: refused });
      if (this.line.length >= this.options.maxWaiting && !this.line.makeRoomFor(owner)) {
        return finish(job, { ok: false, error: busy(`${this.line.length} files already waiting`) });
      }
      this.line.enqueue(job);
      this.dispatch();
    });
  }

  /** Time the jobs of `owner` running now have taken so far (ms). */
  private runningMs(owner: string, now: number): number {
    let total = 0;
    for (const slot of this.slots) if (slot.job?.job.owner === owner) total += now - slot.job.started;
    return total;
  }

  /** 429 PDF_TOO_SLOW while `owner` has spent its budget of reader time, else null. Work without a request (the CLI's own files) is never refused. */
  private refusal(owner: string, now: number): AppError | null {
    if (owner === LOCAL_OWNER) return null;
    const wait = this.budget.refusedFor(owner, now, this.runningMs(owner, now));
    if (wait <= 0) return null;
    const seconds = Math.max(1, Math.ceil(wait / 1000));
    const deadline = Math.round(this.options.timeoutMs / 100) / 10;
    return new AppError(
      "PDF_TOO_SLOW",
      `PDFs from this address have used up its share of the server's PDF reading time (${this.options.strikeLimit} × the ${deadline} s one file may take, ${deadline} s of it given back a minute); the server reads no more from this address for ${seconds} s. Export the deck again from its source, then send it after that time.`,
      { headers: { "retry-after": String(seconds) } },
    );
  }

  /**
   * Take `ms` of reader time from `owner` (`stopped`: its job did not end by itself); when that
   * spends its budget, its waiting files are refused too (they would only cost the others more).
   */
  private charge(owner: string, ms: number, now: number, stopped = false): void {
    if (!this.budget.charge(owner, ms, now, stopped) || owner === LOCAL_OWNER) return;
    const error = this.refusal(owner, now);
    if (!error) return;
    this.options.logger?.info("pdf_owner_refused", { owner, seconds: Number(error.headers?.["retry-after"]) });
    this.line.refuseOwner(owner, error);
  }

  /**
   * The owners' recent reader time and the readers' state, as the fair line sees them
   * (pdf/worker/fair-line). Idle readers count up to the jobs that may run (at most `workers`
   * at once: the reserve is only loaded ahead); `starting`: readers still loading count too.
   */
  private lineState(now: number, starting = false): LineState {
    const cost = new Map<string, number>();
    const files = new Map<string, number>();
    const count = (owner: string) => {
      files.set(owner, (files.get(owner) ?? 0) + 1);
      if (cost.has(owner)) return;
      const spent = this.budget.spent(owner, now) + this.runningMs(owner, now);
      // An owner whose job had to be stopped lately counts as costly whatever it has spent.
      cost.set(owner, this.budget.slowFor(owner, now) > 0 ? Math.max(spent, this.options.costlyMs) : spent);
    };
    for (const job of this.line.jobs) count(job.owner);
    let idle = 0;
    let running = 0;
    for (const slot of this.slots) {
      if (slot.job) {
        count(slot.job.job.owner);
        if (slot.killedFor === null) running++;
      } else if (isIdle(slot) || (starting && !slot.ready && slot.killedFor === null)) idle++;
    }
    const { workers, costlyMs } = this.options;
    const state: LineState = { cost, files, costlyMs, workers, idle: Math.min(idle, Math.max(0, workers - running)), checks: 0, costly: 0 };
    for (const slot of this.slots) {
      if (!slot.job || slot.killedFor !== null) continue;
      if (slot.job.job.request.kind === "check") state.checks++;
      if (isCostly(state, slot.job.job.owner)) state.costly++;
    }
    return state;
  }

  /**
   * Whether a reserve reader is wanted now: `workers` jobs run and a file waits, or a costly
   * owner has a file running or waiting. A job that turns out slow may then have to give its
   * reader to a cheap owner's, and a fresh reader takes 0.3–3 s to load mupdf.
   */
  private underPressure(state: LineState): boolean {
    if (state.costly > 0) return true;
    const running = [...this.slots].filter((s) => s.job && s.killedFor === null).length;
    if (this.line.length > 0 && running >= this.options.workers) return true;
    return this.line.jobs.some((job) => isCostly(state, job.owner));
  }

  /**
   * Hand waiting jobs to idle workers (at most `workers` run at once); start workers while there
   * is waiting work and room, and keep a reserve under pressure; stop a costly job a cheap one
   * needs the reader of.
   */
  private dispatch(): void {
    if (this.closed) return;
    const now = performance.now();
    offering: for (const slot of this.slots) {
      // An idle reader is offered the line until a job starts on it or none may start now: a job
      // refused here leaves it idle, and the next in line (the owner's other files, refused the
      // same way, then the others') must not wait for a later event to be offered it.
      while (isIdle(slot)) {
        const at = nextInLine(this.line.waiting(), this.lineState(now));
        if (at === -1) break offering;
        const job = this.line.take(at);
        // Its owner may have spent its budget while the job waited (time of its other jobs running).
        const refused = this.refusal(job!.owner, now);
        if (refused) finish(job!, { ok: false, error: refused });
        else this.start(slot, job!, now);
      }
    }
    const slots = [...this.slots];
    let starting = slots.filter((s) => !s.ready).length;
    while (this.line.length > starting && this.slots.size < this.options.workers) {
      this.spawn();
      starting++;
    }
    // While checks or costly owners hold their share, keep the worker they may not take loaded
    // and idle: an upload's validation then starts at once instead of waiting for mupdf to load
    // (seconds on a loaded machine). Under pressure one more, the reserve: loaded ahead, it
    // takes a cheap owner's job the moment a slow one is stopped (it never runs a job while
    // `workers` others do), and stays reserveKeepMs after the pressure.
    if (this.underPressure(this.lineState(now))) this.reserveUntil = now + this.options.reserveKeepMs;
    const reserve = now < this.reserveUntil ? 1 : 0;
    const free = [...this.slots].filter((s) => !s.job && s.killedFor === null);
    for (let have = free.length; have < 1 + reserve && this.slots.size < this.options.workers + reserve; have++) this.spawn();
    if (!reserve && this.slots.size > this.options.workers) {
      // The reserve is no longer wanted: an idle reader beyond `workers` gives its memory back.
      const surplus = free.find((s) => isIdle(s));
      if (surplus) this.kill(surplus, "surplus");
    }
    this.yieldReader(now);
    this.scheduleRecheck(now);
  }

  /**
   * A cheap owner's job waits while costly owners' jobs hold the reader it needs: the one the
   * fair line picks (pdf/worker/fair-line `victim`) is stopped now and goes back in the line,
   * its time so far charged to its owner; its worker is replaced at once.
   */
  private yieldReader(now: number): void {
    if (this.line.length === 0) return;
    const busySlots = [...this.slots].filter((s) => s.job && s.killedFor === null);
    const running = busySlots.map((s) => ({ owner: s.job!.job.owner, kind: s.job!.job.request.kind, started: s.job!.started, stoppedBefore: s.job!.job.stopped }));
    // A reader still starting counts as idle: the waiting job takes it when it is ready.
    const at = victim(this.line.waiting(), running, this.lineState(now, true));
    if (at === -1) return;
    const slot = busySlots[at]!;
    const { job, started, deadline } = slot.job!;
    clearTimeout(deadline);
    slot.job = null;
    this.options.logger?.info("pdf_job_yielded", { kind: job.request.kind, owner: job.owner, ms: Math.round(now - started) });
    this.kill(slot, "yield");
    // Gone from the pool now (its exit comes later): the replacement starts at once.
    this.slots.delete(slot);
    this.yielded.add(slot);
    job.stopped = true;
    this.charge(job.owner, now - started, now, true);
    // It waits again, behind the cheap owners' jobs, unless that time spent its owner's budget.
    const refused = this.refusal(job.owner, now);
    if (refused) finish(job, { ok: false, error: refused });
    else this.line.enqueue(job);
    this.dispatch();
  }

  /**
   * dispatch() again when the state the fair line judges by changes with time alone: a running
   * owner's reader time reaches `costlyMs` (its reader may go to a cheap owner, and a reserve is
   * wanted), a waiting costly owner's falls below it (it may take a free reader), or the reserve
   * is due to go.
   */
  private scheduleRecheck(now: number): void {
    clearTimeout(this.recheck);
    this.recheck = undefined;
    // The reserve goes when it is no longer wanted, even if no file comes to say so.
    let soonest = this.slots.size > this.options.workers && this.reserveUntil > now ? this.reserveUntil - now : Number.POSITIVE_INFINITY;
    const state = this.lineState(now);
    const runningBy = new Map<string, number>();
    for (const slot of this.slots) if (slot.job) runningBy.set(slot.job.job.owner, (runningBy.get(slot.job.job.owner) ?? 0) + 1);
    for (const [owner, cost] of state.cost) {
      const running = runningBy.get(owner) ?? 0;
      if (cost < state.costlyMs && running > 0) soonest = Math.min(soonest, (state.costlyMs - cost) / running);
      else if (cost >= state.costlyMs && running === 0 && this.line.length > 0) {
        soonest = Math.min(soonest, Math.max(this.budget.slowFor(owner, now), (this.budget.spent(owner, now) - state.costlyMs) / this.refillPerMs));
      }
    }
    if (!Number.isFinite(soonest)) return;
    this.recheck = setTimeout(() => this.dispatch(), Math.max(10, Math.ceil(soonest) + 1));
    // A timer of the line never keeps the process alive by itself.
    (this.recheck as { unref?: () => void }).unref?.();
  }

  private start(slot: Slot, job: Job, now: number): void {
    clearTimeout(job.waitTimer);
    const id = this.nextId++;
    const deadline = setTimeout(() => this.kill(slot, "deadline"), this.options.timeoutMs);
    slot.job = { id, job, deadline, started: now };
    // A worker with a job keeps the process alive until it answers; an idle one does not.
    slot.proc.ref();
    slot.proc.send({ ...job.request, id } as JobRequest);
  }

  private spawn(): void {
    try {
      this.slots.add(spawnReader(this.options.memoryBytes, (slot, message) => this.onMessage(slot, message), (slot, exitCode, signalCode) => this.onExit(slot, exitCode, signalCode)));
    } catch (cause) {
      this.line.failAll(new AppError("INTERNAL", undefined, { cause }));
    }
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
    slot.proc.unref();
    const now = performance.now();
    this.charge(running.job.owner, now - running.started, now);
    if (message.type === "done") finish(running.job, { ok: true, value: message.result });
    else {
      const cause = message.cause ? new Error(message.cause) : undefined;
      finish(running.job, { ok: false, error: new AppError(message.code as ErrorCode, message.detail, cause ? { cause } : undefined) });
    }
    if (message.rss > this.options.memoryBytes * RECYCLE_FRACTION) this.kill(slot, "recycle");
    else this.dispatch();
  }

  private onExit(slot: Slot, exitCode: number | null, signalCode: string | null): void {
    this.slots.delete(slot);
    this.yielded.delete(slot);
    const running = slot.job;
    if (running) {
      clearTimeout(running.deadline);
      slot.job = null;
      const error = deathError(slot, exitCode, signalCode, this.options);
      const now = performance.now();
      // A file stopped at the time or memory bound takes a whole deadline (not the time its
      // process took to go): a memory bomb that dies in a second costs a worker's restart too,
      // and must not be cheaper to repeat.
      const bound = error.code === "PDF_TOO_COMPLEX";
      if (slot.killedFor !== "close") this.charge(running.job.owner, bound ? this.options.timeoutMs : now - running.started, now, bound);
      finish(running.job, { ok: false, error });
    }
    if (!slot.ready && slot.killedFor === null && ++this.startFailures >= MAX_START_FAILURES) {
      this.line.failAll(new AppError("INTERNAL", undefined, { cause: new Error(`PDF workers exit before they are ready (last: code ${exitCode}, signal ${signalCode})`) }));
      this.startFailures = 0;
      return;
    }
    this.dispatch();
    // A killed worker is replaced at once, so the next upload does not wait for mupdf to load.
    if (slot.killedFor !== "close" && slot.ready) this.warm();
  }

  private kill(slot: Slot, reason: NonNullable<Slot["killedFor"]>): void {
    killReader(slot, reason, this.options.logger);
  }

}
