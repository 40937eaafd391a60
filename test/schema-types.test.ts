/**
 * One type per concept: the CheckReport type that the server, the MCP tools and the browser
 * client import is generated from schemas/check-report.schema.json (scripts/gen-types.ts).
 * The committed file must be exactly what the schema generates, so a schema change that is
 * not regenerated fails here (every build regenerates it).
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { staleGeneratedTypes } from "../scripts/gen-types.ts";

const SCHEMAS = join(import.meta.dir, "..", "schemas");

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (1 s).
setDefaultTimeout(15_000);

test("the generated schema types are current", async () => {
  expect(await staleGeneratedTypes()).toEqual([]);
});

// The binary embeds each schema as text; a string with any non-ASCII character is kept as
// UTF-16 inside it, so the release's check that every embedded file's bytes are in the binary
// (scripts/release/embedded.ts) cannot find it (an em dash in one description did that).
test("the served JSON Schemas are ASCII", () => {
  const offenders = readdirSync(SCHEMAS)
    .filter((f) => f.endsWith(".json"))
    .flatMap((f) => readFileSync(join(SCHEMAS, f), "utf8").split("\n").flatMap((line, i) => (/[^\x00-\x7f]/.test(line) ? [`${f}:${i + 1}`] : [])));
  expect(offenders).toEqual([]);
});
