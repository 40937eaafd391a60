/**
 * Build the single executable `dist/deckhand`: the client bundle, then `bun build --compile`
 * with everything embedded (client files, mupdf's WASM, JSON schemas). The binary ignores
 * .env and bunfig.toml where it runs, and carries its version via `define`.
 *
 *   bun run scripts/build.ts [--outfile dist/deckhand]
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pkg from "../package.json" with { type: "json" };

const root = join(import.meta.dir, "..");
const { values } = parseArgs({ args: Bun.argv.slice(2), options: { outfile: { type: "string" } } });
const outfile = values.outfile ?? join(root, "dist", "deckhand");

const clientBuild = join(root, "scripts", "build-client.ts");
if (existsSync(clientBuild)) {
  const client = Bun.spawnSync([process.execPath, clientBuild], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  if (client.exitCode !== 0) process.exit(client.exitCode ?? 1);
}

const started = performance.now();
const result = await Bun.build({
  entrypoints: [join(root, "src", "main.ts")],
  target: "bun",
  format: "esm",
  // --minify is reported to break some compiled Elysia apps (TOOLCHAIN-NOTES); size is not our constraint.
  minify: false,
  sourcemap: "none",
  // Precompiled bytecode halves cold start (parsing the bundle dominated it); needs ESM here
  // because mupdf uses top-level await.
  bytecode: true,
  // DECKHAND_COMPILED: the PDF pool starts its workers as `deckhand __pdf-worker` (pdf/worker/pool).
  define: { DECKHAND_VERSION: JSON.stringify(pkg.version), DECKHAND_COMPILED: "true" },
  compile: { outfile, autoloadDotenv: false, autoloadBunfig: false, autoloadTsconfig: false, autoloadPackageJson: false },
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built ${outfile} (deckhand ${pkg.version}) in ${Math.round(performance.now() - started)} ms`);
