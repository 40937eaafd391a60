/**
 * @module scripts/build-client-run
 * Run scripts/build-client.ts in its own process (it is a script with top-level effects, not
 * a library) and stop the calling build when it fails.
 */
import { join } from "node:path";

export function buildClient(): void {
  const script = join(import.meta.dir, "build-client.ts");
  const client = Bun.spawnSync([process.execPath, script], { cwd: join(import.meta.dir, ".."), stdio: ["ignore", "inherit", "inherit"] });
  if (client.exitCode !== 0) process.exit(client.exitCode ?? 1);
}
