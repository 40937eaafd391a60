/**
 * @module scripts/test-all
 * `npm test`: every check and every test file, in stages that run side by side on the two-core
 * machine, then the browser suites' one rule (scripts/test-rerun.ts), then each stage's time.
 *
 *   build ─┬─ first        the files whose bounds are wall-clock times and which keep a fraction of the machine busy (the crowd)
 *          ├─ typecheck    tsc -b (the four projects), then knip (SCHED_IDLE)
 *          └─ unit         the test:unit files across the cores, then the files that rebuild the client (SCHED_IDLE)
 *   then ─┬─ e2e <engine>  one bun test per engine, one browser reused across its files (SCHED_IDLE; WebKit's at nice 19)
 *         ├─ services      binary and service files side by side, each isolated; then the release build (SCHED_IDLE)
 *         └─ foreground    the files whose bounds are wall-clock times and which mostly wait, one by one
 *   then  alone    the files whose bounds are wall-clock times and which keep the cores busy, with nothing beside them
 *
 * The services and the browser lanes run under SCHED_IDLE (YIELDING): the kernel gives them only
 * the CPU that the ordinary tasks leave — the foreground files, one at a time — so those meet a
 * machine that is theirs whenever they want it, and the lanes use the cores while they wait; the
 * WebKit lane runs at nice 19 instead (WEBKIT_LANE). Before them, the type checks and the unit
 * files run under SCHED_IDLE beside the first files in the same way: the crowd's file keeps a
 * fifth of the machine busy for its minute, and at the end of the run, alone, it left the rest idle.
 * The alone files keep the cores busy themselves: beside the yielding lanes their bounds still
 * failed (a check's 1.5 s deadline ran out), so they come last, alone. Which file runs where
 * is read from the files (scripts/test-plan.ts). Each stage's output is
 * kept whole — printed as one block when the stage ends, and written as it comes to
 * test-output/stages/<stage>.log — so a failure's message sits with its test, as in one serial
 * run; a line every minute says how far each stage is. At the end: each stage's start and wall
 * time, its files and tests, how much of the machine stood idle meanwhile, the load average, in
 * test-output/test-times.json too.
 *
 *   bun run scripts/test-all.ts [bun test flags…]
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, relative, resolve } from "node:path";
import { testPlan, type Engine, type Lane } from "./test-plan.ts";
import { BINARIES } from "../test/helpers/engine.ts";
import { failures, filesToRerun, MAX_RETRIED_FILES, readSummary, reportedFiles, unreported, type Crash, type Failure, type LaneReport, type Rerun, type Summary } from "./test-rerun.ts";
import { timings } from "./test-unit.ts";
import { LATEX_CACHE_ENV } from "../test/fixtures/beamer.ts";

const root = join(import.meta.dir, "..");
const output = join(root, "test-output");
const bin = (name: string) => join(root, "node_modules", ".bin", name);

/** How often a line says how far each running stage is: a quiet minute is not a hung run. */
const PROGRESS_MS = 60_000;

/**
 * What the services and the browser lanes run under: the SCHED_IDLE policy (`chrt --idle 0`,
 * inherited by every process they start; any user may take it). A task under it runs only when
 * no ordinary task wants its core, and an ordinary task that wakes takes the core at once: the
 * foreground files keep their wall-clock bounds while the lanes soak up what they leave. Among
 * themselves such tasks share the cores evenly: nice counts for nothing under SCHED_IDLE, so the
 * services no longer give way to the lanes (they are a tenth of the lanes' CPU, done by mid-run).
 */
const YIELDING = ["chrt", "--idle", "0"] as const;

/**
 * What the WebKit lane runs under: the ordinary policy at its lowest priority (nice 19), not
 * SCHED_IDLE. Each WebKit command crosses four processes — the test, WebKitWebDriver, MiniBrowser,
 * the web process — and under SCHED_IDLE, beside the other lanes' dozens of threads, every hop
 * waited for a core: the lane used the least CPU of the three (440 CPU-seconds alone) yet ended
 * last, three quarters of a minute after the others, at times the only work left. At nice 19 its
 * processes go before the SCHED_IDLE lanes when they wake, and still weigh a sixty-eighth of an
 * ordinary task (the type checks, the unit and foreground files). Measured on fresh clones on
 * 2026-11-30: the lane 15:01 → 12:43, Chromium's and Firefox's unchanged (14:07 → 14:08, 14:13 →
 * 13:49), the unit and foreground files within their times, the run 17:47 → 16:56.
 */
