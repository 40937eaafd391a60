/**
 * `scripts/release.ts` for all five platforms (archives at the fastest gzip/zip level, to fit
 * the suite's time; `npm run release` uses level 9): the files, SHA256SUMS, the archives'
 * contents; each binary's format and CPU and its embedded files (the script checks them, and
 * `file` is asked too); the linux-arm64 binary runs a whole handoff under
 * qemu-aarch64-static; the Windows binary runs one under Wine. Fails when a tool is missing.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import pkg from "../package.json" with { type: "json" };
import { embeddedMarkers, missingMarkers } from "../scripts/release/embedded.ts";
import { executableKind } from "../scripts/release/executable.ts";
import { TARGETS } from "../scripts/release/targets.ts";
import { makeDeck } from "./fixtures/pdfs.ts";
import { handOver, waitHealthy } from "./helpers/handoff-client.ts";
import { freePort, scratch } from "./helpers/server.ts";

// The timeout of each test and hook here: 30 s for afterAll, which stops the binaries (its tests and beforeAll set their own).
setDefaultTimeout(30_000);

const root = join(import.meta.dir, "..");
const suite = scratch();
let out: string;
const running: Subprocess[] = [];

/**
 * Bounds of the release build: one step of it, and the whole. `scripts/release.ts` prints a line
 * as each step ends — the client built, each binary built and checked, each archive packed, the
 * sums — and a step that ends nothing for STEP_MS is a hang. The bound is per step because the
 * build's wall time is what the browser lanes leave it: in `npm test` it runs under SCHED_IDLE,
 * each of its processes one thread among the lanes' dozens. On CI on 2026-12-01 the five
 * compiles took 149 s there (44 s the slowest), and the archives and sums, some 20 CPU-seconds,
 * had not ended when a 300 s bound on the whole ran out. The whole's bound only caps a build
 * that creeps; its 12 steps took 40 s in all on a quiet machine here.
 */
const STEP_MS = 300_000;
const RELEASE_MS = 1_800_000;
const EMULATED_START_MS = 60_000;
/**
 * How long the emulated server's present may be refused with 503 and sent again. Its first
 * PDF reader, emulated too, loads mupdf in about 4 s on a quiet machine; in `npm test` it runs
 * under SCHED_IDLE beside the browser lanes, and once was not ready within the server's 30 s
 * wait for a reader.
 */
const EMULATED_READERS_MS = 120_000;
/** A whole emulated handoff: the version, the start, the reader, the handoff itself. */
const EMULATED_TEST_MS = 300_000;

function need(path: string, install: string): string {
  if (!existsSync(path)) throw new Error(`${path} is missing: .ci/run installs it (apt-get install ${install}).`);
  return path;
}

function run(command: string[], options: { cwd?: string; env?: Record<string, string>; timeout?: number } = {}) {
  const result = Bun.spawnSync(command, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdout: "pipe", stderr: "pipe", timeout: options.timeout ?? 60_000 });
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

/**
 * Run `scripts/release.ts` into `dir`, killing it when a step ends nothing for STEP_MS. Its
 * output is printed either way: each step's time is the figure to read when one is slow.
 */
async function release(dir: string): Promise<void> {
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, join(root, "scripts/release.ts"), "--out", dir, "--level", "1"], { cwd: root, stdout: "pipe", stderr: "pipe" });
  let output = "";
  let lastStep = performance.now();
  const decoder = new TextDecoder();
  const reading = (async () => {
    for await (const chunk of proc.stdout) {
      const text = decoder.decode(chunk, { stream: true });
      output += text;
      if (text.includes("\n")) lastStep = performance.now();
    }
  })();
  const errors = new Response(proc.stderr).text();
  let stalled = false;
  const watch = setInterval(() => {
    if (performance.now() - lastStep < STEP_MS) return;
    stalled = true;
    proc.kill("SIGKILL");
  }, 1_000);
  const code = await proc.exited.finally(() => clearInterval(watch));
  await reading;
  const said = `${output}${await errors}`;
  console.log(said.trimEnd());
  if (stalled) throw new Error(`scripts/release.ts ended no step for ${STEP_MS / 1000} s (killed after ${Math.round((performance.now() - started) / 1000)} s); the last step that ended is its last line above`);
  if (code !== 0) throw new Error(`scripts/release.ts failed (exit ${code}):\n${said}`);
}

beforeAll(async () => {
  out = suite.dir("deckhand-release-");
  await release(out);
}, RELEASE_MS);

afterAll(async () => {
  for (const proc of running) {
    proc.kill("SIGKILL");
    await proc.exited;
  }
  await suite.cleanup();
});

