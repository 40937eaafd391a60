/**
 * @module bench/lib/proc
 * Start the servers under test as separate processes on free 127.0.0.1 ports: the real
 * deckhand (compiled binary or `bun src/main.ts serve`), the bare baseline server and the bare
 * live relay, so that timings and RSS belong to the server alone, not to the benchmark client.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { BINARY, freePort } from "../../test/helpers/server.ts";

export { BINARY, freePort };
export const ROOT = join(import.meta.dir, "..", "..");
export const MAIN = join(ROOT, "src", "main.ts");
const BASELINE_SCRIPT = join(import.meta.dir, "baseline-server.ts");
const LIVE_RELAY_SCRIPT = join(import.meta.dir, "live-relay.ts");

export interface Running {
  url: string;
  pid: number;
  proc: Subprocess<"ignore", "ignore", "pipe">;
  /** SIGTERM, then SIGKILL after 5 s; removes the temporary directories. */
  stop(): Promise<void>;
}

/**
 * Wait for the first 200 from `url` (bounded). Returns ms since `since` (performance.now()).
 * Polls every `pollMs`; a refused connection fails in well under a millisecond on loopback.
 */
export async function waitFor200(url: string, proc: Subprocess, since: number, timeoutMs = 15_000, pollMs = 1): Promise<number> {
  const deadline = since + timeoutMs;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${url}: process exited with ${proc.exitCode} before answering`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - since;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) throw new Error(`${url}: no 200 within ${timeoutMs} ms`);
    await Bun.sleep(pollMs);
  }
}

function collectStderr(proc: Subprocess<"ignore", "ignore", "pipe">): () => string {
  let text = "";
  const decoder = new TextDecoder();
  void (async () => {
    for await (const chunk of proc.stderr) text += decoder.decode(chunk, { stream: true });
  })();
  return () => text;
}

function stopper(proc: Subprocess, dirs: string[]): () => Promise<void> {
  return async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill("SIGTERM");
      const killer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
      await proc.exited;
      clearTimeout(killer);
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
}

export type DeckhandMode = "binary" | "source";

/** Which deckhand to run: the binary if it exists (and `--source` was not given), else the source. */
export function pickMode(argv: string[] = Bun.argv): DeckhandMode {
  if (argv.includes("--source")) return "source";
  return existsSync(BINARY) ? "binary" : "source";
}

export function describeMode(mode: DeckhandMode): string {
  if (mode === "source") return `bun ${MAIN} serve`;
  const built = statSync(BINARY).mtime.toISOString().replace(/\.\d+Z$/, "Z");
  return `${BINARY} (built ${built})`;
}

/** Spawn a server in `dir` on a free port and wait (bounded) for its first 200 on /healthz. */
async function spawnServer(command: (port: number) => string[], dir: string, env: Record<string, string> = {}): Promise<Running> {
  const port = await freePort();
  const proc = Bun.spawn(command(port), {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...env },
    stdin: "ignore",
    // One JSON log line per request: discarded so a full pipe can never stall the server (or
    // kept in a file under $BENCH_LOG_DIR, to look into a failure).
    stdout: process.env.BENCH_LOG_DIR ? Bun.file(join(process.env.BENCH_LOG_DIR, `server-${port}.log`)) : "ignore",
    stderr: "pipe",
  });
  const stderr = collectStderr(proc);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor200(`${url}/healthz`, proc, performance.now(), 15_000, 10);
  } catch (error) {
    proc.kill("SIGKILL");
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${(error as Error).message}\n${stderr()}`);
  }
  return { url, pid: proc.pid, proc, stop: stopper(proc, [dir]) };
}

/**
 * Start deckhand with its own temporary data dir (or `dataDir`), upload limits raised for
 * benchmarking; `env` adds variables (the S3 credentials of a bucket backend).
 */
export async function startDeckhand(mode: DeckhandMode, extraArgs: string[] = [], dataDir = mkdtempSync(join(tmpdir(), "deckhand-bench-data-")), env: Record<string, string> = {}): Promise<Running & { dataDir: string }> {
  // From source, $BENCH_CPU_PROF_DIR gets the server's CPU profile (markdown) when it stops.
  const profile = process.env.BENCH_CPU_PROF_DIR ? ["--cpu-prof-md", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : [];
  const command = mode === "binary" ? [BINARY] : [process.execPath, ...profile, MAIN];
  return spawnServer(
    (port) => [
      ...command,
      ...["serve", "--host", "127.0.0.1", "--port", String(port), "--data-dir", dataDir],
      // One benchmark client on one address: no per-address bounds in the way.
      ...["--max-upload-mb", "300", "--max-staged-gb", "10", "--rate-limit", "0", "--max-uploads-per-address", "1000", "--max-uploads", "1000", ...extraArgs],
    ],
    dataDir,
    env,
  ).then((running) => ({ ...running, dataDir }));
}

/** Start the bare baseline server (bench/lib/baseline-server.ts) writing into its own temp dir. */
export async function startBaseline(): Promise<Running & { dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "deckhand-bench-baseline-"));
  return { ...(await spawnServer((port) => [process.execPath, BASELINE_SCRIPT, String(port), dir], dir)), dir };
}

/** Start the bare live relay (bench/lib/live-relay.ts): the live fan-out benchmark's baseline. */
export async function startLiveRelay(): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), "deckhand-bench-relay-"));
  return spawnServer((port) => [process.execPath, LIVE_RELAY_SCRIPT, String(port)], dir);
}

export const LIVE_RELAY_COMMAND = `bun ${LIVE_RELAY_SCRIPT}`;
