import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FINDING_CODES } from "../../src/deck/sidecar/findings.ts";

test("README.md lists every finding code with its level", () => {
  const docs = readFileSync(join(import.meta.dir, "../../README.md"), "utf8");
  for (const [code, { level }] of Object.entries(FINDING_CODES)) expect(docs).toContain(`| \`${code}\` | ${level} |`);
});
