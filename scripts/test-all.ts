/**
 * @module scripts/test-all
 * `npm test`'s last step: every test file, by `bun test`, with one rule for the one browser
 * that crashes under us. Debian's WebKitGTK 2.50 MiniBrowser (WebKit's test browser, behind
 * WebKitWebDriver) segfaults now and then mid-file, whatever the page does — in libc, at the
 * same address each time (seen in dmesg on the development machine, and once in CI, where the
 * file's WebKit tests then all failed at once). The engine (test/helpers/engine-webkit.ts)
 * writes each such crash down with its test file. When the run failed, and every file with a
 * failure had its MiniBrowser crash, those files run once more, whole, all their engines; the
 * run passes only if they then pass. Any other failure fails the run as it is: nothing is
 * retried on suspicion, nothing is skipped.
 *
 *   bun run scripts/test-all.ts [bun test flags…]
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const root = join(import.meta.dir, "..");
const output = join(root, "test-output");

export interface Crash {
  file: string;
}

/** A failed test case (or hook) of a bun JUnit report: its file and its failure's message. */
export interface Failure {
  file: string;
  message: string;
}

const unescape = (text: string) => text.replace(/&#10;/g, "\n").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** Every failed test case (hooks included) in a bun JUnit report. */
export function failures(junit: string): Failure[] {
  const found: Failure[] = [];
  for (const match of junit.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const failure = /<failure\b[^>]*?message="([^"]*)"/.exec(match[2] ?? "");
    if (!failure) continue;
    found.push({ file: /\bfile="([^"]+)"/.exec(match[1]!)?.[1] ?? "(unknown)", message: unescape(failure[1]!) });
  }
  return found;
}

/** What test/helpers/engine-webkit.ts says when WebKit could not start, twice. */
const NO_START = "WebKit did not start a session";

/**
 * The files to run once more: all the failed ones, when each of them had its MiniBrowser crash
 * (or, after a crash in the run, could not start WebKit at all, every failure of the file
 * saying so); otherwise none, and the run fails as it is. Paths compare relative to `base`.
 */
export function filesToRerun(failed: readonly Failure[], crashes: readonly Crash[], base = root): string[] {
  if (!failed.length || !crashes.length) return [];
  const rel = (f: string) => relative(base, resolve(base, f));
  const crashed = new Set(crashes.map((c) => rel(c.file)));
  const byFile = Map.groupBy(failed, (f) => rel(f.file));
  for (const [file, list] of byFile) if (!crashed.has(file) && !list.every((f) => f.message.includes(NO_START))) return [];
  return [...byFile.keys()].sort();
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
  const first = await bunTest(args, junit, crashLog);
  if (first.code === 0) return 0;
  const report = existsSync(junit) ? readFileSync(junit, "utf8") : "";
  const failed = failures(report);
  const crashes = readCrashes(crashLog);
  // Every failure must be one the report names: an error outside any test is never retried.
  const accounted = !first.unhandled && first.failCount === failed.length;
  const again = accounted ? filesToRerun(failed, crashes) : [];
  if (!again.length) {
    if (crashes.length) console.error(`\nnpm test: MiniBrowser crashed during ${[...new Set(crashes.map((c) => relative(root, c.file)))].join(", ")}, but other files failed too (${[...new Set(failed.map((f) => f.file))].join(", ")}): nothing is run again.`);
    return first.code;
  }
  console.error(`\nnpm test: every failure was in a file whose WebKit MiniBrowser crashed (a WebKitGTK segfault, "MiniBrowser crashed" above): running ${again.join(", ")} once more, whole.\n`);
  const rerunCrashLog = join(output, "webkit-crashes-rerun.jsonl");
  rmSync(rerunCrashLog, { force: true });
  const second = (await bunTest(again, join(output, "junit-rerun.xml"), rerunCrashLog)).code;
  console.error(second === 0 ? `\nnpm test: ${again.join(", ")} passed when run again; every other file passed the first time.` : `\nnpm test: ${again.join(", ")} failed again.`);
  return second;
}

if (import.meta.main) process.exit(await main());
