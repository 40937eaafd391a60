/**
 * axe-core in a page of any engine: its bundle goes in through the driver's own script
 * evaluation (the pages' strict CSP blocks a <script> tag, and rightly so), then `axe.run`
 * with the WCAG 2.x A/AA rules and `label-content-name-mismatch` (an experimental rule axe
 * leaves off by default, and the one that flagged #btn-prev and .deck-open).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { EnginePage } from "./engine.ts";

const source = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Serious and critical violations on the page as it is now. */
export async function seriousViolations(page: EnginePage): Promise<AxeViolation[]> {
  await page.evaluateSource(`if (!window.axe) { ${source}\n}`);
  const all = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
      rules: { "label-content-name-mismatch": { enabled: true } },
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  return all.filter((v) => v.impact === "serious" || v.impact === "critical");
}
