/**
 * scripts/test-plan.ts: `npm test` runs every test file of the repository, each where it can
 * run — none dropped when the suite is split into stages and browser lanes, no engine lost. The
 * files are the real ones, listed by `find` (not by the plan's own glob), so a file added
 * anywhere is checked the day it lands; which engines a browser suite runs is worked out here
 * from its imports as Bun's transpiler reads them, apart from the plan's own reading.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ENGINE_MODULE, readsEngines, testPlan, type Engine, type Plan } from "../../scripts/test-plan.ts";

const root = join(import.meta.dir, "..", "..");
const ALL: readonly Engine[] = ["chromium", "firefox", "webkit"];

/** Every test file, as `find test -name '*.test.ts'` lists them. */
const found = Bun.spawnSync(["find", "test", "-name", "*.test.ts"], { cwd: root, stdout: "pipe" })
  .stdout.toString()
  .split("\n")
  .filter(Boolean)
  .sort();
const browserSuites = found.filter((f) => f.startsWith("test/e2e/"));

const transpiler = new Bun.Transpiler({ loader: "ts" });

/** Whether `file`, or a module of the repository it imports (transitively), names the ENGINES list that DECKHAND_ENGINES sets. */
function namesEngines(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const source = readFileSync(join(root, file), "utf8");
  // The module that defines the list reads the variable; a file that only launches engines by name does not.
  if (file === ENGINE_MODULE) return false;
  if (/\bENGINES\b/.test(source)) return true;
  return transpiler
    .scanImports(source)
    .map((i) => i.path)
    .filter((p) => p.startsWith("."))
    .some((p) => namesEngines(relative(root, resolve(root, dirname(file), p)), seen));
}

/** A file that says it must run alone, with nothing beside it. */
const runsAlone = (file: string) => /^\/\/ npm test: alone\b/m.test(readFileSync(join(root, file), "utf8"));
/** A file that says it runs first, before the browser lanes. */
const runsFirst = (file: string) => /^\/\/ npm test: first\b/m.test(readFileSync(join(root, file), "utf8"));
/** A file that says it runs in the foreground, the browser lanes yielding the CPU to it. */
const runsInForeground = (file: string) => /^\/\/ npm test: foreground\b/m.test(readFileSync(join(root, file), "utf8"));

/** The plan's files by stage, the browser lanes' together. */
function stagesOf(plan: Plan): Record<string, readonly string[]> {
  return {
    "unit, in parallel": plan.unit.parallel,
    "unit, alone": plan.unit.alone,
    "services, side by side": plan.services.concurrent,
    "services, after unit": plan.services.afterUnit,
    first: plan.first,
    alone: plan.alone,
    foreground: plan.foreground,
    "browser lanes": [...new Set(plan.lanes.flatMap((l) => l.files))],
  };
}

/** The engines a browser suite runs under `plan`: per lane, DECKHAND_ENGINES when it reads that, else every engine it names. */
function enginesRun(plan: Plan, file: string): { lanes: Engine[]; engines: Engine[] } {
  const lanes = plan.lanes.filter((l) => l.files.includes(file));
  const engines = namesEngines(file) ? lanes.map((l) => l.env.DECKHAND_ENGINES) : lanes.length === 1 ? [...ALL] : [];
  return { lanes: lanes.map((l) => l.engine), engines: [...new Set(engines)].sort() };
}