const WEBKIT_LANE = ["nice", "-n", "19"] as const;

/** One `bun test` run: its exit code, its report, and bun's own summary. */
interface BunRun {
  code: number;
  failed: Failure[];
  summary: Summary;
  /** Test cases run (in its JUnit report, not skipped). */
  tests: number;
  /** Test files in its JUnit report. */
  files: string[];
  /** Planned files with no result in its JUnit report: the stage fails. */
  unreported: string[];
}

/** A stage: its commands' output kept whole, its times, its bun test runs. */
class Stage {
  readonly log: string;
  private text = "";
  startedAt = 0;
  endedAt = 0;
  /** The machine's CPU times when it started and ended (cpuTimes). */
  cpuAtStart: CpuTimes | null = null;
  cpuAtEnd: CpuTimes | null = null;
  code = 0;
  readonly runs: BunRun[] = [];
  /** Files whose results bun has begun to print (bun names each file before its tests). */
  readonly started = new Set<string>();
  planned = 0;
  /** The test files it was given, as they are named from the repository. */
  readonly plannedFiles = new Set<string>();
  failedTests = 0;

  constructor(
    readonly name: string,
    /** A command line prefix for each of its commands (YIELDING). */
    private readonly prefix: readonly string[] = [],
  ) {
    this.log = join(output, "stages", `${name.replace(/\s+/g, "-")}.log`);
    rmSync(this.log, { force: true });
  }

  /** A line of the runner's own in the stage's output (what failed it outside a test). */
  note(line: string) {
    this.write(`npm test: ${line}\n`);
  }

  private write(chunk: string) {
    this.text += chunk;
    appendFileSync(this.log, chunk);
    for (const line of chunk.split("\n")) {
      const file = /^(test\/\S+\.test\.ts):$/.exec(line.trim())?.[1];
      if (file) this.started.add(file);
      if (line.startsWith("(fail)")) this.failedTests++;
    }
  }

  /** Run a command, its output kept with the stage's; resolves with its exit code. */
  async run(argv: readonly string[], env: Record<string, string> = {}): Promise<number> {
    const shown = argv.map((a) => (a === process.execPath ? "bun" : a.startsWith(root) ? relative(root, a) : a));
    this.write(`$ ${Object.entries(env).map(([k, v]) => `${k}=${v} `).join("")}${[...this.prefix, ...shown].join(" ")}\n`);
    const proc = Bun.spawn([...this.prefix, ...argv], { cwd: root, stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env } });
    const decoder = () => new TextDecoder();
    const pump = async (stream: ReadableStream<Uint8Array>) => {
      const d = decoder();
      for await (const chunk of stream) this.write(d.decode(chunk, { stream: true }));
    };
    await Promise.all([pump(proc.stdout), pump(proc.stderr)]);
    const code = await proc.exited;
    if (code !== 0 && this.code === 0) this.code = code;
    return code;
  }

  /** `bun test` on `files` with a JUnit report of its own; `env` for the lane's engine. */
  async bunTest(files: readonly string[], flags: readonly string[], env: Record<string, string> = {}): Promise<BunRun | null> {
    if (files.length === 0) return null;
    this.planned += files.length;
    for (const f of files) this.plannedFiles.add(relative(root, resolve(root, f)));
    const junit = join(output, "junit", `${this.name.replace(/\s+/g, "-")}-${this.runs.length + 1}.xml`);
    rmSync(junit, { force: true });
    const before = this.text.length;
    const code = await this.run([process.execPath, "test", "--reporter=junit", `--reporter-outfile=${junit}`, ...flags, ...files.map((f) => `./${f}`)], env);
    const report = existsSync(junit) ? readFileSync(junit, "utf8") : "";
    const reported = reportedFiles(report);
    const run: BunRun = {
      code,
      failed: failures(report),
      summary: readSummary(this.text.slice(before)),
      // Those a -t pattern left out are in the report as skipped: not run.
      tests: Number(/<testsuites\b[^>]*\btests="(\d+)"/.exec(report)?.[1] ?? 0) - Number(/<testsuites\b[^>]*\bskipped="(\d+)"/.exec(report)?.[1] ?? 0),
      files: reported,
      unreported: unreported(files, reported, root),
    };
    this.runs.push(run);
    if (run.unreported.length) {
      this.code ||= 1;
      this.note(`no result in the JUnit report for ${run.unreported.join(", ")}: each planned file must report its tests (did it fail to load, or its process die?).`);
    }
    return run;
  }

  /** The stage's output, whole, framed by its name and result. */
  block(): string {
    const took = clock(this.endedAt - this.startedAt);
    return `\n════ ${this.name}: ${this.code === 0 ? "passed" : "FAILED"} in ${took} ════\n${this.text.trimEnd()}\n════ end of ${this.name} ════\n`;
  }
}

