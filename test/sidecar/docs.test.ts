import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FINDING_CODES } from "../../src/deck/sidecar/findings.ts";

test("docs/decks/check-report.md lists every finding code with its level", () => {
  const docs = readFileSync(join(import.meta.dir, "../../docs/decks/check-report.md"), "utf8");
  for (const [code, { level }] of Object.entries(FINDING_CODES)) expect(docs).toContain(`| \`${code}\` | ${level} |`);
});
