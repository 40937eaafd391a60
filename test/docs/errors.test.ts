/**
 * The live protocol's error codes against the one error catalogue: docs/api/errors.md maps
 * every `LiveErrorCode` once, naming the close code the server uses with it (LIVE_CLOSE's) and,
 * where the same refusal has one over HTTP, a problem code of src/shared/problem.ts — so a
 * code added to the protocol, or a problem code renamed, fails here until the page says it.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ERROR_CODES } from "../../src/shared/problem.ts";
import { LIVE_CLOSE, LiveErrorCode } from "../../src/shared/live-protocol.ts";

const page = readFileSync(resolve(import.meta.dir, "../../docs/api/errors.md"), "utf8");
const liveCodes = LiveErrorCode.anyOf.map((literal) => literal.const as string);

/** The rows of the table under "## The live protocol's codes": its cells, by the live code. */
function liveTable(): Map<string, string[]> {
  const section = page.split(/^## /m).find((s) => s.startsWith("The live protocol's codes"));
  expect(section).toBeDefined();
  const rows = new Map<string, string[]>();
  for (const line of section!.split("\n")) {
    const cells = line.split("|").slice(1, -1).map((c) => c.trim());
    const code = /^`([A-Z_]+)`$/.exec(cells[0] ?? "")?.[1];
    if (!code) continue;
    expect(rows.has(code)).toBe(false);
    rows.set(code, cells);
  }
  return rows;
}

test("every live error code is mapped once, and nothing else is", () => {
  expect([...liveTable().keys()].sort()).toEqual([...liveCodes].sort());
});

test("each row names only the close code LIVE_CLOSE gives its code, and only problem codes that exist", () => {
  const closes: Record<string, number> = LIVE_CLOSE;
  for (const [code, [, close, problem, when]] of liveTable()) {
    const numbers = [...close!.matchAll(/\b4\d{3}\b/g)].map((m) => Number(m[0]));
    // A close code named is the one LIVE_CLOSE gives that code (the reason text is the code).
    for (const n of numbers) expect({ code, close: n }).toEqual({ code, close: closes[code]! });
    const named = [...problem!.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]!);
    expect(problem === "—" || named.length > 0).toBe(true);
    for (const name of named) expect({ code, name, known: name in ERROR_CODES }).toEqual({ code, name, known: true });
    expect(when!.length).toBeGreaterThan(10);
  }
});
