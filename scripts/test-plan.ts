/**
 * @module scripts/test-plan
 * Where `npm test` (scripts/test-all.ts) runs each test file, read from the files themselves so
 * that a new file finds its place without being registered:
 *
 * - **unit**: what `npm run test:unit` runs (scripts/test-unit.ts: no browser, no binary, no
 *   service), across the cores; the files that rebuild the client after them, alone.
 * - **services**: the other files outside test/e2e/ — the compiled binary, PostgreSQL, S3,
 *   podman, wine, caddy, nginx, servers killed and restarted. Each takes its own free port,
 *   data directory and container name, so they run side by side, each file isolated. A file
 *   that rebuilds the client (scripts/release.ts does) waits for the unit stage: the build
 *   replaces client-dist/, which the unit tests' in-process servers read from (file by file, each
 *   whole, so a reader never finds it empty — the browser lanes import the generated module
 *   whenever a file first needs it).
 * - **alone**: a file that says so on a line of its own (`// npm test: alone — why`): its
 *   bounds are wall-clock times of the server under its own load (a /healthz p99 while a bomb
 *   is read, a deadline waited out), which the other stages' load would break — the browser
 *   lanes' too, yielding as they do: beside them a check's 1.5 s deadline ran out. Such files
 *   run after every other stage, with nothing beside them; `npm run test:unit` still runs those
 *   of them that are unit files. A browser suite that names its own engine may say so too, or
 *   say `first` (below).
 * - **first**: a file with such bounds that keeps only a fraction of the machine busy yet fails
 *   beside the browser lanes, yielding as they are (the crowd's: a fifth of the machine for its
 *   minute, its presenter's 500 ms bound broken beside the lanes in one run of three), says
 *   `// npm test: first — why`. It runs right after the build, at the normal priority, with only
 *   the type checks and the unit files beside it, under SCHED_IDLE: they use the cores it leaves
 *   idle, and the lanes start once all of them are done.
 * - **foreground**: a file with such bounds that mostly waits (a trickled upload, a hung
 *   dependency, a window of seconds waited out), or that counts what a loaded machine would add
 *   to (an idle worker's wake-ups), says `// npm test: foreground — why`. It runs
 *   once the unit files are done, one file after another, at the normal priority, while the
 *   lanes and the services run under SCHED_IDLE: the kernel gives them only the CPU it leaves,
 *   so its server still has the cores whenever it wants them.
 * - **browser lanes**: the end-to-end suites (test/e2e/), one `bun test` process per engine
 *   (DECKHAND_ENGINES=<engine>), each reusing one browser across its files. A suite written
 *   once for every engine (it, or a module it imports, loops over `ENGINES`, the engines
 *   DECKHAND_ENGINES names) runs in each lane, for that lane's engine only; a suite that names
 *   its engines itself (Chromium only, or one scenario across all three) never reads
 *   DECKHAND_ENGINES, so it runs once, in the lane `ONCE_LANE` says, with every engine it names.
 *   Each lane starts at another place of its list (`rotated`), so the lanes wait at different times.
 */
import { Glob } from "bun";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { unitTestFiles } from "./test-unit.ts";

const root = join(import.meta.dir, "..");

export type Engine = "chromium" | "firefox" | "webkit";

/** One `bun test` process of end-to-end files, its engine's only. */
export interface Lane {
  engine: Engine;
  files: string[];
  /** Its process's environment: its engine alone (for the suites that read `ENGINES`), its browser kept across files. */
  env: { DECKHAND_ENGINES: Engine; DECKHAND_REUSE_BROWSER: "1" };
}

export interface Plan {
  unit: { parallel: string[]; alone: string[] };
  /** Files run side by side, and after them the files that rebuild client-dist/ (scripts/test-all.ts starts both once the unit files are done: their in-process servers read client-dist/). */
  services: { concurrent: string[]; afterUnit: string[] };
  /** Files run first, beside only the type checks and the unit files (which yield the CPU to them), before the browser lanes start. */
  first: string[];
  /** Files run after every other stage, with nothing beside them. */
  alone: string[];
  /** Files run one after another beside the browser lanes, which yield the CPU to them. */
  foreground: string[];
  lanes: Lane[];
}

const BROWSER_SUITES = /^test\/e2e\/.*\.e2e\.test\.ts$/;

/** A file's own line saying it must run with nothing beside it. */
const ALONE = /^\/\/ npm test: alone\b/m;

/** A file's own line saying it runs first, before the browser lanes, the unit files yielding to it. */
const FIRST = /^\/\/ npm test: first\b/m;

/** A file's own line saying it must run in the foreground, the browser lanes yielding to it. */
const FOREGROUND = /^\/\/ npm test: foreground\b/m;

/** The module that reads DECKHAND_ENGINES into `ENGINES`. */
export const ENGINE_MODULE = "test/helpers/engine.ts";

/** A module's own imports of the repository's TypeScript modules (relative specifiers), as paths from the root. */
function localImports(file: string, source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*"(\.{1,2}\/[^"]+)"|\bimport\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g)) {
    const path = relative(root, resolve(root, dirname(file), (m[1] ?? m[2])!));
    if (/\.tsx?$/.test(path)) found.push(path);
  }
  return found;
}

/** A repository file's text, or null when there is none. */
const readSource = (path: string): string | null => (existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : null);

