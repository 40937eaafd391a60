/**
 * @module scripts/test-all
 * `npm test`'s last step: every test file, by `bun test`, with one rule for the browser suites.
 *
 * Browsers on a loaded two-core machine are not deterministic, and one of them crashes under
 * us: Debian's WebKitGTK 2.50 MiniBrowser (WebKit's test browser, behind WebKitWebDriver)
 * segfaults now and then mid-file, whatever the page does — in libc, at the same address each
 * time (seen in dmesg on the development machine, and once in CI, where the file's WebKit tests
 * then all failed at once). The engine (test/helpers/engine-webkit.ts) writes each such crash
 * down with its test file. So, like Playwright's `retries` on CI: when the run failed and every
 * failure is in a browser suite (test/e2e/), at most MAX_RETRIED_FILES of them (files whose
 * MiniBrowser crashed do not count against it), those files run once more, whole, all their
 * engines, and the run passes only if they then pass. Each such file is named as flaky, with
 * its failures, at the end of the run and in test-output/flaky.json, so it is seen and fixed.
 * Any failure outside the browser suites, an error outside any test, or more failing browser
 * files than that fails the run as it is; nothing is skipped.
 *
 *   bun run scripts/test-all.ts [bun test flags…]
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const root = join(import.meta.dir, "..");
const output = join(root, "test-output");

export interface Crash {
  file: string;
}

/** A failed test case (or hook) of a bun JUnit report: its file and its failure's message. */
export interface Failure {
  file: string;
  /** The test's name (a hook's failure is named after the test it stopped). */
  name: string;
  message: string;
}

const unescape = (text: string) => text.replace(/&#10;/g, "\n").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** Every failed test case (hooks included) in a bun JUnit report. */
export function failures(junit: string): Failure[] {
  const found: Failure[] = [];
  for (const match of junit.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const failure = /<failure\b[^>]*?message="([^"]*)"/.exec(match[2] ?? "");
    if (!failure) continue;
    found.push({ file: /\bfile="([^"]+)"/.exec(match[1]!)?.[1] ?? "(unknown)", name: unescape(/\bname="([^"]*)"/.exec(match[1]!)?.[1] ?? ""), message: unescape(failure[1]!) });
  }
  return found;
}

/** What test/helpers/engine-webkit.ts says when WebKit could not start, twice. */
const NO_START = "WebKit did not start a session";

/** The browser suites: end-to-end files against the compiled binary in real browsers. */
const BROWSER_SUITES = "test/e2e/";

/** Browser files whose failures are run once more; past that, something is broken, not flaky. */
export const MAX_RETRIED_FILES = 3;

/**
 * The files to run once more: all the failed ones, when each is a browser suite and at most
 * MAX_RETRIED_FILES of them did not have their MiniBrowser crash (or, after a crash in the run,
 * could not start WebKit at all, every failure of the file saying so); otherwise none, and the
 * run fails as it is. Paths compare relative to `base`.
 */
export function filesToRerun(failed: readonly Failure[], crashes: readonly Crash[], base = root): string[] {
  if (!failed.length) return [];
  const rel = (f: string) => relative(base, resolve(base, f));
  const crashed = new Set(crashes.map((c) => rel(c.file)));
  const byFile = Map.groupBy(failed, (f) => rel(f.file));
  let flaky = 0;
  for (const [file, list] of byFile) {
    if (!file.startsWith(BROWSER_SUITES)) return [];
    if (crashed.has(file) || (crashed.size && list.every((f) => f.message.includes(NO_START)))) continue;
    flaky++;
  }
  return flaky > MAX_RETRIED_FILES ? [] : [...byFile.keys()].sort();
}

function readCrashes(path: string): Crash[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Crash);
}

interface Run {
  code: number;
  /** bun's own count of failures ("N fail"), which also counts errors outside any test. */
  failCount: number | null;
  /** An error outside any test ("Unhandled error between tests", a file that failed to load): never in the JUnit report. */
  unhandled: boolean;
}

