/**
 * Run every benchmark in bench/ (each `bench/*.ts` except this file), one after another, each
 * in its own process: the server benchmarks first (upload, download, cold-start), then the
 * others in name order. Benchmarks print; they never assert.
 *
 *   bun run bench/run.ts        (npm run bench)
 *
 * Exits 0 unless a benchmark crashed (non-zero exit) or ran past its time limit.
 */
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";

const FIRST = ["upload.ts", "download.ts", "cold-start.ts"];
/** Bound on one benchmark; the whole suite aims at about 3 minutes. */
const LIMIT_MS = 5 * 60_000;
/** Benchmarks that need longer, with why. */
const LIMITS: Record<string, number> = {
  // An hour-long talk exported twice (the export ≤ 0.1× of it, the baseline) and Chromium's encoder measured alone: ~6 min loaded.
  "export.ts": 20 * 60_000,
};

const dir = import.meta.dir;
const self = basename(import.meta.path);
const found = readdirSync(dir).filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts") && name !== self);
const order = [...FIRST.filter((name) => found.includes(name)), ...found.filter((name) => !FIRST.includes(name)).sort()];

const failed: string[] = [];
const started = performance.now();
for (const name of order) {
  const t0 = performance.now();
  console.log(`\n=== bench/${name} ===`);
  const proc = Bun.spawn([process.execPath, join(dir, name)], { cwd: join(dir, ".."), stdin: "ignore", stdout: "inherit", stderr: "inherit" });
  const limit = LIMITS[name] ?? LIMIT_MS;
  const timer = setTimeout(() => {
    console.error(`bench/${name} ran past ${limit / 1000} s: killed`);
    proc.kill("SIGKILL");
  }, limit);
  const code = await proc.exited;
  clearTimeout(timer);
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  console.log(`=== bench/${name}: exit ${code}, ${seconds} s ===`);
  if (code !== 0) failed.push(name);
}
console.log(`\n${order.length} benchmarks in ${((performance.now() - started) / 1000).toFixed(0)} s${failed.length ? `; crashed: ${failed.join(", ")}` : ""}`);
process.exit(failed.length ? 1 : 0);