/** m:ss */
function clock(ms: number): string {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

const t0 = performance.now();
const now = () => performance.now() - t0;

/** The machine's CPU time since boot, all cores: idle (idle and iowait) and in all, in clock ticks. */
interface CpuTimes {
  idle: number;
  total: number;
}

/** From /proc/stat's first line; null where there is none (not Linux). */
function cpuTimes(): CpuTimes | null {
  try {
    const ticks = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    return { idle: ticks[3]! + ticks[4]!, total: ticks.reduce((a, b) => a + b, 0) };
  } catch {
    return null;
  }
}

/**
 * How much of the machine stood idle while `stage` ran, in percent: the cores nobody used. The
 * stages overlap, so this is the machine's, not the stage's own — high for a stage that runs
 * alone and mostly waits, near 0 while the lanes keep every core busy.
 */
function idleShare(stage: Stage): string {
  const [a, b] = [stage.cpuAtStart, stage.cpuAtEnd];
  if (!a || !b || b.total <= a.total) return "";
  return `${Math.round((100 * (b.idle - a.idle)) / (b.total - a.total))} %`;
}

/** Run `body` as stage `stage`, printing its block when it ends; resolves with its exit code. */
async function staged(stage: Stage, body: (s: Stage) => Promise<unknown>): Promise<number> {
  stage.startedAt = now();
  stage.cpuAtStart = cpuTimes();
  try {
    await body(stage);
  } catch (error) {
    stage.code ||= 1;
    stage.note(String(error));
  }
  stage.endedAt = now();
  stage.cpuAtEnd = cpuTimes();
  process.stdout.write(stage.block());
  return stage.code;
}

/** A lane's environment: its engine alone, its browser reused across files (the plan's), its own crash log. */
function laneEnv(lane: Lane, crashLog: string): Record<string, string> {
  return { ...lane.env, DECKHAND_WEBKIT_CRASH_LOG: crashLog };
}

/** A lane's browser must be there: a missing one fails the lane with its install line, never a skip. */
function assertBrowser(lane: Lane) {
  const { path, install } = BINARIES[lane.engine];
  if (!existsSync(path)) throw new Error(`the ${lane.engine} lane's browser is missing at ${path}: install it with \`${install}\` (or \`npm run setup\`).`);
}

function readCrashes(path: string): Crash[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Crash);
}

