/**
 * The browser suites' one wait (test/helpers/poll.ts): it ends with its check holding, at its
 * deadline with the last answer in its message, and — the case a hung browser makes — when the
 * page never answers a check, once the deadline and the grace for a last answer have passed,
 * so no wait outlives the test that started it; and at once when the browser session is gone.
 */
import { expect, test } from "bun:test";
import { pollUntil } from "../helpers/poll.ts";

test("a check that comes to hold ends the wait", async () => {
  let checks = 0;
  await pollUntil(async () => ++checks === 3, "the third check", 5_000);
  expect(checks).toBe(3);
});

test("past the deadline the wait fails with what it waited for and the page's last answer", async () => {
  const failed = await pollUntil(async () => "still on slide 2", "slide 3", 300).catch((error: Error) => error);
  expect(String(failed)).toContain("Timed out after 300 ms waiting for: slide 3 (last: still on slide 2)");
});

test("a check the page never answers ends the wait once the deadline and the grace have passed, and its late failure is nobody's error", async () => {
  let rejectLate!: (error: Error) => void;
  const started = performance.now();
  const failed = await pollUntil(() => new Promise((_, reject) => (rejectLate = reject)), "the presenter", 200, 300).catch((error: Error) => error);
  const waited = performance.now() - started;
  expect(String(failed)).toContain("Timed out after 200 ms waiting for: the presenter (the page did not answer a check within 0.3 s after that)");
  expect(waited).toBeGreaterThanOrEqual(450);
  // The browser killed afterwards fails the check that was never answered: caught, not an unhandled rejection.
  rejectLate(new Error("ECONNREFUSED"));
  await Bun.sleep(10);
});

test("an answer that comes after the deadline, within the grace, still counts", async () => {
  const answer = await pollUntil(() => Bun.sleep(250).then(() => true), "a slow page", 100, 1_000).then(() => "held");
  expect(answer).toBe("held");
});

test("a check that throws before it gives a promise is an answer too", async () => {
  const failed = await pollUntil(() => {
    throw new TypeError("no page");
  }, "the start page", 150).catch((error: Error) => error);
  expect(String(failed)).toContain("(last: TypeError: no page)");
});

test("a check that throws is an answer too: the wait goes on and names the error at its deadline", async () => {
  const failed = await pollUntil(() => Promise.reject(new Error("Execution context was destroyed")), "the library", 250).catch((error: Error) => error);
  expect(String(failed)).toContain("(last: Error: Execution context was destroyed)");
});

test("a browser session that is gone ends the wait at once, saying so, where a page between two documents does not", async () => {
  const gone = Object.assign(new Error("invalid session id"), { name: "NoSuchSessionError" });
  const started = performance.now();
  const failed = await pollUntil(() => Promise.reject(gone), "the presenter", 30_000).catch((error: Error) => error);
  expect(performance.now() - started).toBeLessThan(5_000);
  expect(String(failed)).toContain("Gave up waiting for: the presenter — the browser session is gone (NoSuchSessionError: invalid session id)");
  const closed = await pollUntil(() => Promise.reject(new Error("page.evaluate: Target page, context or browser has been closed")), "the library", 30_000).catch((error: Error) => error);
  expect(String(closed)).toContain("the browser session is gone");
  // A navigation's destroyed context is only "not yet": the wait goes on until it holds.
  let checks = 0;
  await pollUntil(async () => {
    if (++checks < 3) throw new Error("Execution context was destroyed, most likely because of a navigation");
    return true;
  }, "the new page", 5_000);
  expect(checks).toBe(3);
});
