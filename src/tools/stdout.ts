/**
 * @module tools/stdout
 * The server's log output, written through Bun's own sink for fd 1 rather than
 * `process.stdout`: the first touch of `process.stdout` builds Node's stream classes, ~20 ms of
 * every start before the listener could answer (cold start: docs/performance.md). Lines keep their order;
 * each write is flushed at once, so a line is out by the time the next event happens.
 */
import type { FileSink } from "bun";
import { fstatSync, statSync } from "node:fs";

let sink: FileSink | undefined;

export function writeStdout(text: string): void {
  sink ??= Bun.stdout.writer();
  sink.write(text);
  void sink.flush();
}

/** Resolves once everything written is out (before the process exits). */
export async function stdoutFlushed(): Promise<void> {
  if (sink) await sink.flush();
}

/**
 * Whether stdout is a terminal. A pipe or a file (a service manager, a container, a test) is
 * told by one fstat; only a character device other than /dev/null asks node:tty, whose module
 * costs ~13 ms to load (that is, only a person at a terminal waits for it).
 */
export async function stdoutIsTerminal(): Promise<boolean> {
  try {
    const out = fstatSync(1);
    if (!out.isCharacterDevice()) return false;
    if (out.rdev === statSync("/dev/null").rdev) return false;
  } catch {
    // No fd 1, or no /dev/null (Windows): let node:tty say.
  }
  const { isatty } = await import("node:tty");
  return isatty(1);
}
