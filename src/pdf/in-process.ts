/**
 * @module pdf/in-process
 * A PdfReader that runs mupdf in this process, for a command that reads a few files and
 * exits (`deckhand check`): no worker process to start, and mupdf's WASM compiled once for
 * all its files. The server's bounds still hold — the same wall-clock deadline and memory
 * bound as the pool (pdf/worker/pool), kept by a watchdog thread (pdf/watchdog) — but a file
 * past them ends the whole process with the pool's PDF_TOO_COMPLEX problem as its last words,
 * since nothing else stops mupdf's WASM. Never use it in the server.
 */
import type { AppError } from "../base/errors.ts";
import type { CheckReport } from "../deck/report-types.ts";
import type { CheckOptions, FileMeta, InspectedNotes, InspectResult, NotesFileInput, PdfReader } from "../core/pdf-reader.ts";
import { deadlineProblem, memoryProblem, PDF_MEMORY_BYTES, PDF_TIMEOUT_MS } from "./bounds.ts";
import { checkPdfFile } from "./check.ts";
import { loadMupdf } from "./mupdf.ts";
import { inspectNotesFile } from "./notes.ts";
import { inspectPdf } from "./open.ts";
import { type LastWords, startWatchdog, type Watchdog } from "./watchdog.ts";

export type { LastWords };

export interface InProcessOptions {
  /** Wall-clock deadline of one file (the pool's --pdf-timeout default). */
  timeoutMs: number;
  /** Resident-set bound of the process while a file is read (the pool's default); 0: none. */
  memoryBytes: number;
  /** What to print, and the exit status, when a file's read passes a bound (`error` is PDF_TOO_COMPLEX). */
  lastWords: (error: AppError) => LastWords;
}

const DEFAULT_LAST_WORDS = (error: AppError): LastWords => ({ out: "", err: `deckhand: ${error.code}: ${error.detail}\n`, exitCode: 2 });

export class InProcessPdfReader implements PdfReader {
  private readonly options: InProcessOptions;
  private watchdog: Watchdog | null = null;
  /** One file at a time: the watchdog guards one job. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(options: Partial<InProcessOptions> = {}) {
    this.options = { timeoutMs: PDF_TIMEOUT_MS, memoryBytes: PDF_MEMORY_BYTES, lastWords: DEFAULT_LAST_WORDS, ...options };
  }

  inspect(path: string, notes?: NotesFileInput): Promise<InspectResult> {
    return this.guarded(async () => {
      let judged: InspectedNotes | undefined;
      // The notes file is judged once the PDF passed (a refused PDF is the answer, whatever the notes).
      const info = await inspectPdf(path, notes ? (pageCount) => (judged = inspectNotesFile(notes, pageCount)).pdfpc : undefined);
      return judged ? { ...info, notes: judged } : info;
    });
  }

  check(path: string, meta: FileMeta, options?: CheckOptions, notes?: NotesFileInput): Promise<CheckReport> {
    return this.guarded(() => checkPdfFile(path, meta, options, notes));
  }

  async checkJson(path: string, meta: FileMeta, options?: CheckOptions, notes?: NotesFileInput): Promise<string> {
    return JSON.stringify(await this.check(path, meta, options, notes));
  }

  /** Stop the watchdog thread. */
  close(): void {
    this.watchdog?.stop();
    this.watchdog = null;
  }

  private guarded<T>(job: () => Promise<T>): Promise<T> {
    const run = this.chain.then(async () => {
      const { timeoutMs, memoryBytes, lastWords } = this.options;
      this.watchdog ??= startWatchdog();
      // As in the pool, whose deadline starts once a worker is ready: loading mupdf is not the file's time.
      await loadMupdf();
      // The last words are written now: once the main thread is stuck in WASM, nothing of it runs.
      this.watchdog.arm(timeoutMs, memoryBytes, lastWords(deadlineProblem(timeoutMs)), lastWords(memoryProblem(memoryBytes)));
      try {
        return await job();
      } finally {
        this.watchdog.disarm();
      }
    });
    this.chain = run.catch(() => undefined);
    return run;
  }
}
