/**
 * Start the real compiled binary (`dist/deckhand`) on a free 127.0.0.1 port with its own
 * temporary data directory, for end-to-end tests. Build it first: `bun run scripts/build.ts`
 * (`npm test` does).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";

export const BINARY = join(import.meta.dir, "..", "..", "dist", "deckhand");

export interface BinaryServer {
  url: string;
  port: number;
  dataDir: string;
  proc: Subprocess<"ignore", "pipe", "pipe">;
  /** Everything the server printed on stdout so far (JSON log lines). */
  logs(): string;
  /** SIGTERM and wait for exit. */
  stop(): Promise<number>;
  /** SIGKILL (a crash) and wait for exit. */
  kill9(): Promise<void>;
  /** Remove the data directory (after stop). */
  cleanup(): void;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** What a server that lost its port says when it exits: deckhand's ConfigError, or Node's code (s3rver). */
const PORT_TAKEN = /is in use by another program|EADDRINUSE/;
const PORT_TRIES = 5;

/**
 * `start(port)` on a port from freePort, or on `given`. The port freePort found is free when it
 * answers, not when the server binds it: meanwhile any process's outgoing connection may take
 * it as its own end (the browser lanes open thousands), and the server exits saying the port
 * is in use (a fresh clone's run, 2026-12-01). Then it starts again on another free port, a few
 * times. A `given` port is the caller's to keep (a restart on the same address): no retry.
 */
export async function onFreePort<T>(given: number | undefined, start: (port: number) => Promise<T>): Promise<T> {
  if (given !== undefined) return start(given);
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (attempt >= PORT_TRIES || !PORT_TAKEN.test(String(error))) throw error;
    }
  }
}

export interface StartOptions {
  dataDir?: string;
  args?: string[];
  env?: Record<string, string>;
  /** Run from this working directory (default: a fresh empty temp dir). */
  cwd?: string;
  binary?: string;
  /** Listen on this port (a restart on the same address); a free one by default. */
  port?: number;
  /** A command the binary runs under, e.g. ["prlimit", "--nofile=256:256"] (it must exec it). */
  wrap?: string[];
}

/**
 * How long a server process may take to answer its first `/healthz` by default: a start that
 * never comes, not a slow one. In `npm test` the services stage yields to the browser lanes;
 * on a machine at half the usual speed (2026-12-01, load 20) an instance on PostgreSQL and S3
 * had not answered within the 15 s this was.
 */
const HEALTHY_MS = 45_000;

/**
 * Bounded wait for a server process's first healthy `/healthz`: throws with `output()` when
 * the process exits first, or kills it and throws after `timeoutMs`.
 */
export async function waitForHealthy(url: string, proc: Subprocess, output: () => string | Promise<string>, timeoutMs = HEALTHY_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`deckhand exited with ${proc.exitCode}: ${await output()}`);
    try {
      // Each try bounded: whatever else listens on the port (the server then exits, saying so)
      // may never answer.
      if ((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(Math.max(1, Math.min(10_000, deadline - Date.now()))) })).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`deckhand did not answer /healthz within ${timeoutMs / 1000} s: ${await output()}`);
    }
    await Bun.sleep(25);
  }
}

/**
 * Every temporary directory startBinary made. A suite removes its own with cleanup(); what one
 * forgot (a restart on the same data dir makes a new working dir, a failed test skips its
 * teardown) is removed after the last test by removeMadeDirs (test/helpers/teardown.ts, a
 * preload), so runs leave nothing in the temp dir.
 */
const madeDirs = new Set<string>();

export function removeMadeDirs(): void {
  for (const dir of madeDirs) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      console.error(`could not remove ${dir}: ${(error as Error).message}`);
    }
  }
  madeDirs.clear();
}

function madeDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeDirs.add(dir);
  return dir;
}

export async function startBinary(options: StartOptions = {}): Promise<BinaryServer> {
  const binary = options.binary ?? BINARY;
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run \`bun run scripts/build.ts\` first (npm test does).`);
  const dataDir = options.dataDir ?? madeDir("deckhand-data-");
  const cwd = options.cwd ?? madeDir("deckhand-cwd-");
  return onFreePort(options.port, (port) => startBinaryOn(port, binary, dataDir, cwd, options));
}

async function startBinaryOn(port: number, binary: string, dataDir: string, cwd: string, options: StartOptions): Promise<BinaryServer> {
  const proc = Bun.spawn([...(options.wrap ?? []), binary, "serve", "--host", "127.0.0.1", "--port", String(port), "--data-dir", dataDir, ...(options.args ?? [])], {
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...options.env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let output = "";
  const decoder = new TextDecoder();
  void (async () => {
    for await (const chunk of proc.stdout) output += decoder.decode(chunk, { stream: true });
  })();
  let errors = "";
  void (async () => {
    for await (const chunk of proc.stderr) errors += decoder.decode(chunk, { stream: true });
  })();
  const url = `http://127.0.0.1:${port}`;
  await waitForHealthy(url, proc, () => `${errors}${output}`);
  return {
    url,
    port,
    dataDir,
    proc,
    logs: () => output,
    stop: async () => {
      proc.kill("SIGTERM");
      return proc.exited;
    },
    kill9: async () => {
      proc.kill("SIGKILL");
      await proc.exited;
    },
    cleanup: () => {
      rmSync(dataDir, { recursive: true, force: true });
      if (!options.cwd) rmSync(cwd, { recursive: true, force: true });
    },
  };
}

/** Temporary directories and binary servers a suite creates, torn down together. */
export interface Scratch {
  dir(prefix: string): string;
  start(options: StartOptions): Promise<BinaryServer>;
  /** SIGKILL servers still running, then remove every directory. */
  cleanup(): Promise<void>;
}

export function scratch(): Scratch {
  const dirs: string[] = [];
  const servers: BinaryServer[] = [];
  return {
    dir(prefix) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    async start(options) {
      const server = await startBinary(options);
      servers.push(server);
      return server;
    },
    async cleanup() {
      for (const server of servers.splice(0)) if (server.proc.exitCode === null && server.proc.signalCode === null) await server.kill9();
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
