/**
 * @module pdf/worker/readers
 * The PDF worker processes themselves, as the pool (pdf/worker/pool) holds them: how one is
 * started (the binary's hidden command, or the module under Bun from source), stopped (always
 * SIGKILL: a worker stuck in WASM answers nothing else), and what a job it held answers when
 * it died — the deadline's or the memory bound's problem, or an internal error. Which job a
 * reader takes, and when, is the pool's.
 */
import type { Subprocess } from "bun";
import { join } from "node:path";
import { AppError } from "../../base/errors.ts";
import type { Logger } from "../../base/log.ts";
import { deadlineProblem, memoryProblem } from "../bounds.ts";
import { MEMORY_ENV, WORKER_COMMAND, type WorkerMessage } from "./protocol.ts";
import { busy, type Job } from "./waiting-line.ts";

export interface Slot {
  proc: Subprocess<"ignore", "ignore", "inherit">;
  ready: boolean;
  job: { id: number; job: Job; deadline: ReturnType<typeof setTimeout>; started: number } | null;
  /** Why we killed it, if we did. */
  killedFor: "deadline" | "recycle" | "close" | "yield" | "surplus" | null;
}

declare const DECKHAND_COMPILED: boolean | undefined;

/** How to start a worker: the binary's hidden command, or the module under Bun from source. */
export function workerCommand(): string[] {
  if (typeof DECKHAND_COMPILED === "boolean" && DECKHAND_COMPILED) return [process.execPath, WORKER_COMMAND];
  return [process.execPath, join(import.meta.dir, "main.ts")];
}

/** Start a worker bounded to `memoryBytes`; its messages and its exit go to the callbacks. Throws when it cannot be started. */
export function spawnReader(memoryBytes: number, onMessage: (slot: Slot, message: WorkerMessage) => void, onExit: (slot: Slot, exitCode: number | null, signalCode: string | null) => void): Slot {
  const slot = { ready: false, job: null, killedFor: null } as unknown as Slot;
  const proc = Bun.spawn(workerCommand(), {
    env: { ...process.env, [MEMORY_ENV]: String(memoryBytes) },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "inherit",
    ipc: (message: WorkerMessage) => onMessage(slot, message),
    onExit: (_proc, exitCode, signalCode) => onExit(slot, exitCode, signalCode === null ? null : String(signalCode)),
  });
  // Workers never keep the server (or a test run, or `deckhand check`) alive by themselves.
  proc.unref();
  slot.proc = proc;
  return slot;
}

/** A reader that may take a job now. */
export function isIdle(slot: Slot): boolean {
  return slot.ready && !slot.job && slot.killedFor === null;
}

/** Stop `slot`'s process for `reason` (once; a job stopped at its deadline is logged). */
export function killReader(slot: Slot, reason: NonNullable<Slot["killedFor"]>, logger?: Logger): void {
  if (slot.killedFor !== null) return;
  slot.killedFor = reason;
  if (reason === "deadline" && slot.job) {
    logger?.info("pdf_job_killed", { kind: slot.job.job.request.kind, reason, ms: Math.round(performance.now() - slot.job.started) });
  }
  slot.proc.kill("SIGKILL");
}

/** What the job of a worker that died answers, given why it died. */
export function deathError(slot: Slot, exitCode: number | null, signalCode: string | null, bounds: { timeoutMs: number; memoryBytes: number }): AppError {
  if (slot.killedFor === "deadline") return deadlineProblem(bounds.timeoutMs);
  if (slot.killedFor === "close") return busy("the server is shutting down");
  // SIGKILL that we did not send: the watchdog (or the kernel) stopped a runaway heap.
  if (signalCode === "SIGKILL") return memoryProblem(bounds.memoryBytes);
  return new AppError("INTERNAL", undefined, { cause: new Error(`a PDF worker died during a job (code ${exitCode}, signal ${signalCode})`) });
}
