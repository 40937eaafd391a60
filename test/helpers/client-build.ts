/**
 * @module test/helpers/client-build
 * Preloaded by bun test (bunfig.toml), before anything imports src/binary/assets.ts: when the
 * client has never been built (a fresh `npm ci`), build it once, so any test file runs alone
 * without a manual `scripts/build-client.ts` first. src/binary/assets.ts imports the generated
 * src/http/client-assets.gen.ts statically — the compiled binary embeds the client through
 * that import — and the file is git-ignored, so without this every test file failed at its
 * first import. The build takes ~1.5 s and is skipped whenever the module exists; `npm test`
 * and `npm run test:unit` build the client before bun test anyway.
 */
import { existsSync, mkdirSync, rmdirSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..", "..");
const generated = join(root, "src", "http", "client-assets.gen.ts");
/** `bun test --parallel` preloads this in every worker: one builds, the others wait for it. */
const lock = join(root, "client-dist.building");
/** A client build takes ~1.5 s; two minutes covers a machine loaded by a full test run. */
const WAIT_MS = 120_000;

if (!existsSync(generated)) {
  if (takeLock()) {
    try {
      const build = Bun.spawnSync([process.execPath, join(root, "scripts", "build-client.ts")], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
      if (build.exitCode !== 0) throw new Error(`scripts/build-client.ts failed (exit ${build.exitCode}); the tests need the client it builds`);
    } finally {
      rmdirSync(lock);
    }
  } else {
    const deadline = Date.now() + WAIT_MS;
    // Waits on the condition itself: the other worker's build finished (its lock gone).
    while (existsSync(lock) && Date.now() < deadline) Bun.sleepSync(100);
    if (!existsSync(generated)) throw new Error(`the client build another test worker started did not finish (${lock} is still there or the build failed)`);
  }
}

/** mkdir is atomic: exactly one process creates the lock directory. */
function takeLock(): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch {
    return false;
  }
}