/** The engines of this run: all three, or those DECKHAND_ENGINES names (a developer's narrowing). */
function engines(): Engine[] | undefined {
  const wanted = process.env.DECKHAND_ENGINES?.split(",").map((e) => e.trim()).filter(Boolean);
  return wanted?.length ? (wanted as Engine[]) : undefined;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  mkdirSync(join(output, "stages"), { recursive: true });
  mkdirSync(join(output, "junit"), { recursive: true });
  rmSync(join(output, "flaky.json"), { force: true });
  // The run's pdflatex decks, built once for every stage (test/fixtures/beamer.ts): this run builds its own.
  const latexCache = join(output, "latex-cache");
  rmSync(latexCache, { recursive: true, force: true });
  process.env[LATEX_CACHE_ENV] = latexCache;
  if (!Bun.which(YIELDING[0])) {
    console.error(`npm test: ${YIELDING[0]} is missing: it comes with util-linux (apt-get install -y util-linux), which every Debian has.`);
    return 1;
  }
  const plan = testPlan(engines());
  const loads: number[] = [loadavg()[0]!];
  const loadAtStart = loadavg()[0]!;
  const cpuAtStart = cpuTimes();

  const build = new Stage("build");
  const first = new Stage("first");
  const typecheck = new Stage("typecheck", YIELDING);
  const unit = new Stage("unit", YIELDING);
  const services = new Stage("services", YIELDING);
  const foreground = new Stage("foreground");
  const alone = new Stage("alone");
  const lanes = plan.lanes.map((lane) => ({ lane, stage: new Stage(`e2e ${lane.engine}`, lane.engine === "webkit" ? WEBKIT_LANE : YIELDING), crashLog: join(output, `webkit-crashes-${lane.engine}.jsonl`) }));
  const all: Stage[] = [build, first, typecheck, unit, services, ...lanes.map((l) => l.stage), foreground, alone];

  const progress = setInterval(() => {
    loads.push(loadavg()[0]!);
    const running = all.filter((s) => s.startedAt > 0 && s.endedAt === 0);
    const parts = running.map((s) => `${s.name} ${s.planned ? `${s.started.size}/${s.planned} files` : "running"}${s.failedTests ? ` (${s.failedTests} failed)` : ""}`);
    console.log(`npm test ${clock(now())} · load ${loadavg()[0]!.toFixed(1)} · ${parts.join(" · ") || "finishing"}`);
  }, PROGRESS_MS);

  try {
    // The binary, the client and the generated types: everything after needs them.
    const built = await staged(build, async (s) => {
      if ((await s.run([process.execPath, "run", "scripts/preflight.ts"])) !== 0) return;
      await s.run([process.execPath, "run", "scripts/build.ts"]);
    });
    if (built !== 0) return finish(all, built, loadAtStart, loads, cpuAtStart);

    // The first files at the normal priority; the type checks and the unit files under
    // SCHED_IDLE beside them, using the cores they leave. Nothing else runs meanwhile: beside
    // the browser lanes, yielding as they do, the crowd's bounds failed.
    const opening = await Promise.all([
      staged(first, (s) => s.bunTest(plan.first, args)),
      staged(typecheck, async (s) => {
        await s.run([bin("tsc"), "-b"]);
        await s.run([bin("knip")]);
      }),
      staged(unit, async (s) => {
        // The unit loop's own way (scripts/test-unit.ts): one module registry per worker, slowest first.
        await s.bunTest(plan.unit.parallel, ["--parallel", "--no-isolate", ...timings(args), ...args]);
        await s.bunTest(plan.unit.alone, args);
      }),
    ]);
    // The browser lanes drive the compiled binary (its client built in), never client-dist/;
    // under SCHED_IDLE they take only the CPU the foreground files leave.
    const laneRuns = lanes.map(({ lane, stage, crashLog }) =>
      staged(stage, async (s) => {
        rmSync(crashLog, { force: true });
        assertBrowser(lane);
        await s.bunTest(lane.files, args, laneEnv(lane, crashLog));
      }),
    );
    const stages = [
      staged(services, async (s) => {
        // Each file isolated in a worker; each takes its own port, data directory and container name.
        await s.bunTest(plan.services.concurrent, ["--parallel", ...args]);
        // The release build rebuilds client-dist/ (the unit files' servers read it: they are done).
        await s.bunTest(plan.services.afterUnit, args);
      }),
      ...laneRuns,
      // One after another, at the normal priority: each file's server has the cores whenever it wants them.
      staged(foreground, (s) => s.bunTest(plan.foreground, args)),
    ];
    const codes = [...opening, ...(await Promise.all(stages))];
    // Wall-clock bounds of the server under its own load, keeping the cores busy: nothing else runs meanwhile.
    codes.push(await staged(alone, (s) => s.bunTest(plan.alone, args)));
    let code = codes.find((c) => c !== 0) ?? 0;
    if (code !== 0) code = await rerunFlaky([build, typecheck, unit, services, foreground, alone], lanes, first, args, all);
    return finish(all, code, loadAtStart, loads, cpuAtStart);
  } finally {
    clearInterval(progress);
  }
}

/**
 * The browser suites' rule (scripts/test-rerun.ts): when only browser lanes (and the first stage,
 * whose files are browser suites too) failed, every failure there is in the JUnit report (bun's
 * count agrees, no error outside a test), and the files not explained by a MiniBrowser crash or
 * hang are at most MAX_RETRIED_FILES, each such file runs once more, whole, in the lane it failed
 * in; a first file after those, with nothing beside it. The run passes only if they all pass then.
 */
