/**
 * scripts/test-rerun.ts: when `npm test` runs a file once more, and in which browser lane. Only
 * when every failure is in a browser suite (test/e2e/), in at most MAX_RETRIED_FILES files not
 * explained by a MiniBrowser crash in their lane; a failure anywhere else, or more failing
 * browser files fails the run as it is. The reports read here are real: bun test's own JUnit
 * output of small files made for the purpose.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { failures, filesToRerun, MAX_RETRIED_FILES, readSummary, reportedFiles, unreported, type Crash, type Failure } from "../../scripts/test-rerun.ts";

// Three short bun test runs of their own: 10× what they take on the loaded machine.
setDefaultTimeout(30_000);

const dir = mkdtempSync(join(tmpdir(), "deckhand-test-all-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** bun test on `files` in `dir`: its JUnit report and what it wrote to stderr. */
function run(files: Record<string, string>): { junit: string; stderr: string } {
  for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
  const out = join(dir, "junit.xml");
  // bun writes no report when no file loads: the one an earlier run left must not stand in for it.
  rmSync(out, { force: true });
  const proc = Bun.spawnSync([process.execPath, "test", "--reporter=junit", `--reporter-outfile=${out}`, ...Object.keys(files).map((f) => `./${f}`)], { cwd: dir, stderr: "pipe", stdout: "ignore" });
  return { junit: existsSync(out) ? readFileSync(out, "utf8") : "", stderr: proc.stderr.toString() };
}

