/**
 * @module test/helpers/wait
 * Wait for a condition instead of sleeping a guessed while: a test that sleeps 50 ms "so the
 * job has started" passes on an idle laptop and fails on a loaded CI machine; one that waits
 * for the job to be running is right on both, and fast on both.
 */

/** Polling interval: short next to any wait a test makes, long enough not to spin a core. */
const POLL_MS = 5;

/**
 * waitFor's bound when a test gives none: for a condition that never comes true, not a slow
 * one. The service files run under SCHED_IDLE beside the browser lanes, where what takes a
 * second on a quiet machine can take ten (CI failed on such 10–15 s waits, 2026-11-30 and
 * 2026-12-01).
 */
const WAIT_MS = 30_000;

/**
 * Resolves once `condition()` holds (it may be async: an HTTP probe, a file read); throws
 * naming `what` after `timeoutMs`. An error `condition` throws ends the wait with it (a process
 * that exited, say). `what` may be a function, read only when the wait fails (the output so
 * far); `everyMs` spaces out costly conditions.
 */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string | (() => string), timeoutMs = WAIT_MS, everyMs = POLL_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${typeof what === "function" ? what() : what}`);
    await Bun.sleep(everyMs);
  }
}

/**
 * Reads `read()` until `ok` holds for what it gave, and resolves with that reading — or with the
 * last one after `timeoutMs`, for the assertion that follows to fail on, naming what it saw (a
 * screenshot, a log file). For a reading that is the evidence itself, where waitFor's bare
 * timeout would say less.
 */
export async function readUntil<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, timeoutMs: number, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await Bun.sleep(everyMs);
  }
}

/**
 * Resolves once every promise reaction queued so far has run, and those they queued in turn:
 * one turn of the event loop (setImmediate runs only after the microtask queue is empty). When
 * the code under test reacts through promises and queueMicrotask only (fakes that answer in a
 * microtask, a gate of promises), what has not happened by then will not happen without the
 * test's next move: the exact form of "nothing happened", where a sleep would only guess.
 */
export function settled(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
