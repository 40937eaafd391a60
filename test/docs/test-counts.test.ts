/**
 * The counts of test files docs/development/tests.md quotes are the tree's: how many there
 * are, how many `npm run test:unit` runs (scripts/test-unit.ts --list) and how many are
 * browser suites. When they drift, `bun run scripts/docs-figures.ts --tests-only` rewrites
 * the sentence between its markers.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { documentedTestFiles, TESTS_DOC, testFileCounts, testFilesSentence } from "../../scripts/docs-figures.ts";

test("tests.md's counts of test files are the tree's", () => {
  const counts = testFileCounts();
  // Sanity: the unit loop is a real part of the files, and the browser suites are among them.
  expect(counts.unit).toBeGreaterThan(counts.all / 2);
  expect(counts.unit + counts.e2e).toBeLessThanOrEqual(counts.all);
  expect(documentedTestFiles(readFileSync(TESTS_DOC, "utf8"))).toBe(testFilesSentence(counts));
});
