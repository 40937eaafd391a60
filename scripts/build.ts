/**
 * @module scripts/build
 * Build the single executable `dist/deckhand` for this machine: the types generated from the
 * JSON Schemas (scripts/gen-types.ts), the client bundle, then `bun build --compile` with
 * everything embedded (scripts/compile.ts). For every platform's
 * binary, archives and checksums, see scripts/release.ts.
 *
 *   bun run scripts/build.ts [--outfile dist/deckhand]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildInfo } from "./build-info.ts";
import { buildClient } from "./build-client-run.ts";
import { compile } from "./compile.ts";
import { writeGeneratedTypes } from "./gen-types.ts";

const root = join(import.meta.dir, "..");
const { values } = parseArgs({ args: Bun.argv.slice(2), options: { outfile: { type: "string" } } });
const outfile = values.outfile ?? join(root, "dist", "deckhand");

await writeGeneratedTypes();
buildClient();
const started = performance.now();
const info = buildInfo();
await compile({ outfile, info });
console.log(`built ${outfile} (deckhand ${info.version}, commit ${info.commit}) in ${Math.round(performance.now() - started)} ms`);