describe("the release directory", () => {
  test("holds five binaries, an archive of each and SHA256SUMS that sha256sum -c accepts", () => {
    const expected = [...TARGETS.flatMap((t) => [t.binary, t.archive]), "SHA256SUMS"].sort();
    expect(readdirSync(out).sort()).toEqual(expected);
    expect(expected).toContain("deckhand-windows-x64.exe");
    expect(expected).toContain("deckhand-darwin-arm64.tar.gz");
    const sums = readFileSync(join(out, "SHA256SUMS"), "utf8").trim().split("\n");
    expect(sums.map((l) => l.split("  ")[1]).sort()).toEqual(expected.filter((n) => n !== "SHA256SUMS"));
    const verify = run(["sha256sum", "-c", "SHA256SUMS"], { cwd: out });
    expect(verify.code).toBe(0);
    expect(verify.stdout.trim().split("\n").every((l) => l.endsWith(": OK"))).toBe(true);
  }, 60_000);

  test("each archive holds exactly its binary, named deckhand (deckhand.exe), byte for byte, executable", () => {
    for (const t of TARGETS) {
      const dir = suite.dir(`deckhand-unpack-${t.name}-`);
      const unpack = t.archive.endsWith(".zip") ? run(["unzip", "-q", join(out, t.archive), "-d", dir]) : run(["tar", "-xzf", join(out, t.archive), "-C", dir]);
      expect(unpack.code).toBe(0);
      expect(readdirSync(dir)).toEqual([t.inArchive]);
      expect(Bun.hash(readFileSync(join(dir, t.inArchive)))).toBe(Bun.hash(readFileSync(join(out, t.binary))));
      if (!t.archive.endsWith(".zip")) expect(run(["test", "-x", join(dir, t.inArchive)]).code).toBe(0);
    }
  }, 120_000);

  test("each binary is its platform's executable format and CPU, and `file` agrees", () => {
    const fileSays: Record<string, RegExp> = {
      "linux-x64": /ELF 64-bit LSB (pie )?executable, x86-64/,
      "linux-arm64": /ELF 64-bit LSB (pie )?executable, ARM aarch64/,
      "darwin-arm64": /Mach-O 64-bit arm64 executable/,
      "darwin-x64": /Mach-O 64-bit x86_64 executable/,
      "windows-x64": /PE32\+ executable \(console\) x86-64.*MS Windows/,
    };
    need("/usr/bin/file", "file");
    for (const t of TARGETS) {
      const head = readFileSync(join(out, t.binary)).subarray(0, 4096);
      expect(executableKind(head)).toEqual({ format: t.format, arch: t.arch });
      expect(run(["file", "-b", join(out, t.binary)]).stdout).toMatch(fileSays[t.name]!);
    }
  });

  test("the macOS binaries (which cannot run here) carry every embedded file: client, WASM, docs, schemas, commit", () => {
    const commit = run([join(out, "deckhand-linux-x64"), "--version"]).stdout.match(/commit ([^,]+),/)![1]!;
    const markers = embeddedMarkers(root, commit);
    expect(markers.map((m) => m.what)).toEqual(expect.arrayContaining(["client-dist/sw.js", "client-dist/docs/scalar.js.gz", "schemas/check-report.schema.json"]));
    expect(markers.some((m) => m.what.endsWith("mupdf-wasm.wasm.gz"))).toBe(true);
    for (const name of ["deckhand-darwin-arm64", "deckhand-darwin-x64"]) expect(missingMarkers(readFileSync(join(out, name)), markers)).toEqual([]);
    // The check can fail: a marker that is not in the binary is reported.
    expect(missingMarkers(readFileSync(join(out, "deckhand-darwin-arm64")), [{ what: "absent", bytes: new TextEncoder().encode("no such bytes in any binary \u0000\u0001\u0002") }])).toEqual(["absent"]);
  });

  test("deckhand-linux-x64 --version names the version, the commit of this checkout and Bun", () => {
    const head = run(["git", "rev-parse", "--short=12", "HEAD"], { cwd: root }).stdout.trim();
    const version = run([join(out, "deckhand-linux-x64"), "--version"]);
    expect(version.code).toBe(0);
    expect(version.stdout).toStartWith(`deckhand ${pkg.version} (commit ${head}`);
    expect(version.stdout).toContain(`bun ${Bun.version}, linux-x64)`);
  });
});

/**
 * Start an emulated server and hand a deck over through it. qemu passes SIGTERM to the
 * program (a graceful exit 0); Wine has no console to turn it into a Ctrl+C event, so there
 * the process is only stopped.
 */
