/**
 * @module pdf/worker/main
 * A PDF worker process: it loads mupdf once and runs the jobs the server sends over IPC, one
 * at a time. Runs as `deckhand __pdf-worker` inside the binary, or `bun src/pdf/worker/main.ts`
 * from source.
 *
 * A watchdog thread enforces the memory bound: when the process's resident set passes
 * DECKHAND_PDF_WORKER_MEMORY it kills the whole process, even while the main thread is stuck
 * inside mupdf's WASM. The server sees a SIGKILL it did not send and answers PDF_TOO_COMPLEX.
 * A thread is the portable way to do this (no /proc on macOS or Windows).
 */
import { AppError, isAppError } from "../../base/errors.ts";
import { checkPdfFile } from "../check.ts";
import { loadMupdf } from "../mupdf.ts";
import { inspectNotesFile } from "../notes.ts";
import type { InspectedNotes } from "../../core/pdf-reader.ts";
import { inspectPdf } from "../open.ts";
import type { InspectResult } from "../../core/pdf-reader.ts";
import { type JobRequest, MEMORY_ENV, type WorkerMessage } from "./protocol.ts";

/** How often the watchdog samples the resident set; a job grows far less than the bound in this time. */
const WATCH_INTERVAL_MS = 20;

/** Tells the watchdog thread that a job runs (true) or has ended (false); nothing without a bound. */
type Watching = (running: boolean) => void;

/**
 * The watchdog samples only while a job runs: between jobs the worker's resident set does not
 * grow, and a timer ticking fifty times a second would wake every idle worker for nothing (an
 * idle worker used 1% of a core; now it sleeps). The message reaches the thread even while the
 * main thread is stuck in WASM, since it is posted before the job starts.
 */
function startWatchdog(limitBytes: number): Watching {
  if (!(limitBytes > 0)) return () => {};
  // A Blob-URL worker needs no file of its own, so it works the same inside the compiled binary.
  const source = `
    const limit = ${Math.floor(limitBytes)};
    const look = () => {
      if (process.memoryUsage.rss() > limit) process.kill(process.pid, "SIGKILL");
    };
    let ticking = null;
    onmessage = (event) => {
      if (event.data && ticking === null) ticking = setInterval(look, ${WATCH_INTERVAL_MS});
      if (!event.data && ticking !== null) {
        clearInterval(ticking);
        ticking = null;
      }
      look();
    };
  `;
  const watchdog = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
  // Bun's Worker can be unref'd (not in the DOM typings): it must not keep the process alive.
  (watchdog as Worker & { unref?: () => void }).unref?.();
  return (running) => watchdog.postMessage(running);
}

function send(message: WorkerMessage): void {
  process.send?.(message);
}

/** The PDF first (a refused PDF is the answer, whatever the notes), then its notes file. */
async function inspect(job: Extract<JobRequest, { kind: "inspect" }>): Promise<InspectResult> {
  const notes = job.notes;
  let judged: InspectedNotes | undefined;
  const info = await inspectPdf(job.path, notes ? (pageCount) => (judged = inspectNotesFile(notes, pageCount)).pdfpc : undefined);
  return judged ? { ...info, notes: judged } : info;
}

async function run(job: JobRequest, watching: Watching): Promise<void> {
  watching(true);
  try {
    // A report can be megabytes: turned into text here, it crosses to the server as one string
    // that the server sends on as is, instead of being cloned and serialised on its event loop.
    const result = job.kind === "inspect" ? await inspect(job) : JSON.stringify(await checkPdfFile(job.path, job.meta, job.options, job.notes));
    send({ type: "done", id: job.id, result, rss: process.memoryUsage.rss() });
  } catch (error) {
    const appError = isAppError(error) ? error : new AppError("PDF_UNREADABLE", undefined, { cause: error });
    const cause = appError.cause instanceof Error ? `${appError.cause.name}: ${appError.cause.message}` : undefined;
    send({ type: "failed", id: job.id, code: appError.code, detail: appError.detail, rss: process.memoryUsage.rss(), ...(cause ? { cause } : {}) });
  } finally {
    watching(false);
  }
}

export async function runPdfWorker(): Promise<void> {
  const watching = startWatchdog(Number(process.env[MEMORY_ENV]));
  // Jobs arrive one at a time (the pool never sends a second before the first is answered),
  // but queue them anyway so a message is never lost.
  let chain = Promise.resolve();
  process.on("message", (job: JobRequest) => {
    chain = chain.then(() => run(job, watching));
  });
  // The server is gone (exited or killed): nothing left to work for.
  process.on("disconnect", () => process.exit(0));
  // Compile the WASM before saying ready, so the first job does not pay for it.
  await loadMupdf();
  // Compiling the 10 MB WASM leaves ~20 MB of garbage that JSC keeps for a long time; collect
  // it once so the worker's resident set settles at its real size (a one-shot CLI skips this).
  Bun.gc(true);
  send({ type: "ready" });
}

if (import.meta.main) await runPdfWorker();
