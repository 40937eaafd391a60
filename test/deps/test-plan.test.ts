/**
 * scripts/test-plan.ts: `npm test` runs every test file of the repository, each where it can
 * run — none dropped when the suite is split into stages and browser lanes. Read from the real
 * files, so a file added anywhere is checked the day it lands.
 */
import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { testPlan } from "../../scripts/test-plan.ts";

const root = join(import.meta.dir, "..", "..");
const allFiles = [...new Glob("test/**/*.test.ts").scanSync({ cwd: root })].sort();
const perEngine = (file: string) => /\bENGINES\b/.test(readFileSync(join(root, file), "utf8"));

describe("npm test's plan", () => {
  const plan = testPlan();

  test("every test file is planned: the unit and service files once, each browser suite in the lanes", () => {
    const outside = [...plan.unit.parallel, ...plan.unit.alone, ...plan.services.concurrent, ...plan.services.afterUnit];
    expect(new Set(outside).size).toBe(outside.length);
    const inLanes = new Set(plan.lanes.flatMap((l) => l.files));
    expect([...new Set([...outside, ...inLanes])].sort()).toEqual(allFiles);
    for (const file of outside) expect(inLanes.has(file)).toBe(false);
    expect([...inLanes].every((f) => f.startsWith("test/e2e/"))).toBe(true);
    expect(allFiles.filter((f) => f.startsWith("test/e2e/")).every((f) => inLanes.has(f))).toBe(true);
  });

  test("a suite written for every engine runs in each engine's lane; one that names its engines runs once", () => {
    expect(plan.lanes.map((l) => l.engine).sort()).toEqual(["chromium", "firefox", "webkit"]);
    for (const file of plan.lanes.flatMap((l) => l.files)) {
      const lanes = plan.lanes.filter((l) => l.files.includes(file)).length;
      expect({ file, lanes }).toEqual({ file, lanes: perEngine(file) ? 3 : 1 });
    }
    // The scenario with a Chromium presenter and viewers in all three engines, and a Chromium-only suite.
    expect(plan.lanes.filter((l) => l.files.includes("test/e2e/live.e2e.test.ts"))).toHaveLength(1);
    expect(plan.lanes.filter((l) => l.files.includes("test/e2e/stage.e2e.test.ts"))).toHaveLength(3);
  });

  test("the release build, which empties client-dist/, waits for the unit stage, whose servers read it", () => {
    expect(plan.services.afterUnit).toContain("test/release.test.ts");
    expect(plan.unit.alone).toContain("test/client/controller.test.ts");
  });

  test("a run narrowed to one engine has one lane, with every browser suite in it", () => {
    const narrowed = testPlan(["chromium"]);
    expect(narrowed.lanes.map((l) => l.engine)).toEqual(["chromium"]);
    expect(narrowed.lanes[0]!.files).toEqual(allFiles.filter((f) => f.startsWith("test/e2e/")));
    expect(() => testPlan(["safari" as never])).toThrow("DECKHAND_ENGINES names an unknown engine: safari");
  });
});
