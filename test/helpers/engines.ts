/**
 * Real storage engines for the tests, started by the tests themselves on loopback: a
 * throw-away PostgreSQL cluster (Debian's `postgresql`: initdb + pg_ctl in a temp dir, as the
 * `postgres` user when we are root, since initdb refuses root) and an S3-protocol server
 * (`s3rver` from npm). Each is stopped and its directory removed by `stop()`. A missing
 * engine is a failure that names the package to install, never a skip.
 */
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, onFreePort } from "./server.ts";

const PG_ROOT = "/usr/lib/postgresql";
const S3RVER = join(import.meta.dir, "..", "..", "node_modules", "s3rver", "bin", "s3rver.js");

/** The bin directory of the newest PostgreSQL Debian installed, or a failure naming the package. */
export function postgresBin(): string {
  const versions = existsSync(PG_ROOT)
    ? readdirSync(PG_ROOT)
        .filter((v) => existsSync(join(PG_ROOT, v, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error("PostgreSQL is not installed: these tests need Debian's `postgresql` package (apt-get install -y postgresql; .ci/run installs it).");
  }
  return join(PG_ROOT, versions[0]!, "bin");
}

function run(command: string[], asPostgres: boolean): { code: number; output: string } {
  const argv = asPostgres ? ["su", "postgres", "-s", "/bin/sh", "-c", command.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ")] : command;
  const result = Bun.spawnSync(argv, { stdout: "pipe", stderr: "pipe" });
  return { code: result.exitCode ?? 1, output: `${result.stdout.toString()}${result.stderr.toString()}` };
}

export interface PostgresServer {
  /** `postgres://deckhand@127.0.0.1:PORT/postgres` */
  url: string;
  port: number;
  /** A new, empty database on this server; its URL. */
  createDatabase(name: string): Promise<string>;
  /** Send `signal` to every process of the cluster (SIGSTOP hangs it, SIGCONT resumes it). */
  signal(signal: "SIGSTOP" | "SIGCONT"): void;
  stop(): Promise<void>;
}

/** The postmaster and its children (backends, background workers), by /proc. */
function clusterPids(data: string): number[] {
  const postmaster = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
  const children = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // Field 4 of /proc/PID/stat is the parent's pid (after the parenthesised command name).
        return Number(readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1]?.split(" ")[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

export interface PostgresOptions {
  /** Durable commits, as in production (benchmarks); tests default to fsync off for speed. */
  durable?: boolean;
}

export async function startPostgres(options: PostgresOptions = {}): Promise<PostgresServer> {
  const bin = postgresBin();
  const root = mkdtempSync(join(tmpdir(), "deckhand-pg-"));
  const asPostgres = process.getuid?.() === 0;
  if (asPostgres) chownSync(root, Number(run(["id", "-u", "postgres"], false).output.trim()), Number(run(["id", "-g", "postgres"], false).output.trim()));
  const data = join(root, "data");
  const init = run([join(bin, "initdb"), "-D", data, "-A", "trust", "-U", "deckhand", "--no-sync", "-E", "UTF8"], asPostgres);
  if (init.code !== 0) throw new Error(`initdb failed: ${init.output}`);
  const port = await freePort();
  const settings = [`-p ${port}`, `-k ${root}`, "-c listen_addresses=127.0.0.1", "-c max_connections=200", ...(options.durable ? [] : ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"])];
  const start = run([join(bin, "pg_ctl"), "-D", data, "-o", settings.join(" "), "-l", join(root, "postgres.log"), "-w", "-t", "60", "start"], asPostgres);
  if (start.code !== 0) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`pg_ctl start failed: ${start.output}`);
  }
  const url = `postgres://deckhand@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    async createDatabase(name) {
      const sql = new Bun.SQL(url, { max: 1 });
      try {
        await sql.unsafe(`CREATE DATABASE "${name}"`);
      } finally {
        await sql.close();
      }
      return `postgres://deckhand@127.0.0.1:${port}/${name}`;
    },
    signal(signal) {
      for (const pid of clusterPids(data)) process.kill(pid, signal);
    },
    async stop() {
      // A cluster a test left hung (SIGSTOP) must resume to stop.
      try {
        for (const pid of clusterPids(data)) process.kill(pid, "SIGCONT");
      } catch {}
      run([join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"], asPostgres);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export interface S3Server {
  endpoint: string;
  bucket: string;
  /** The variables Bun's S3 client (and so deckhand) reads. */
  env: Record<string, string>;
  /** Where the server keeps the bucket's objects (one file tree per object). */
  dir: string;
  /** Client options for `new S3Client(…)` in this process. */
  client: { endpoint: string; accessKeyId: string; secretAccessKey: string; region: string };
  /** Send `signal` to the server process (SIGSTOP hangs it, SIGCONT resumes it). */
  signal(signal: "SIGSTOP" | "SIGCONT"): void;
  stop(): Promise<void>;
}

/** s3rver's fixed credentials. */
const S3RVER_KEY = "S3RVER";

/**
 * How long s3rver (a Node process) may take to listen: a start that never comes, not a slow
 * one. In `npm test` the services stage yields to the browser lanes; on CI (2026-12-01) two
 * files' s3rver had not listened within the 15 s this was.
 */
const S3_LISTEN_MS = 45_000;

export async function startS3(bucket = "deckhand"): Promise<S3Server> {
  if (!existsSync(S3RVER)) throw new Error("s3rver is not installed: these tests need the `s3rver` devDependency (npm ci).");
  const dir = mkdtempSync(join(tmpdir(), "deckhand-s3-"));
  const { proc, endpoint } = await onFreePort(undefined, async (port) => {
    const proc = Bun.spawn(["node", S3RVER, "-d", dir, "-p", String(port), "-a", "127.0.0.1", "--configure-bucket", bucket, "--silent"], {
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const endpoint = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + S3_LISTEN_MS;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`s3rver exited with ${proc.exitCode}: ${await new Response(proc.stderr).text()}`);
      try {
        await fetch(endpoint);
        return { proc, endpoint };
      } catch {
        if (Date.now() > deadline) {
          proc.kill("SIGKILL");
          throw new Error(`s3rver did not listen within ${S3_LISTEN_MS / 1000} s`);
        }
        await Bun.sleep(50);
      }
    }
  });
  const client = { endpoint, accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY, region: "us-east-1" };
  return {
    endpoint,
    bucket,
    dir,
    client,
    env: { S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: S3RVER_KEY, S3_SECRET_ACCESS_KEY: S3RVER_KEY, S3_REGION: "us-east-1" },
    signal(signal) {
      proc.kill(signal);
    },
    async stop() {
      proc.kill("SIGCONT");
      proc.kill("SIGKILL");
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
