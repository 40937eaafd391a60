/**
 * @module scripts/test-unit
 * `npm run test:unit`: the fast inner loop — every test file that needs no browser, no
 * compiled binary, no server process of its own and no system service (PostgreSQL, S3,
 * podman, wine, caddy, nginx), run by `bun test` across the machine's cores. A file is left
 * to `npm test` when it imports a helper or names a tool that needs one of those (NEEDS
 * below), so a new test file joins the loop unless it reaches for them — nothing to
 * register. A file that rebuilds the client runs after the others, alone: the build replaces
 * client-dist/, which the parallel workers' servers read from.
 *
 *   bun run scripts/test-unit.ts [--list | --left-out] [bun test flags…]
 */
import { Glob } from "bun";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { buildClient } from "./build-client-run.ts";

const root = join(import.meta.dir, "..");

/** What makes a test file need more than Bun: each pattern with the reason it is left out. */
const NEEDS: readonly { pattern: RegExp; why: string }[] = [
  { pattern: /\.e2e\.test\.ts$/, why: "an end-to-end suite (browsers and the binary)" },
  { pattern: /helpers\/(engine|browser|stage)\.ts/, why: "drives a browser" },
  { pattern: /helpers\/engines\.ts/, why: "starts PostgreSQL or S3" },
  { pattern: /startBinary|\bBINARY\b|dist\/deckhand|scripts\/(build|compile|release)\.ts/, why: "runs or builds the compiled binary" },
  // test/helpers/server.ts's scratch().start() starts the compiled binary.
  { pattern: /\bscratch\(\)[\s\S]*\.start\(/, why: "runs the compiled binary" },
  // A server process of its own, killed or loaded on purpose (restart, peak memory): minutes, not seconds.
  { pattern: /"src", "main\.ts"|src\/main\.ts/, why: "starts a server process from source" },
  { pattern: /\b(podman|wine64|wine|caddy|nginx)\b/, why: "runs a system tool" },
];

/** Why `path` (relative to the repository) is not a unit test, or null when it is one. */
function whyNotUnit(path: string, source: string): string | null {
  for (const need of NEEDS) if (need.pattern.test(path) || need.pattern.test(source)) return need.why;
  return null;
}

/** A test that runs scripts/build-client.ts itself (it rebuilds client-dist/ from scratch). */
const REBUILDS_CLIENT = /scripts\/build-client\.ts/;

/** The unit test files, sorted, relative to the repository: those run in parallel, then those run alone. */
export function unitTestFiles(): { parallel: string[]; alone: string[] } {
  const parallel: string[] = [];
  const alone: string[] = [];
  for (const file of [...new Glob("test/**/*.test.ts").scanSync({ cwd: root })].sort()) {
    const source = readFileSync(join(root, file), "utf8");
    if (whyNotUnit(file, source) !== null) continue;
    (REBUILDS_CLIENT.test(source) ? alone : parallel).push(file);
  }
  return { parallel, alone };
}

function bunTest(flags: string[], files: string[]): number {
  if (files.length === 0) return 0;
  const run = Bun.spawnSync([process.execPath, "test", ...flags, ...files.map((f) => `./${f}`)], { cwd: root, stdio: ["inherit", "inherit", "inherit"] });
  return run.exitCode ?? 1;
}

/**
 * Each file's last duration, kept in node_modules/.cache (a cache: deleting it costs one run's
 * order): `bun test --parallel` starts the slowest files first, so no worker is left with a
 * long file at the end while the other idles. Not when the caller passes its own --timings.
 */
export function timings(args: readonly string[]): string[] {
  if (args.some((a) => a.startsWith("--timings"))) return [];
  const file = join(root, "node_modules", ".cache", "deckhand", "test-unit-timings.json");
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as { version?: unknown };
    if (parsed.version !== 1) throw new Error("another format");
  } catch {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ version: 1, files: {} }));
  }
  return [`--timings=${file}`, "--update-timings"];
}

if (import.meta.main) {
  const args = Bun.argv.slice(2);
  const { parallel, alone } = unitTestFiles();
  if (args.includes("--left-out")) {
    for (const file of [...new Glob("test/**/*.test.ts").scanSync({ cwd: root })].sort()) {
      const why = whyNotUnit(file, readFileSync(join(root, file), "utf8"));
      if (why) console.log(`${file}: ${why}`);
    }
    process.exit(0);
  }
  if (args.includes("--list")) {
    for (const file of [...parallel, ...alone]) console.log(file);
    process.exit(0);
  }
  const started = performance.now();
  // The tests serve the client this build generates (~1.5 s), as `npm test`'s build does.
  buildClient();
  // --no-isolate: each of the parallel workers keeps one module registry across the files it
  // runs, so the PDF worker pool of test/helpers/app.ts (each worker process compiles mupdf)
  // and the fixtures built once (test/fixtures/pptx.ts, pdfs.ts) are shared by its files
  // instead of made again per file: about a third less CPU. `npm test` isolates every file.
  const inParallel = bunTest(["--parallel", "--no-isolate", ...timings(args), ...args], parallel);
  const failed = bunTest(args, alone) || inParallel;
  console.log(`test:unit: ${parallel.length + alone.length} files in ${Math.round((performance.now() - started) / 1000)} s`);
  process.exit(failed);
}