/**
 * Whether `file` reads DECKHAND_ENGINES: it, or a module it imports from the repository
 * (transitively, the engine module itself aside), names `ENGINES`. Such a suite runs the engines
 * that variable names, so it needs every lane; any other runs the engines it names, wherever it runs.
 */
export function readsEngines(file: string, read: (path: string) => string | null = readSource): boolean {
  const seen = new Set<string>();
  const queue = [file];
  while (queue.length) {
    const next = queue.pop()!;
    if (seen.has(next) || next === ENGINE_MODULE) continue;
    seen.add(next);
    const source = read(next);
    if (source === null) continue;
    if (/\bENGINES\b/.test(source)) return true;
    queue.push(...localImports(next, source));
  }
  return false;
}

/** A file that runs scripts/build-client.ts, itself or through scripts/release.ts. */
const REBUILDS_CLIENT = /scripts\/(build-client|release)\.ts/;

/**
 * Where a suite that names its own engines runs. Firefox's lane is the shortest: the WebKit lane
 * is the longest of the three (MiniBrowser draws through Mesa's software GL), and Chromium's
 * already runs the Chromium-only suites' many browser contexts.
 */
const ONCE_LANE: Engine = "firefox";

/** Every engine, the longest lane first. */
const ALL_ENGINES: readonly Engine[] = ["webkit", "chromium", "firefox"];

/** The plan for a run of `engines` (all three unless a developer narrows the run with DECKHAND_ENGINES). */
export function testPlan(engines: readonly Engine[] = ALL_ENGINES): Plan {
  for (const e of engines) if (!ALL_ENGINES.includes(e)) throw new Error(`DECKHAND_ENGINES names an unknown engine: ${e} (known: ${ALL_ENGINES.join(", ")})`);
  const laneOrder = ALL_ENGINES.filter((e) => engines.includes(e));
  // A suite that names its own engines runs once; in the first lane left when its own is not in the run.
  const onceLane = laneOrder.includes(ONCE_LANE) ? ONCE_LANE : laneOrder[0]!;
  const units = unitTestFiles();
  const isUnit = new Set([...units.parallel, ...units.alone]);
  const services: Plan["services"] = { concurrent: [], afterUnit: [] };
  const first: string[] = [];
  const alone: string[] = [];
  const foreground: string[] = [];
  const lanes = new Map<Engine, Lane>(laneOrder.map((engine) => [engine, { engine, files: [], env: { DECKHAND_ENGINES: engine, DECKHAND_REUSE_BROWSER: "1" } }]));
  for (const file of [...new Glob("test/**/*.test.ts").scanSync({ cwd: root })].sort()) {
    const source = readFileSync(join(root, file), "utf8");
    // A browser suite may run first or alone too when it names its own engine (it then needs no lane).
    const ownEngine = !BROWSER_SUITES.test(file) || !readsEngines(file);
    if (FIRST.test(source) && ownEngine) {
      first.push(file);
      continue;
    }
    if (ALONE.test(source) && ownEngine) {
      alone.push(file);
      continue;
    }
    if (FOREGROUND.test(source) && !BROWSER_SUITES.test(file)) {
      foreground.push(file);
      continue;
    }
    if (isUnit.has(file)) continue;
    if (!BROWSER_SUITES.test(file)) {
      (REBUILDS_CLIENT.test(source) ? services.afterUnit : services.concurrent).push(file);
      continue;
    }
    if (readsEngines(file)) for (const lane of lanes.values()) lane.files.push(file);
    else lanes.get(onceLane)!.files.push(file);
  }
  const apart = new Set([...first, ...alone, ...foreground]);
  const unit = { parallel: units.parallel.filter((f) => !apart.has(f)), alone: units.alone.filter((f) => !apart.has(f)) };
  const staggered = [...lanes.values()].map((lane, i, all) => ({ ...lane, files: rotated(lane.files, Math.floor((i * lane.files.length) / all.length)) }));
  return { unit, services, first, alone, foreground, lanes: staggered };
}

/**
 * `files` from the one at `start`, round to the one before it. Each lane begins at another place
 * of the same list: in one order the three lanes reached the suites that mostly wait (a rehearsal
 * timed in real seconds, a player given up on behind a firewall) at about the same minute, and the
 * cores then stood idle — 57 core-seconds during the lanes of a run on 2026-11-30, up to two thirds
 * of the machine at once (/proc/stat every 5 s) — where another lane's pages would have used them.
 */
function rotated(files: readonly string[], start: number): string[] {
  return [...files.slice(start), ...files.slice(0, start)];
}

if (import.meta.main) {
  const plan = testPlan();
  const show = (name: string, files: readonly string[]) => console.log(`${name} (${files.length}):\n${files.map((f) => `  ${f}`).join("\n")}`);
  show("unit, in parallel", plan.unit.parallel);
  show("unit, alone after them", plan.unit.alone);
  show("services, side by side", plan.services.concurrent);
  show("services, after the unit stage", plan.services.afterUnit);
  show("first, beside the type checks and the unit files (which yield the CPU to it)", plan.first);
  show("foreground, beside the browser lanes (which yield the CPU to it)", plan.foreground);
  show("alone, after every other stage", plan.alone);
  for (const lane of plan.lanes) show(`browser lane ${lane.engine}`, lane.files);
}