async function rerunFlaky(others: readonly Stage[], lanes: readonly { lane: Lane; stage: Stage; crashLog: string }[], first: Stage, args: readonly string[], all: Stage[]): Promise<number> {
  const failedLanes = lanes.filter((l) => l.stage.code !== 0);
  const failedFirst = first.code !== 0 ? [first] : [];
  // Every failure must be one the report names: an error outside any test, a file with no result or a lane that failed before its tests is never retried.
  const accounted = [...failedLanes.map((l) => l.stage), ...failedFirst].every((stage) => stage.runs.length === 1 && !stage.runs[0]!.summary.unhandled && stage.runs[0]!.summary.failCount === stage.runs[0]!.failed.length && !stage.runs[0]!.unreported.length);
  const reports: LaneReport[] = [
    ...failedLanes.map(({ lane, stage, crashLog }) => ({ lane: lane.engine, failed: stage.runs[0]?.failed ?? [], crashes: readCrashes(crashLog) })),
    ...failedFirst.map((stage) => ({ lane: stage.name, failed: stage.runs[0]?.failed ?? [], crashes: [] })),
  ];
  const again = others.every((s) => s.code === 0) && accounted ? filesToRerun(reports, root) : [];
  const rel = (f: string) => relative(root, resolve(root, f));
  if (!again.length) {
    for (const r of reports) if (r.crashes.length) console.error(`\nnpm test: MiniBrowser crashed or hung in the ${r.lane} lane during ${[...new Set(r.crashes.map((c) => rel(c.file)))].join(", ")}.`);
    const failedIn = [...others, first, ...lanes.map((l) => l.stage)].filter((s) => s.code !== 0).map((s) => s.name);
    const files = [...new Set(reports.flatMap((r) => r.failed.map((f) => f.file)))];
    console.error(`\nnpm test: failed in ${failedIn.join(", ")}${files.length ? ` (${files.join(", ")})` : ""}; nothing is run again (only up to ${MAX_RETRIED_FILES} browser suites are, and only when nothing else failed).`);
    printFailures(all);
    return 1;
  }
  const flaky = again.map(({ lane, file }) => {
    const report = reports.find((r) => r.lane === lane)!;
    return {
      file,
      lane,
      crashed: report.crashes.some((c) => rel(c.file) === file),
      failures: report.failed.filter((f) => rel(f.file) === file).map((f) => `${f.name}: ${f.message.split("\n")[0]!.slice(0, 300)}`),
    };
  });
  console.error(`\nnpm test: every failure was in a browser suite: running once more, whole, ${again.map((r) => `${r.file} (${r.lane})`).join(", ")}.\n`);
  const byLane = Map.groupBy(again, (r: Rerun) => r.lane);
  const codes = await Promise.all(
    lanes
      .filter(({ lane }) => byLane.has(lane.engine))
      .map(({ lane }) => {
        const stage = new Stage(`e2e ${lane.engine} again`);
        all.push(stage);
        const crashLog = join(output, `webkit-crashes-${lane.engine}-rerun.jsonl`);
        rmSync(crashLog, { force: true });
        return staged(stage, (s) => s.bunTest(byLane.get(lane.engine)!.map((r) => r.file), args, laneEnv(lane, crashLog)));
      }),
  );
  // A first file's bounds hold only with no browser beside it: after the lanes' files, alone.
  if (byLane.has(first.name)) {
    const stage = new Stage(`${first.name} again`);
    all.push(stage);
    codes.push(await staged(stage, (s) => s.bunTest(byLane.get(first.name)!.map((r) => r.file), args)));
  }
  const passed = codes.every((c) => c === 0);
  writeFileSync(join(output, "flaky.json"), `${JSON.stringify({ passedWhenRunAgain: passed, files: flaky }, null, 2)}\n`);
  console.error(`\nnpm test: ${passed ? "FLAKY — failed, then passed when run again whole" : "failed again"}:`);
  for (const f of flaky) console.error(`  ${f.file} in ${f.lane}${f.crashed ? " (its WebKit MiniBrowser crashed or hung)" : ""}\n${f.failures.map((m) => `    - ${m}`).join("\n")}`);
  if (passed) console.error("Every other file passed the first time. The list is in test-output/flaky.json.");
  else printFailures(all);
  return passed ? 0 : 1;
}

/**
 * Each failed test with its message, at the end of the output: in a stage's block the message
 * sits far above, among a thousand passing lines, and a CI log shown by its tail loses it.
 */
function printFailures(stages: readonly Stage[]) {
  const failed = stages.flatMap((s) => s.runs.flatMap((r) => r.failed.map((f) => ({ stage: s.name, ...f }))));
  if (!failed.length) return;
  console.error(`\nnpm test: what each failed test said (the whole output of a stage is in test-output/stages/):`);
  for (const f of failed) {
    const lines = f.message.split("\n");
    console.error(`\n(${f.stage}) ${relative(root, resolve(root, f.file))} > ${f.name}\n${lines.slice(0, 30).map((l) => `    ${l}`).join("\n")}${lines.length > 30 ? `\n    … ${lines.length - 30} lines more` : ""}${f.at ? `\n    ${f.at}` : ""}`);
  }
}