describe("npm test's rerun rule", () => {
  test("bun's report gives each failed test and hook with its file and message; the summary's count matches", () => {
    const { junit, stderr } = run({
      "a.test.ts": `import { describe, expect, test } from "bun:test";\ndescribe("on stage in webkit", () => { test("fails", () => { expect(1).toBe(2); }); test("passes", () => {}); });`,
      "b.test.ts": `import { beforeAll, describe, test } from "bun:test";\ndescribe("media in webkit", () => { beforeAll(() => { throw new Error("WebKit did not start a session within 60 s"); }); test("x", () => {}); });`,
      "c.test.ts": `import { test } from "bun:test";\ntest("fine", () => {});`,
    });
    const found = failures(junit);
    expect(found.map((f) => f.file).sort()).toEqual(["a.test.ts", "b.test.ts"]);
    expect(found.find((f) => f.file === "b.test.ts")?.message).toBe("WebKit did not start a session within 60 s");
    expect(found.find((f) => f.file === "a.test.ts")?.name).toBe("fails");
    // Where: the test file's line, for the summary npm test prints at its end.
    expect(found.find((f) => f.file === "a.test.ts")?.at).toMatch(/^at .*a\.test\.ts:2:\d+\)?$/);
    expect(readSummary(stderr)).toEqual({ failCount: found.length, unhandled: false });
  });

  test("an error with no message (a WebDriver session gone) is a failure too, named by its type; a browser's own \"1 error\" above bun's summary is not bun's", () => {
    const { junit, stderr } = run({
      "h.test.ts": `import { describe, test } from "bun:test";\nclass NoSuchSessionError extends Error { name = "NoSuchSessionError"; }\ndescribe("rehearse and pace in webkit", () => {\n  test("gone", () => { console.error('Source/ThirdParty/skia/src/core/SkRuntimeEffectPriv.h:204: fatal error: "error: 1: integer is too large: 255\\n1 error\\n"'); throw new NoSuchSessionError(); });\n  test("fine", () => {});\n});`,
    });
    expect(stderr).toMatch(/^1 error$/m);
    const found = failures(junit);
    expect(found).toEqual([{ file: "h.test.ts", name: "gone", message: "NoSuchSessionError", at: expect.stringMatching(/h\.test\.ts:4:\d+/) }]);
    expect(readSummary(stderr)).toEqual({ failCount: 1, unhandled: false });
  });

  test("a file that fails to load is in bun's count, not in the report: the two disagree, so nothing is retried", () => {
    const { junit, stderr } = run({ "d.test.ts": `import { nothing } from "./missing.ts";\nimport { test } from "bun:test";\ntest("d", () => nothing());` });
    const summary = readSummary(stderr);
    expect(summary.unhandled).toBe(true);
    expect(summary.failCount).not.toBe(failures(junit).length);
  });

  test("a planned file with no result in the report is named: one that fails to load, one with no test", () => {
    const files = {
      "e.test.ts": `import { describe, test } from "bun:test";\ntest("e", () => {});\ndescribe("a block", () => { test("e2", () => {}); });`,
      "f.test.ts": `import { test } from "bun:test";\ntest("f", () => {});\nthrow new Error("after its tests were declared");`,
      "g.test.ts": `import { describe, test } from "bun:test";\nfor (const _ of [].filter(Boolean)) describe("webkit only", () => { test("g", () => {}); });`,
    };
    const { junit } = run(files);
    expect(reportedFiles(junit)).toEqual(["e.test.ts"]);
    expect(unreported(Object.keys(files).map((f) => `./${f}`), reportedFiles(junit), dir)).toEqual(["f.test.ts", "g.test.ts"]);
    expect(unreported(["e.test.ts"], reportedFiles(junit), dir)).toEqual([]);
  });

  test("rerun only browser suites, each in the lane it failed in: any number whose MiniBrowser crashed there, at most three other files", () => {
    const base = "/repo";
    const crash: Crash[] = [{ file: "/repo/test/e2e/stage.e2e.test.ts" }];
    const at = (file: string, message = "Timed out after 15000 ms waiting for: the results as bars (last: false)"): Failure => ({ file, name: "a test", message });
    const inStage = at("test/e2e/stage.e2e.test.ts", "Timed out after 45000 ms waiting for: the presenter to be ready (last: NoSuchSessionError)");
    const noStart = at("test/e2e/stage-media-timer.e2e.test.ts", "WebKit did not start a session within 60 s\nWebKitWebDriver and MiniBrowser said:\n(nothing)");
    const other = at("test/http/routes.test.ts", "expect(received).toBe(expected)");
    const webkit = (failed: Failure[], crashes: Crash[] = crash) => ({ lane: "webkit", failed, crashes });
    const firefox = (failed: Failure[]) => ({ lane: "firefox", failed, crashes: [] });
    expect(filesToRerun([webkit([inStage, inStage])], base)).toEqual([{ lane: "webkit", file: "test/e2e/stage.e2e.test.ts" }]);
    expect(filesToRerun([webkit([inStage, noStart])], base)).toEqual([
      { lane: "webkit", file: "test/e2e/stage-media-timer.e2e.test.ts" },
      { lane: "webkit", file: "test/e2e/stage.e2e.test.ts" },
    ]);
    // A browser suite's failure with no crash is run again too (a timing race on a loaded machine), in its lane only.
    expect(filesToRerun([firefox([at("test/e2e/audience.e2e.test.ts")])], base)).toEqual([{ lane: "firefox", file: "test/e2e/audience.e2e.test.ts" }]);
    // A file that failed in two lanes runs again in both, and counts once against the three.
    const audience = at("test/e2e/audience.e2e.test.ts");
    expect(filesToRerun([webkit([audience], []), firefox([audience])], base)).toEqual([
      { lane: "firefox", file: "test/e2e/audience.e2e.test.ts" },
      { lane: "webkit", file: "test/e2e/audience.e2e.test.ts" },
    ]);
    // Any failure outside the browser suites: the run fails as it is.
    expect(filesToRerun([webkit([inStage, other])], base)).toEqual([]);
    expect(filesToRerun([webkit([inStage]), firefox([other])], base)).toEqual([]);
    // More than three browser files failing is not flakiness: nothing is run again...
    const many = ["a", "b", "c", "d"].slice(0, MAX_RETRIED_FILES + 1).map((n) => at(`test/e2e/${n}.e2e.test.ts`));
    expect(filesToRerun([firefox(many)], base)).toEqual([]);
    expect(filesToRerun([firefox(many.slice(0, MAX_RETRIED_FILES))], base)).toHaveLength(MAX_RETRIED_FILES);
    // ...whichever lanes they failed in...
    expect(filesToRerun([firefox(many.slice(0, 2)), webkit(many.slice(2), [])], base)).toEqual([]);
    // ...but files explained by a crash in their lane do not count against the three.
    expect(filesToRerun([firefox(many.slice(0, MAX_RETRIED_FILES)), webkit([inStage, noStart])], base)).toHaveLength(MAX_RETRIED_FILES + 2);
    // A crash explains its own lane only: the same file failing in another lane counts.
    expect(filesToRerun([firefox([...many.slice(0, MAX_RETRIED_FILES), inStage]), webkit([inStage])], base)).toEqual([]);
    // A file that could not start WebKit with no crash in its lane counts as one of the three.
    expect(filesToRerun([firefox(many.slice(0, MAX_RETRIED_FILES)), webkit([noStart], [])], base)).toEqual([]);
    expect(filesToRerun([webkit([])], base)).toEqual([]);
  });
});
