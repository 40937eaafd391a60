/**
 * Cold-start benchmark (budget: docs/development/design.md): the compiled binary
 * `dist/deckhand`, from exec to the first 200 on /healthz — target under 150 ms — against a
 * minimal compiled Bun.serve binary built in a temporary directory in the same run. Prints both
 * and the ratio.
 *
 *   bun bench/cold-start.ts [--reps N]
 *
 * deckhand is measured twice: with a new, empty data directory (first run: the database is
 * created and migrated) and with an existing one (a restart). Then the first upload after a
 * cold start (what start-up leaves for later must not make the first upload pay more
 * than it saved): exec, the first 200, then at once `POST /api/present` of a 3-page deck,
 * against a second upload to the same, warm server. Build the binary first
 * (`npm run build`); this benchmark does not rebuild it. Prints; never asserts.
 *
 *   bun bench/cold-start.ts [--reps N] [--compare OTHER_BINARY]
 *
 * `--compare` measures another deckhand binary in the same run, interleaved (e.g. one built
 * from an earlier commit with `bun run scripts/build.ts --outfile /tmp/before`): the before
 * and after of a change, on the same machine at the same moment.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Subprocess } from "bun";
import { writeBenchPdf } from "./lib/pdf.ts";
import { BINARY, describeMode, freePort, waitFor200 } from "./lib/proc.ts";
import { describeMs, machineLine, summarize, verdict } from "./lib/stats.ts";

const { values } = parseArgs({ args: Bun.argv.slice(2), options: { reps: { type: "string" }, compare: { type: "string" } } });
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

interface Started {
  /** ms from exec to the first 200 on /healthz. */
  ready: number;
  /** With an upload: ms from exec to the first upload's answer, and a second upload's own ms. */
  firstUpload?: number;
  warmUpload?: number;
}

async function presentOnce(port: number, deck: Blob): Promise<number> {
  const form = new FormData();
  form.append("file", deck, "cold-start.pdf");
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/api/present`, { method: "POST", body: form });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`present answered ${res.status}: ${body.slice(0, 300)}`);
  return performance.now() - started;
}

/** Exec `argv` (with the port appended by `withPort`) and time until /healthz answers 200; then, given a deck, upload it twice. */
async function coldStart(withPort: (port: number) => string[], cwd: string, deck?: Blob): Promise<Started> {
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
    const ready = await waitFor200(`http://127.0.0.1:${port}/healthz`, proc, started, 15_000, 1);
    if (!deck) return { ready };
    await presentOnce(port, deck);
    const firstUpload = performance.now() - started;
    const warmUpload = await presentOnce(port, deck);
    return { ready, firstUpload, warmUpload };
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
    const binaries: Array<{ name: string; path: string }> = [{ name: "deckhand", path: BINARY }];
    if (values.compare) {
      if (!existsSync(values.compare)) throw new Error(`--compare ${values.compare}: no such file`);
      binaries.push({ name: "compared", path: values.compare });
      console.log(`compared: ${values.compare}, measured interleaved with deckhand`);
    }
    const deckPath = join(work, "deck.pdf");
    await writeBenchPdf(deckPath, 200 * 1024, 3);
    const deck = new Blob([await Bun.file(deckPath).bytes()], { type: "application/pdf" });
    const args = (binary: string, dataDir: string) => (port: number) => [binary, "serve", "--host", "127.0.0.1", "--port", String(port), "--data-dir", dataDir];
    // Warm-up: every executable in the page cache, the reused data directories created.
    await coldStart((port) => [minimal, String(port)], work);
    for (const b of binaries) await coldStart(args(b.path, join(work, `${b.name}-reused`)), work);
    const base: number[] = [];
    const rows = binaries.map(() => ({ fresh: [] as number[], reused: [] as number[], first: [] as number[], warm: [] as number[] }));
    for (let i = 0; i < reps; i++) {
      base.push((await coldStart((port) => [minimal, String(port)], work)).ready);
      for (const [k, b] of binaries.entries()) {
        const freshDir = join(work, `${b.name}-fresh-${i}`);
        rows[k]!.fresh.push((await coldStart(args(b.path, freshDir), work)).ready);
        rmSync(freshDir, { recursive: true, force: true });
        rows[k]!.reused.push((await coldStart(args(b.path, join(work, `${b.name}-reused`)), work)).ready);
        const uploadDir = join(work, `${b.name}-upload-${i}`);
        const up = await coldStart(args(b.path, uploadDir), work, deck);
        rmSync(uploadDir, { recursive: true, force: true });
        rows[k]!.first.push(up.firstUpload!);
        rows[k]!.warm.push(up.warmUpload!);
      }
    }
    const b = summarize(base);
    console.log(`baseline  minimal compiled Bun.serve          ${describeMs(b)}`);
    for (const [k, bin] of binaries.entries()) {
      const f = summarize(rows[k]!.fresh);
      const r = summarize(rows[k]!.reused);
      const first = summarize(rows[k]!.first);
      const warm = summarize(rows[k]!.warm);
      const label = bin.name.padEnd(9);
      console.log(`${label} new data dir (create + migrate)     ${describeMs(f)}  ${(f.median / b.median).toFixed(2)}× baseline`);
      console.log(`${label} existing data dir (restart)         ${describeMs(r)}  ${(r.median / b.median).toFixed(2)}× baseline`);
      console.log(`${label} exec to the first upload's answer   ${describeMs(first)}`);
      console.log(`${label}   a second upload, warm, alone       ${describeMs(warm)}`);
    }
    const f = summarize(rows[0]!.fresh);
    const r = summarize(rows[0]!.reused);
    console.log(verdict("cold start to first 200, new data dir, ≤ 5× the baseline", f.median / b.median, 5, "×"));
    console.log(verdict("cold start to first 200, existing data dir, ≤ 5× the baseline", r.median / b.median, 5, "×"));
    console.log(verdict("cold start to first 200, existing data dir", r.median, 150, "ms"));
  }
} catch (error) {
  console.error("cold-start benchmark crashed:", error);
  process.exitCode = 1;
} finally {
  for (const proc of live) proc.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
}
