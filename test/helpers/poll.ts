/**
 * @module test/helpers/poll
 * The one way the browser suites wait: a check run in the page, polled until it holds. Apart
 * from the engines, so its own test runs without a browser.
 */

/**
 * How long past its deadline a wait still waits for the page's answer to its last check: a
 * check sent just before the deadline on a loaded machine may take seconds to answer.
 */
const LAST_ANSWER_MS = 10_000;

/**
 * An error that says the browser session or the page itself is gone — WebDriver's
 * NoSuchSessionError (WebKit's web process or MiniBrowser died), Playwright's "Target page,
 * context or browser has been closed", puppeteer's "Connection closed" — not a page between two
 * documents: no later check can be answered, so waiting out the deadline (45 s in a lane once)
 * only delays the failure.
 */
function sessionGone(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === "NoSuchSessionError" || /invalid session id|has been closed|Connection closed/i.test(error.message);
}

/**
 * Poll with any evaluate until true or the deadline; the error names what was awaited. A check
 * the page never answers (a hung browser: WebKit's has been seen to) ends the wait too, once the
 * deadline and LAST_ANSWER_MS have passed, so a wait never outlives its test: a wait left
 * running after bun gave up on its test fails later as an error between tests, which fails the
 * whole run (scripts/test-rerun.ts) where a failed test would be run again.
 */
export async function pollUntil(evaluate: () => Promise<unknown>, what: string, timeoutMs: number, lastAnswerMs = LAST_ANSWER_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const unanswered = Symbol("unanswered");
  let last: unknown;
  for (;;) {
    // Called here, not from a promise's callback: puppeteer reads its caller from the call's
    // stack, which a callback's is too short for (Firefox's evaluate then throws a TypeError).
    let asked: Promise<unknown>;
    try {
      asked = evaluate();
    } catch (error) {
      asked = Promise.reject(error);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<typeof unanswered>((resolve) => (timer = setTimeout(() => resolve(unanswered), Math.max(0, deadline - Date.now()) + lastAnswerMs)));
    try {
      last = await Promise.race([asked, late]);
    } catch (error) {
      last = error;
    } finally {
      clearTimeout(timer);
    }
    if (last === true) return;
    if (sessionGone(last)) throw new Error(`Gave up waiting for: ${what} — the browser session is gone (${String(last)})`);
    // Its answer (or the error of a browser killed meanwhile) may still come: the race has
    // handled it, so a late failure is nobody's error.
    if (last === unanswered) {
      throw new Error(`Timed out after ${timeoutMs} ms waiting for: ${what} (the page did not answer a check within ${lastAnswerMs / 1000} s after that)`);
    }
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for: ${what} (last: ${String(last)})`);
    await Bun.sleep(100);
  }
}
