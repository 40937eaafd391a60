/**
 * @module pdf/worker/pool-options
 * What the PDF pool is built with (pdf/worker/pool): its readers, the bounds of one job, the
 * line's size and wait, and the owners' budget of reader time — and the defaults, each with
 * its reason. The server's flags set them (base/config).
 */
import type { Logger } from "../../base/log.ts";
import { PDF_MEMORY_BYTES, PDF_TIMEOUT_MS } from "../bounds.ts";

export interface PdfPoolOptions {
  /** Jobs running at once at most (worker processes, plus a loaded reserve under pressure); more jobs wait for one. */
  workers: number;
  /** Wall-clock deadline of one job, from the moment a worker takes it. */
  timeoutMs: number;
  /** Resident-set bound of one worker process (its watchdog kills it past this); loading mupdf alone peaks near 105 MB. */
  memoryBytes: number;
  /** Jobs waiting for a worker at most; the next one is refused with SERVER_BUSY. */
  maxWaiting: number;
  /** How long a job may wait for a worker before SERVER_BUSY. */
  maxWaitMs: number;
  /** Each owner's budget of reader time, in deadlines (`timeoutMs`); spent, it is refused with PDF_TOO_SLOW (0: never). */
  strikeLimit: number;
  /** Recent reader time from which an owner is costly: its jobs may hold all readers but one, and give theirs back to a cheap owner. */
  costlyMs: number;
  /** How long the reserve worker stays loaded after the last pressure. */
  reserveKeepMs: number;
  logger?: Logger;
}

export const PDF_POOL_DEFAULTS: PdfPoolOptions = {
  workers: 2,
  timeoutMs: PDF_TIMEOUT_MS,
  memoryBytes: PDF_MEMORY_BYTES,
  maxWaiting: 32,
  maxWaitMs: 30_000,
  // One file past the bounds may be an honest mistake; two at once, or a loop of slow files, is a pattern.
  strikeLimit: 2,
  // A 100 MB deck opens in ~10 ms and a 300-page deck with 100 attachments checks in ~60 ms
  // (pdf/bounds): a second is far past honest work, and short enough that a slow file gives its
  // reader back within about a second when a cheap owner's file waits for it.
  costlyMs: 1000,
  // An attack's pauses, without an idle process held for hours after it.
  reserveKeepMs: 60_000,
};
