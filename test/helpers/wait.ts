/**
 * @module test/helpers/wait
 * Wait for a condition instead of sleeping a guessed while: a test that sleeps 50 ms "so the
 * job has started" passes on an idle laptop and fails on a loaded CI machine; one that waits
 * for the job to be running is right on both, and fast on both.
 */

/** Polling interval: short next to any wait a test makes, long enough not to spin a core. */
const POLL_MS = 5;

/** Resolves once `condition()` holds; throws naming `what` after `timeoutMs`. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await Bun.sleep(POLL_MS);
  }
}