describe("npm test's plan", () => {
  const plan = testPlan();

  test("every test file `find` lists runs in exactly one stage; the browser suites in the browser lanes only", () => {
    expect(found.length).toBeGreaterThan(150);
    const stages = stagesOf(plan);
    const where = new Map<string, string[]>();
    for (const [stage, files] of Object.entries(stages)) for (const f of files) where.set(f, [...(where.get(f) ?? []), stage]);
    expect([...where.keys()].sort()).toEqual(found);
    for (const file of found) expect({ file, stages: where.get(file) }).toEqual({ file, stages: [file.startsWith("test/e2e/") && !runsAlone(file) && !runsFirst(file) ? "browser lanes" : expect.any(String)] });
    // A file that says it must run alone runs after the others, with nothing beside it.
    for (const file of found.filter(runsAlone)) expect({ file, stages: where.get(file) }).toEqual({ file, stages: ["alone"] });
    // A file that says it runs first runs there, before the lanes, and nowhere else.
    for (const file of found.filter(runsFirst)) expect({ file, stages: where.get(file) }).toEqual({ file, stages: ["first"] });
    // A file that says it runs in the foreground runs there, beside the lanes, and nowhere else.
    for (const file of found.filter(runsInForeground)) expect({ file, stages: where.get(file) }).toEqual({ file, stages: ["foreground"] });
    expect(plan.foreground).toContain("test/adversarial/upload-progress.test.ts");
    expect(plan.foreground).toContain("test/store/dependency-outage.test.ts");
    // The files that keep the cores busy (PDFs read past their deadline) stay alone; the crowd runs before the lanes.
    for (const busy of ["test/adversarial/fair-pdf.test.ts", "test/adversarial/hostile-pdfs.test.ts", "test/pdf/pool.test.ts"]) expect({ busy, alone: plan.alone.includes(busy) }).toEqual({ busy, alone: true });
    expect(plan.first).toEqual(["test/e2e/audience-flood.e2e.test.ts"]);
    // No lane runs a file twice.
    for (const lane of plan.lanes) expect(new Set(lane.files).size).toBe(lane.files.length);
  });

  test("each browser suite runs every engine it ran before (then: one process, DECKHAND_ENGINES unset, all three)", () => {
    expect(plan.lanes.map((l) => l.engine).sort()).toEqual([...ALL]);
    for (const lane of plan.lanes) expect(lane.env).toEqual({ DECKHAND_ENGINES: lane.engine, DECKHAND_REUSE_BROWSER: "1" });
    // The crowd's suite names its own engine and runs before the lanes: once, in Chromium.
    expect(plan.first).toContain("test/e2e/audience-flood.e2e.test.ts");
    expect(namesEngines("test/e2e/audience-flood.e2e.test.ts")).toBe(false);
    for (const file of browserSuites.filter((f) => !runsAlone(f) && !runsFirst(f))) {
      // A suite that reads the list ran all three engines; it now runs one per lane, in every lane.
      // One that names its own engines never read the variable: it runs once, with the engines it names.
      const { lanes, engines } = enginesRun(plan, file);
      expect({ file, engines }).toEqual({ file, engines: [...ALL] });
      expect({ file, lanes: lanes.length }).toEqual({ file, lanes: namesEngines(file) ? 3 : 1 });
      expect(readsEngines(file)).toBe(namesEngines(file));
    }
    // A scenario across all three engines with a Chromium presenter; a suite written once for every engine.
    expect(enginesRun(plan, "test/e2e/live.e2e.test.ts").lanes).toHaveLength(1);
    expect(enginesRun(plan, "test/e2e/stage.e2e.test.ts").lanes).toHaveLength(3);
    // WebKit's crash suite names its engine, so no lane is left with a file that has no test in it.
    expect(enginesRun(plan, "test/e2e/webkit-crash.e2e.test.ts").lanes).toHaveLength(1);
  });

  test("a suite that gets the engine list through a helper reads it too; one that launches engines by name does not", () => {
    // The engine module's path is never spelled out here: scripts/test-unit.ts would take this
    // file for one that drives a browser and leave it out of the unit loop.
    const sources: Record<string, string> = {
      [ENGINE_MODULE]: `export const ENGINES = process.env.DECKHAND_ENGINES; export function launchEngine() {}`,
      "test/helpers/loop.ts": `import { ENGINES } from "./engine.ts";\nexport const each = (f) => ENGINES.forEach(f);`,
      "test/helpers/relay.ts": `export { each } from "./loop.ts";`,
      "test/e2e/through.e2e.test.ts": `import { each } from "../helpers/relay.ts";\neach(() => {});`,
      "test/e2e/lazy.e2e.test.ts": `const { each } = await import("../helpers/loop.ts");`,
      "test/e2e/named.e2e.test.ts": `import { launchEngine } from "../${ENGINE_MODULE.slice("test/".length)}";\nlaunchEngine("webkit");`,
      "test/e2e/cycle.e2e.test.ts": `import "./cycle.e2e.test.ts";\nimport "../helpers/missing.ts";`,
    };
    const read = (path: string) => sources[path] ?? null;
    expect(readsEngines("test/e2e/through.e2e.test.ts", read)).toBe(true);
    expect(readsEngines("test/e2e/lazy.e2e.test.ts", read)).toBe(true);
    expect(readsEngines("test/e2e/named.e2e.test.ts", read)).toBe(false);
    expect(readsEngines("test/e2e/cycle.e2e.test.ts", read)).toBe(false);
  });

  test("every file outside the unit stage sets its own timeout: there it yields beside the browser lanes, or holds the machine, where Bun's 5 s ran out", () => {
    const outside = Object.entries(stagesOf(plan)).flatMap(([stage, files]) => (stage.startsWith("unit") ? [] : files));
    expect(outside.length).toBeGreaterThan(50);
    const without = outside.filter((file) => !/^setDefaultTimeout\(/m.test(readFileSync(join(root, file), "utf8")));
    expect(without).toEqual([]);
  });

  test("the release build, which empties client-dist/, waits for the unit stage, whose servers read it", () => {
    expect(plan.services.afterUnit).toContain("test/release.test.ts");
    expect(plan.unit.alone).toContain("test/client/controller.test.ts");
  });

  test("a run narrowed to one engine has one lane, with every browser suite in it", () => {
    const narrowed = testPlan(["chromium"]);
    expect(narrowed.lanes.map((l) => l.engine)).toEqual(["chromium"]);
    expect(narrowed.lanes[0]!.files).toEqual(browserSuites.filter((f) => !runsAlone(f) && !runsFirst(f)));
    expect(() => testPlan(["safari" as never])).toThrow("DECKHAND_ENGINES names an unknown engine: safari");
  });
});
