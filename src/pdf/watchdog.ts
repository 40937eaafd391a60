/**
 * @module pdf/watchdog
 * The bounds of a PDF read that runs in this process (pdf/in-process): a thread that watches
 * the wall clock and the process's resident set while a job is armed (and sleeps between jobs)
 * and, past either bound, writes the job's last words and ends the whole process.
 *
 * Why a thread that ends the process: mupdf's WASM runs on the main thread, so no timer of
 * the main thread fires while it is stuck, and neither `Worker.terminate()` nor anything else
 * interrupts WASM (measured: a terminated Bun Worker spinning in WASM kept its core busy). A
 * thread's `process.exit` ends only that thread, so the exit code comes from libc's `_exit`
 * (kernel32's `ExitProcess` on Windows) through bun:ffi; where that fails, SIGKILL.
 *
 * A job that ends just as its bound passes is won by one thread only. Which job is armed lives
 * in memory both threads share, and each side takes the job from there with one atomic
 * compare-and-swap: the thread before it writes the last words, the main thread when it
 * disarms. Before, the disarm was a message the thread read later: on a loaded machine a small
 * file read past the deadline got its last words written while `deckhand check` went on
 * printing, and `--json` printed two entries for one file and no valid array.
 */
import { writeSync } from "node:fs";

/** What the process says when a bound stops it, and its exit status. */
export interface LastWords {
  out: string;
  err: string;
  exitCode: number;
}

/** What the watchdog thread holds for the running job. */
interface Armed {
  /** The job's number: the shared state holds it while the job is armed. */
  job: number;
  /** Epoch milliseconds (Date.now: the same clock in both threads). */
  until: number;
  memoryBytes: number;
  late: LastWords;
  big: LastWords;
}

/** How often the thread looks; a job grows far less than the memory bound in this time. */
const WATCH_INTERVAL_MS = 20;

/** The shared state when the thread has taken the armed job and is ending the process (jobs are numbered from 1; 0 is none armed). */
const ENDING = -1;

// Runs in the thread. A Blob-URL worker needs no file of its own, so it works the same inside
// the compiled binary (as pdf/worker/main's memory watchdog).
const THREAD_SOURCE = `
let armed = null;
/** The number of the armed job, 0 when none is, ${ENDING} once this thread has taken it. */
let state = null;
// The thread looks only while a job is armed: between jobs nothing grows and nothing is late,
// and a timer ticking fifty times a second would keep an idle process waking for nothing.
let ticking = null;
// Checked at once when armed too: a small file can be read in less than one interval, and a
// resident set already past the bound must not slip through by being quick.
onmessage = (event) => {
  if (event.data instanceof SharedArrayBuffer) {
    state = new Int32Array(event.data);
    return;
  }
  armed = event.data;
  if (armed && ticking === null) ticking = setInterval(look, ${WATCH_INTERVAL_MS});
  if (!armed && ticking !== null) {
    clearInterval(ticking);
    ticking = null;
  }
  look();
};
function exitNow(code) {
  try {
    const { dlopen, FFIType } = require("bun:ffi");
    if (process.platform === "win32") {
      dlopen("kernel32.dll", { ExitProcess: { args: [FFIType.u32], returns: FFIType.void } }).symbols.ExitProcess(code);
    } else {
      const libc = process.platform === "darwin" ? "libSystem.B.dylib" : "libc.so.6";
      dlopen(libc, { _exit: { args: [FFIType.i32], returns: FFIType.void } }).symbols._exit(code);
    }
  } catch {}
  process.kill(process.pid, "SIGKILL");
}
async function end(words) {
  try {
    if (words.err) await Bun.write(Bun.stderr, words.err);
    if (words.out) await Bun.write(Bun.stdout, words.out);
  } finally {
    exitNow(words.exitCode);
  }
}
function look() {
  if (!armed) return;
  const words = Date.now() > armed.until ? armed.late : armed.memoryBytes > 0 && process.memoryUsage.rss() > armed.memoryBytes ? armed.big : null;
  // The job may have finished meanwhile (its disarm not read yet), or another may be armed: the
  // last words are this job's only while the shared state still names it.
  if (words && Atomics.compareExchange(state, 0, armed.job, ${ENDING}) === armed.job) end(words);
}
`;

export interface Watchdog {
  /** From now until `disarm`, end the process with `late` past `timeoutMs`, or with `big` past `memoryBytes` of resident set. */
  arm(timeoutMs: number, memoryBytes: number, late: LastWords, big: LastWords): void;
  disarm(): void;
  stop(): void;
}

/** The last words written and the process ended from the calling thread (nothing runs after it). */
function endHere(words: LastWords): never {
  if (words.err) writeSync(2, words.err);
  if (words.out) writeSync(1, words.out);
  process.exit(words.exitCode);
}

export function startWatchdog(): Watchdog {
  const thread = new Worker(URL.createObjectURL(new Blob([THREAD_SOURCE], { type: "text/javascript" })));
  // Bun's Worker can be unref'd (not in the DOM typings): it must not keep the process alive.
  (thread as Worker & { unref?: () => void }).unref?.();
  const state = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  thread.postMessage(state.buffer);
  let job = 0;
  return {
    arm(timeoutMs, memoryBytes, late, big) {
      // A resident set already past the bound ends the process here and now: the thread sees
      // the message only when it is next scheduled, and on a loaded machine a small file is
      // read and disarmed before that.
      if (memoryBytes > 0 && process.memoryUsage.rss() > memoryBytes) endHere(big);
      job += 1;
      Atomics.store(state, 0, job);
      thread.postMessage({ job, until: Date.now() + timeoutMs, memoryBytes, late, big } satisfies Armed);
    },
    disarm() {
      if (Atomics.compareExchange(state, 0, job, 0) === ENDING) {
        // The thread took this job at its bound and is writing its last words before it ends
        // the process: nothing more of this job, or after it, may be written. Wait for the end.
        for (;;) Atomics.wait(state, 0, ENDING);
      }
      thread.postMessage(null);
    },
    stop() {
      thread.terminate();
    },
  };
}