async function emulatedHandoff(command: string[], env: Record<string, string>, cwd: string, gracefulStop: boolean): Promise<void> {
  const port = await freePort();
  const proc = Bun.spawn([...command, "serve", "--port", String(port)], { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, ...env }, stdout: "pipe", stderr: "pipe" });
  running.push(proc);
  const base = `http://127.0.0.1:${port}`;
  await waitHealthy(`${base}/healthz`, EMULATED_START_MS, () => proc.exitCode === null);
  const record = await handOver(base, await makeDeck({ pages: 3 }), "emulated.pdf", EMULATED_READERS_MS);
  expect(record.totalSlides).toBe(3);
  proc.kill("SIGTERM");
  const code = await proc.exited;
  if (gracefulStop) expect(code).toBe(0);
}

/**
 * Let the kernel hand arm64 executables to qemu (binfmt_misc, as Debian's own registration
 * does): the emulated server starts its PDF worker processes from its own arm64 binary, and
 * those must run too. Needs root, as CI has; idempotent.
 */
function registerQemuAarch64(): void {
  const entry = "/proc/sys/fs/binfmt_misc/qemu-aarch64";
  if (existsSync(entry)) return;
  if (!existsSync("/proc/sys/fs/binfmt_misc/register")) run(["mount", "-t", "binfmt_misc", "binfmt_misc", "/proc/sys/fs/binfmt_misc"]);
  const conf = need("/usr/lib/binfmt.d/qemu-aarch64.conf", "qemu-user-static");
  const line = readFileSync(conf, "utf8").split("\n").find((l) => l.startsWith(":qemu-aarch64:"));
  if (!line) throw new Error(`${conf} has no qemu-aarch64 registration line`);
  writeFileSync("/proc/sys/fs/binfmt_misc/register", line);
  if (!existsSync(entry)) throw new Error("registering qemu-aarch64 with binfmt_misc failed (root is needed, as in CI)");
}

describe("the linux-arm64 binary under qemu-aarch64-static", () => {
  test("prints its version and runs present → download → complete (its PDF workers emulated too)", async () => {
    const qemu = need("/usr/bin/qemu-aarch64-static", "qemu-user-static");
    const sysroot = need("/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1", "libc6-arm64-cross").replace(/\/lib\/ld-linux-aarch64\.so\.1$/, "");
    registerQemuAarch64();
    const binary = join(out, "deckhand-linux-arm64");
    const version = run([qemu, "-L", sysroot, binary, "--version"], { timeout: EMULATED_START_MS });
    expect(version.stdout).toContain(`bun ${Bun.version}, linux-arm64)`);
    const dataDir = suite.dir("deckhand-arm64-data-");
    // QEMU_LD_PREFIX is -L for the processes the kernel starts through binfmt_misc: the workers.
    await emulatedHandoff([qemu, "-L", sysroot, binary], { DECKHAND_DATA_DIR: dataDir, QEMU_LD_PREFIX: sysroot }, dataDir, true);
    expect(readdirSync(join(dataDir, "staged"))).toEqual([]);
  }, EMULATED_TEST_MS);
});

describe("the Windows binary under Wine", () => {
  test("prints its version and runs present → download → complete", async () => {
    const wine = need(["/usr/lib/wine/wine64", "/usr/bin/wine64"].find((p) => existsSync(p)) ?? "/usr/lib/wine/wine64", "wine64");
    const mingw = need("/usr/bin/x86_64-w64-mingw32-gcc", "gcc-mingw-w64-x86-64-win32");
    const dir = suite.dir("deckhand-wine-");
    const exe = join(dir, "deckhand.exe");
    copyFileSync(join(out, "deckhand-windows-x64.exe"), exe);
    const fixtures = join(import.meta.dir, "fixtures", "wine");
    const shim = run([mingw, "-shared", "-O2", "-o", join(dir, "bcryptprimitives.dll"), join(fixtures, "bcryptprimitives.c"), join(fixtures, "bcryptprimitives.def"), "-lbcrypt"]);
    expect(shim.code).toBe(0);
    // A private prefix: nothing from (or into) anyone's ~/.wine; no debug noise.
    const env = { WINEPREFIX: join(dir, "prefix"), WINEDEBUG: "-all" };
    try {
      const version = run([wine, exe, "--version"], { cwd: dir, env, timeout: EMULATED_START_MS });
      expect(version.stdout).toContain(`deckhand ${pkg.version} (commit `);
      expect(version.stdout).toContain(`bun ${Bun.version}, win32-x64)`);
      await emulatedHandoff([wine, exe], { ...env, DECKHAND_DATA_DIR: "C:\\deckhand-data" }, dir, false);
      expect(readdirSync(join(dir, "prefix", "drive_c", "deckhand-data", "staged"))).toEqual([]);
    } finally {
      run([wine.replace(/wine64$/, "wineserver"), "-k"], { env, timeout: 30_000 });
    }
  }, EMULATED_TEST_MS);
});
