/**
 * One type per concept: the CheckReport type that the server, the MCP tools and the browser
 * client import is generated from schemas/check-report.schema.json (scripts/gen-types.ts).
 * The committed file must be exactly what the schema generates, so a schema change that is
 * not regenerated fails here (every build regenerates it).
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { staleGeneratedTypes } from "../scripts/gen-types.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (1 s).
setDefaultTimeout(15_000);

test("the generated schema types are current", async () => {
  expect(await staleGeneratedTypes()).toEqual([]);
});
