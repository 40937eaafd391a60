/**
 * @module scripts/test-rerun
 * `npm test`'s one rule for the browser suites, and what it reads: bun's JUnit report and its
 * summary.
 *
 * Browsers on a loaded two-core machine are not deterministic, and one of them crashes under
 * us: Debian's WebKitGTK 2.50 MiniBrowser (WebKit's test browser, behind WebKitWebDriver)
 * segfaults now and then mid-file, whatever the page does — in libc, at the same address each
 * time (seen in dmesg on the development machine, and once in CI, where the file's WebKit tests
 * then all failed at once), and its web process has been seen never to answer a command. The
 * engine (test/helpers/engine-webkit.ts) writes each such crash or hang down with its test
 * file. So, like Playwright's `retries` on CI: when the run failed and every failure is in a
 * browser suite (test/e2e/), in at most MAX_RETRIED_FILES files (files whose MiniBrowser crashed
 * or hung do not count against it), those files run once more, whole, in each browser lane they
 * failed in (a lane is one engine: scripts/test-plan.ts; a browser suite of the first stage, which
 * runs before the lanes, runs again after the lanes' files, alone), and the run passes
 * only if they then pass. Each such file is named as flaky, with its lane and its failures, at
 * the end of the run and in test-output/flaky.json, so it is seen and fixed. Any failure outside
 * the browser suites, an error outside any test, a planned file with no result in the report,
 * or more failing browser files than that fails the run as it is; nothing is skipped.
 */
import { relative, resolve } from "node:path";

/** A MiniBrowser crash or hang the WebKit engine wrote down: the test file that was running. */
export interface Crash {
  file: string;
}

/** A failed test case (or hook) of a bun JUnit report: its file and its failure's message. */
export interface Failure {
  file: string;
  /** The test's name (a hook's failure is named after the test it stopped). */
  name: string;
  message: string;
  /** Where it failed: the first frame of the failure's stack in a test file (`*.test.ts`), when the report has one. */
  at?: string;
}

/** What one browser lane's `bun test` reported: its failures and the crashes written down meanwhile. */
export interface LaneReport {
  lane: string;
  failed: readonly Failure[];
  crashes: readonly Crash[];
}

/** A file to run once more in a lane. */
export interface Rerun {
  lane: string;
  file: string;
}

const ENTITIES: Record<string, string> = { quot: '"', apos: "'", lt: "<", gt: ">", amp: "&" };
const unescape = (text: string) => text.replace(/&(#x[0-9a-f]+|#\d+|quot|apos|lt|gt|amp);/gi, (whole, name: string) => (name[0] === "#" ? String.fromCodePoint(name[1]?.toLowerCase() === "x" ? parseInt(name.slice(2), 16) : Number(name.slice(1))) : (ENTITIES[name.toLowerCase()] ?? whole)));

/** Every failed test case (hooks included) in a bun JUnit report. */
export function failures(junit: string): Failure[] {
  const found: Failure[] = [];
  for (const match of junit.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const failure = /<failure\b([^>]*?)(?:\/>|>([\s\S]*?)<\/failure>)/.exec(match[2] ?? "");
    if (!failure) continue;
    // An error with an empty message (a WebDriver session gone: `NoSuchSessionError`) has no
    // message attribute: its type and the first line of its stack say what it was.
    const body = unescape(failure[2] ?? "");
    const message = /\bmessage="([^"]*)"/.exec(failure[1]!)?.[1] ?? /\btype="([^"]*)"/.exec(failure[1]!)?.[1] ?? body.split("\n")[0] ?? "";
    const at = /^\s*at .*\.test\.ts:\d+:\d+\)?$/m.exec(body)?.[0].trim();
    found.push({ file: /\bfile="([^"]+)"/.exec(match[1]!)?.[1] ?? "(unknown)", name: unescape(/\bname="([^"]*)"/.exec(match[1]!)?.[1] ?? ""), message: unescape(message), ...(at ? { at } : {}) });
  }
  return found;
}

/** The test files a bun JUnit report has results for (a file it never ran, or that failed to load, is absent). */
export function reportedFiles(junit: string): string[] {
  // A describe block is a <testsuite> of its own inside its file's: each file once.
  return [...new Set([...junit.matchAll(/<testsuite\b[^>]*?\bfile="([^"]+)"/g)].map((m) => unescape(m[1]!)))];
}

/**
 * The planned files with no result in the report: each must have one, or the run fails — a
 * file that failed to load, a process that died, a file left with no test in its lane.
 */
export function unreported(planned: readonly string[], reported: readonly string[], base: string): string[] {
  const rel = (f: string) => relative(base, resolve(base, f));
  const seen = new Set(reported.map(rel));
  return planned.map(rel).filter((f) => !seen.has(f));
}

/** bun's count of failures ("N fail", errors outside any test included) and whether such an error happened. */
export interface Summary {
  failCount: number | null;
  /** An error outside any test ("Unhandled error between tests", a file that failed to load): never in the JUnit report. */
  unhandled: boolean;
}

/** bun's summary and unhandled errors, read from its output (it writes its report to stderr). */
export function readSummary(text: string): Summary {
  // The counts are read from bun's closing summary only (" N pass", " N fail", " N error(s)",
  // " N expect() calls", "Ran …"): what a browser prints meanwhile may say "1 error" too (Skia's
  // shader compiler does, as WebKit's web process dies).
  const start = [...text.matchAll(/^[ \t]*\d+ pass$/gm)].pop()?.index;
  const summary = start === undefined ? "" : text.slice(start);
  const fails = /^[ \t]*(\d+) fail$/m.exec(summary);
  return { failCount: fails ? Number(fails[1]) : null, unhandled: /^# Unhandled error/m.test(text) || /^[ \t]*\d+ errors?$/m.test(summary) };
}

/** What test/helpers/engine-webkit.ts says when WebKit could not start, twice. */
const NO_START = "WebKit did not start a session";

/** The browser suites: end-to-end files against the compiled binary in real browsers. */
const BROWSER_SUITES = "test/e2e/";

/** Browser files whose failures are run once more; past that, something is broken, not flaky. */
export const MAX_RETRIED_FILES = 3;

/**
 * The files to run once more, each in the lane it failed in: all the failed ones, when each is a
 * browser suite and at most MAX_RETRIED_FILES files did not have their MiniBrowser crash (or
 * hang) in that lane (or, after a crash in that lane, could not start WebKit at all, every failure of the file
 * there saying so); otherwise none, and the run fails as it is. A file that failed in two lanes
 * is one file against the limit, run again in both. Paths compare relative to `base`.
 */
export function filesToRerun(lanes: readonly LaneReport[], base: string): Rerun[] {
  const rel = (f: string) => relative(base, resolve(base, f));
  const unexplained = new Set<string>();
  const again: Rerun[] = [];
  for (const { lane, failed, crashes } of lanes) {
    const crashed = new Set(crashes.map((c) => rel(c.file)));
    for (const [file, list] of Map.groupBy(failed, (f) => rel(f.file))) {
      if (!file.startsWith(BROWSER_SUITES)) return [];
      again.push({ lane, file });
      if (crashed.has(file) || (crashed.size && list.every((f) => f.message.includes(NO_START)))) continue;
      unexplained.add(file);
    }
  }
  if (unexplained.size > MAX_RETRIED_FILES) return [];
  return again.sort((a, b) => a.file.localeCompare(b.file) || a.lane.localeCompare(b.lane));
}
