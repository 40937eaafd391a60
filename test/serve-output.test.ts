/**
 * What `deckhand serve` (the compiled binary) prints: a banner and readable lines for a person
 * at a terminal, one JSON object per line for a pipe, and what --log-format forces. The
 * terminal is a real pseudo-terminal made by util-linux `script`; the suite fails if
 * `script` is missing.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { networkInterfaces } from "node:os";
import type { Subprocess } from "bun";
import { networkAddresses } from "../src/cli/banner.ts";
import { drawsQrOf, qrLines } from "./helpers/qr.ts";
import { BINARY, freePort, scratch } from "./helpers/server.ts";
import { waitFor } from "./helpers/wait.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (2.3 s), and at least 90 s as it starts processes (each start may take WAIT_MS).
setDefaultTimeout(90_000);

const suite = scratch();
afterAll(() => suite.cleanup());

/**
 * Bound on every wait for output: output that never comes, not slow output. A start, yielding
 * to the browser lanes, may take as long as test/helpers/server.ts allows one (45 s).
 */
const WAIT_MS = 45_000;
const SCRIPT = "/usr/bin/script";

const stripAnsi = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "");

interface Run {
  port: number;
  output(): string;
  until(text: string): Promise<void>;
  stop(): Promise<void>;
}

/** Start the binary's `serve`, through a pseudo-terminal (`script`) or with stdout piped. */
async function serve(options: { tty: boolean; args?: string[]; env?: Record<string, string> }): Promise<Run> {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run \`bun run scripts/build.ts\` first (npm test does).`);
  if (options.tty && !existsSync(SCRIPT)) throw new Error(`${SCRIPT} is missing: install util-linux (bsdutils) — the terminal tests need a pseudo-terminal.`);
  const port = await freePort();
  const argv = [BINARY, "serve", "--port", String(port), "--data-dir", suite.dir("deckhand-out-"), ...(options.args ?? [])];
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", TERM: "xterm-256color", ...options.env };
  // script -q: no "Script started" lines; -f: flush at once; -e: the command's exit code; -c: what to run.
  const command = options.tty ? [SCRIPT, "-qfec", argv.map((a) => `'${a}'`).join(" "), "/dev/null"] : argv;
  const proc: Subprocess<"ignore", "pipe", "pipe"> = Bun.spawn(command, { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  let text = "";
  const decoder = new TextDecoder();
  void (async () => {
    for await (const chunk of proc.stdout) text += decoder.decode(chunk, { stream: true });
  })();
  const until = (wanted: string) =>
    waitFor(
      () => {
        if (text.includes(wanted)) return true;
        if (proc.exitCode !== null) throw new Error(`no "${wanted}" in the output:\n${text}`);
        return false;
      },
      () => `"${wanted}" in the output:\n${text}`,
      WAIT_MS,
    );
  return {
    port,
    output: () => text,
    until,
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

describe("on a terminal", () => {
  test("serve --host 0.0.0.0 prints the banner: URL, docs, the curl line, every network address and a QR code of the first; then readable request lines", async () => {
    // The machine's addresses as the server starts, and again at the end: another test may add
    // one meanwhile (podman's bridge, 10.88.0.1, came up beside this one in npm test's services
    // stage), and the banner lists those of its start.
    const before = networkAddresses(networkInterfaces());
    const run = await serve({ tty: true, args: ["--host", "0.0.0.0"] });
    await run.until("Ctrl+C stops the server.");
    const local = `http://127.0.0.1:${run.port}`;
    expect((await fetch(`${local}/healthz`)).status).toBe(200);
    await run.until("/healthz");
    await run.stop();
    const text = stripAnsi(run.output());
    expect(text).toContain(`is serving ${local}`);
    expect(text).toContain(`API docs:   ${local}/docs`);
    expect(text).toContain(`curl -F file=@talk.pdf ${local}/api/present`);
    const after = networkAddresses(networkInterfaces());
    const steady = before.filter((a) => after.includes(a));
    if (before.length === 0 && after.length === 0) {
      expect(text).toContain("no network address found on this computer");
    } else {
      for (const address of steady) expect(text).toContain(`http://${address}:${run.port}/`);
      // The QR code is of the first address listed (the machine's first, when none came or went).
      const first = /On your network:\s+(http:\/\/\S+)/.exec(text)?.[1];
      expect(first).toBeDefined();
      if (before.join() === after.join()) expect(first).toBe(`http://${before[0]}:${run.port}/`);
      expect(drawsQrOf(qrLines(text), first!)).toBe(true);
    }
    expect(text).toMatch(new RegExp(`\\d\\d:\\d\\d:\\d\\d GET /healthz 200 [\\d.]+ ms [0-9a-f]{16}`));
    // Colour on a terminal, and no JSON lines.
    expect(run.output()).toContain("\x1b[1m");
    expect(text).not.toContain('{"time"');
  });

  test("--log-format json keeps JSON lines and no banner even on a terminal", async () => {
    const run = await serve({ tty: true, args: ["--log-format", "json"] });
    await run.until('"event":"listening"');
    await run.stop();
    const lines = run.output().split(/\r?\n/).filter((l) => l.trim() !== "");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(JSON.parse(line)).toHaveProperty("event");
    expect(run.output()).not.toContain("is serving");
  });
});

describe("without a terminal", () => {
  test("stdout is one JSON object per line, with no banner", async () => {
    const run = await serve({ tty: false });
    await run.until('"event":"listening"');
    expect((await fetch(`http://127.0.0.1:${run.port}/healthz`)).status).toBe(200);
    await run.until('"path":"/healthz"');
    await run.stop();
    const lines = run.output().trim().split("\n");
    const events = lines.map((l) => (JSON.parse(l) as { event: string }).event);
    expect(events).toContain("listening");
    expect(events).toContain("request");
    expect(run.output()).not.toContain("is serving");
  });

  test("DECKHAND_LOG_FORMAT=pretty forces the banner and readable lines, without colour codes", async () => {
    const run = await serve({ tty: false, env: { DECKHAND_LOG_FORMAT: "pretty" } });
    await run.until("Ctrl+C stops the server.");
    await run.stop();
    expect(run.output()).toContain(`is serving http://127.0.0.1:${run.port}`);
    expect(run.output()).not.toContain("\x1b[");
    expect(run.output()).not.toContain('{"time"');
  });
});
