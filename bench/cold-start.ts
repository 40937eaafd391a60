/**
 * Cold-start benchmark (DESIGN §7): the compiled binary `dist/deckhand`, from exec to the
 * first 200 on /healthz — target under 150 ms — against a minimal compiled Bun.serve binary
 * built in a temporary directory in the same run. Prints both and the ratio.
 *
 *   bun bench/cold-start.ts [--reps N]
 *
 * deckhand is measured twice: with a new, empty data directory (first run: the database is
 * created and migrated) and with an existing one (a restart). Build the binary first
 * (`npm run build`); this benchmark does not rebuild it. Prints; never asserts.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Subprocess } from "bun";
import { BINARY, describeMode, freePort, waitFor200 } from "./lib/proc.ts";
import { describeMs, machineLine, summarize, verdict } from "./lib/stats.ts";

const { values } = parseArgs({ args: Bun.argv.slice(2), options: { reps: { type: "string" } } });
const reps = Math.max(1, Math.min(50, Number(values.reps ?? 10)));
const work = mkdtempSync(join(tmpdir(), "deckhand-bench-cold-"));
const live = new Set<Subprocess>();

const MINIMAL = `// The cold-start baseline: the least a compiled Bun HTTP server can do.
const port = Number(process.argv[process.argv.length - 1]);
Bun.serve({ port, hostname: "127.0.0.1", fetch: () => new Response("ok") });
`;

/** Build the minimal baseline binary with the same compile options as scripts/build.ts. */
async function buildMinimal(): Promise<string> {
  const entry = join(work, "minimal.ts");
  const outfile = join(work, "minimal-server");
  writeFileSync(entry, MINIMAL);
  const result = await Bun.build({
    entrypoints: [entry],
    target: "bun",
    format: "esm",
    minify: false,
    sourcemap: "none",
    compile: { outfile, autoloadDotenv: false, autoloadBunfig: false, autoloadTsconfig: false, autoloadPackageJson: false },
  });
  if (!result.success) throw new Error(`building the baseline binary failed: ${result.logs.join("\n")}`);
  return outfile;
}

/** Exec `argv` (with the port appended by `withPort`) and time until /healthz answers 200. */
async function coldStart(withPort: (port: number) => string[], cwd: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const proc = Bun.spawn(withPort(port), {
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "ignore",
  });
  live.add(proc);
  try {
    return await waitFor200(`http://127.0.0.1:${port}/healthz`, proc, started, 15_000, 1);
  } finally {
    proc.kill("SIGTERM");
    const killer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
    await proc.exited;
    clearTimeout(killer);
    live.delete(proc);
  }
}

try {
  console.log("## cold-start benchmark");
  console.log(machineLine());
  if (!existsSync(BINARY)) {
    console.log(`${BINARY} is missing: run \`npm run build\` first. Skipped.`);
  } else {
    console.log(`deckhand: ${describeMode("binary")}; ${reps} repetitions, interleaved, median; polled every 1 ms`);
    const minimal = await buildMinimal();
    const reusedDir = join(work, "data-reused");
    const deckhandArgs = (dataDir: string) => (port: number) => [BINARY, "serve", "--host", "127.0.0.1", "--port", String(port), "--data-dir", dataDir];
    // Warm-up: both executables in the page cache, the reused data directory created.
    await coldStart((port) => [minimal, String(port)], work);
    await coldStart(deckhandArgs(reusedDir), work);
    const base: number[] = [];
    const fresh: number[] = [];
    const reused: number[] = [];
    for (let i = 0; i < reps; i++) {
      base.push(await coldStart((port) => [minimal, String(port)], work));
      const freshDir = join(work, `data-fresh-${i}`);
      fresh.push(await coldStart(deckhandArgs(freshDir), work));
      rmSync(freshDir, { recursive: true, force: true });
      reused.push(await coldStart(deckhandArgs(reusedDir), work));
    }
    const b = summarize(base);
    const f = summarize(fresh);
    const r = summarize(reused);
    console.log(`baseline  minimal compiled Bun.serve          ${describeMs(b)}`);
    console.log(`deckhand  new data dir (create + migrate)     ${describeMs(f)}  ${(f.median / b.median).toFixed(2)}× baseline`);
    console.log(`deckhand  existing data dir (restart)         ${describeMs(r)}  ${(r.median / b.median).toFixed(2)}× baseline`);
    console.log(verdict("cold start to first 200, new data dir", f.median, 150, "ms"));
    console.log(verdict("cold start to first 200, existing data dir", r.median, 150, "ms"));
  }
} catch (error) {
  console.error("cold-start benchmark crashed:", error);
  process.exitCode = 1;
} finally {
  for (const proc of live) proc.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
}