/** Linux's unit of /proc/stat's times (USER_HZ): 100 a second. */
const TICKS_PER_SECOND = 100;

/**
 * What the machine's cores did from `from` to now, in core-seconds: busy (the work, which takes
 * longer on a slower day) and idle (what the stages' order left unused).
 */
function coreSeconds(from: CpuTimes | null): { busy: number; idle: number } | null {
  const to = cpuTimes();
  if (!from || !to) return null;
  const idle = (to.idle - from.idle) / TICKS_PER_SECOND;
  return { busy: Math.round((to.total - from.total) / TICKS_PER_SECOND - idle), idle: Math.round(idle) };
}

/** The run's figures: each stage's start, wall time, files and tests; the whole; the load; the cores' core-seconds. */
function finish(stages: readonly Stage[], code: number, loadAtStart: number, loads: number[], cpuAtStart: CpuTimes | null): number {
  loads.push(loadavg()[0]!);
  const cores = coreSeconds(cpuAtStart);
  const total = now();
  const ran = stages.filter((s) => s.startedAt > 0 || s.endedAt > 0);
  const files = new Set(ran.flatMap((s) => s.runs.flatMap((r) => r.files.map((f) => relative(root, resolve(root, f))))));
  const planned = new Set(ran.flatMap((s) => [...s.plannedFiles]));
  const silent = [...planned].filter((f) => !files.has(f));
  const tests = ran.reduce((n, s) => n + s.runs.reduce((m, r) => m + r.tests, 0), 0);
  const rows = ran.map((s) => ({
    stage: s.name,
    start: clock(s.startedAt),
    wall: clock(s.endedAt - s.startedAt),
    files: s.runs.reduce((n, r) => n + r.files.length, 0),
    tests: s.runs.reduce((n, r) => n + r.tests, 0),
    failed: s.runs.reduce((n, r) => n + r.failed.length, 0),
    idle: idleShare(s),
    result: s.code === 0 ? "passed" : "FAILED",
  }));
  const mean = loads.reduce((a, b) => a + b, 0) / loads.length;
  const figures = { date: new Date().toISOString(), result: code === 0 ? "passed" : "failed", totalSeconds: Math.round(total / 1000), tests, files: files.size, plannedFiles: planned.size, filesWithoutResult: silent, load: { atStart: loadAtStart, mean: Number(mean.toFixed(2)), atEnd: loadavg()[0] }, coreSeconds: cores, stages: rows };
  writeFileSync(join(output, "test-times.json"), `${JSON.stringify(figures, null, 2)}\n`);
  const pad = (v: string | number, n: number) => String(v).padStart(n);
  console.log(`\nnpm test ${code === 0 ? "passed" : "FAILED"}: ${tests} tests in ${files.size} files (a browser suite counts once, its tests in every lane), ${clock(total)} in all; load average ${loadAtStart.toFixed(1)} at the start, ${mean.toFixed(1)} on average.`);
  console.log(`  ${"stage".padEnd(16)} ${pad("start", 6)} ${pad("wall", 6)} ${pad("files", 6)} ${pad("tests", 6)} ${pad("failed", 6)} ${pad("idle", 6)}`);
  for (const r of rows) console.log(`  ${r.stage.padEnd(16)} ${pad(r.start, 6)} ${pad(r.wall, 6)} ${pad(r.files || "", 6)} ${pad(r.tests || "", 6)} ${pad(r.failed || "", 6)} ${pad(r.idle, 6)}  ${r.result}`);
  console.log("  (idle: the share of the machine's cores that stood idle while the stage ran, whatever ran beside it)");
  if (cores) console.log(`  the machine's cores over the run: ${cores.busy.toLocaleString("en-US")} core-seconds busy, ${cores.idle.toLocaleString("en-US")} idle (the busy figure is the work: higher on a slower day; the idle one is what the stages' order left unused).`);
  console.log(silent.length ? `  ${silent.length} of the ${planned.size} planned files have no result: ${silent.join(", ")}` : `  every one of the ${planned.size} planned test files has its result in the JUnit reports.`);
  console.log("  (each stage's whole output: test-output/stages/; these figures: test-output/test-times.json)");
  return code;
}

if (import.meta.main) process.exit(await main());
