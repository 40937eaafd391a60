/**
 * The Node.js the project names (package.json `engines.node`, and the README's quick start)
 * is one every installed package accepts: `npm ci` on the named Node prints no EBADENGINE.
 * npm only installs here (Bun runs everything), but a newcomer's first screen should be quiet.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, { engines?: { node?: string } | string[] }> };

test("the named Node is the lowest every locked package accepts, and the README says the same", () => {
  const named = /^>=\s*(\d+\.\d+\.\d+)$/.exec(pkg.engines.node)?.[1];
  expect(named).toBeDefined();
  const refused = Object.entries(lock.packages)
    .filter(([path, p]) => path && p.engines && !Array.isArray(p.engines) && p.engines.node && !Bun.semver.satisfies(named!, p.engines.node))
    .map(([path, p]) => `${path}: ${(p.engines as { node: string }).node}`);
  expect(refused).toEqual([]);
  const [major, minor] = named!.split(".");
  expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain(`Node.js (${major}.${minor} or newer)`);
});