/** bun's summary and unhandled errors, read from its output (it writes its report to stderr). */
export function readSummary(text: string): Omit<Run, "code"> {
  const fails = [...text.matchAll(/^\s*(\d+) fail$/gm)].pop();
  return { failCount: fails ? Number(fails[1]) : null, unhandled: /Unhandled error|^\s*\d+ errors?$/m.test(text) };
}

async function bunTest(args: readonly string[], junit: string, crashLog: string): Promise<Run> {
  rmSync(junit, { force: true });
  const proc = Bun.spawn([process.execPath, "test", "--reporter=junit", `--reporter-outfile=${junit}`, ...args], {
    cwd: root,
    stdio: ["inherit", "inherit", "pipe"],
    env: { ...process.env, DECKHAND_WEBKIT_CRASH_LOG: crashLog },
  });
  // Passed through as it comes; the unhandled-error marks and the summary are kept.
  let tail = "";
  let unhandled = false;
  const decoder = new TextDecoder();
  for await (const chunk of proc.stderr) {
    process.stderr.write(chunk);
    tail = (tail + decoder.decode(chunk, { stream: true })).slice(-4096);
    if (tail.includes("Unhandled error")) unhandled = true;
  }
  const code = await proc.exited;
  const summary = readSummary(tail);
  return { code, failCount: summary.failCount, unhandled: unhandled || summary.unhandled };
}

async function main() {
  mkdirSync(output, { recursive: true });
  const args = process.argv.slice(2);
  const crashLog = join(output, "webkit-crashes.jsonl");
  const junit = join(output, "junit.xml");
  rmSync(crashLog, { force: true });
  rmSync(join(output, "flaky.json"), { force: true });
  const first = await bunTest(args, junit, crashLog);
  if (first.code === 0) return 0;
  const report = existsSync(junit) ? readFileSync(junit, "utf8") : "";
  const failed = failures(report);
  const crashes = readCrashes(crashLog);
  // Every failure must be one the report names: an error outside any test is never retried.
  const accounted = !first.unhandled && first.failCount === failed.length;
  const again = accounted ? filesToRerun(failed, crashes) : [];
  if (!again.length) {
    if (crashes.length) console.error(`\nnpm test: MiniBrowser crashed during ${[...new Set(crashes.map((c) => relative(root, c.file)))].join(", ")}.`);
    console.error(`\nnpm test: failed in ${[...new Set(failed.map((f) => f.file))].join(", ") || "(no test named: see the errors above)"}; nothing is run again (only up to ${MAX_RETRIED_FILES} browser suites are).`);
    return first.code;
  }
  const crashedFiles = new Set(crashes.map((c) => relative(root, resolve(root, c.file))));
  const flaky = again.map((file) => ({
    file,
    crashed: crashedFiles.has(file),
    failures: failed.filter((f) => relative(root, resolve(root, f.file)) === file).map((f) => `${f.name}: ${f.message.split("\n")[0]!.slice(0, 300)}`),
  }));
  console.error(`\nnpm test: every failure was in a browser suite: running ${again.join(", ")} once more, whole.\n`);
  const rerunCrashLog = join(output, "webkit-crashes-rerun.jsonl");
  rmSync(rerunCrashLog, { force: true });
  const second = (await bunTest(again, join(output, "junit-rerun.xml"), rerunCrashLog)).code;
  writeFileSync(join(output, "flaky.json"), `${JSON.stringify({ passedWhenRunAgain: second === 0, files: flaky }, null, 2)}\n`);
  console.error(`\nnpm test: ${second === 0 ? "FLAKY — failed, then passed when run again whole" : "failed again"}:`);
  for (const f of flaky) console.error(`  ${f.file}${f.crashed ? " (its WebKit MiniBrowser crashed)" : ""}\n${f.failures.map((m) => `    - ${m}`).join("\n")}`);
  if (second === 0) console.error("Every other file passed the first time. The list is in test-output/flaky.json.");
  return second;
}

if (import.meta.main) process.exit(await main());
