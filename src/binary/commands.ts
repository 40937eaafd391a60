/**
 * @module binary/commands
 * deckhand's commands, each an entrypoint of its own in the compiled binary (scripts/compile.ts
 * lists them), loaded by URL when it runs. A start then loads and evaluates only the code of
 * the command it runs: the server never loads mupdf's JS, the PDF readers or the other
 * commands, and a PDF worker never loads the web app. Loading a bundle costs time by its size
 * even for modules it never evaluates (~14 ms per MB of JS measured here; docs/performance.md),
 * so lazy `import()` inside one bundle was not enough. Modules are found as threads are
 * (`entrypointUrl`, src/binary/threads.ts), in the binary and in the source tree alike.
 *
 * Each command's module is a module graph of its own: state and classes are not shared with
 * main.ts's (main tells errors by `name`, never `instanceof`), and mupdf's WASM source is
 * handed over through pdf/mupdf's global (useMupdfWasm).
 */

import { WORKER_COMMAND } from "../pdf/worker/protocol.ts";
import { entrypointUrl } from "./threads.ts";

interface CommandEntry {
  /** The module, relative to src/. */
  module: string;
  /** Its export that runs the command with the arguments after the command's name. */
  run: string;
  /** Its export holding `deckhand COMMAND --help`'s text (serve's is the main help). */
  usage?: string;
}

export const COMMANDS = {
  serve: { module: "cli/serve.ts", run: "runServeCommand" },
  present: { module: "cli/present.ts", run: "runPresentCommand", usage: "PRESENT_USAGE" },
  check: { module: "cli/check.ts", run: "runCheckCommand", usage: "CHECK_USAGE" },
  token: { module: "cli/token.ts", run: "runTokenCommand", usage: "TOKEN_USAGE" },
  mcp: { module: "cli/mcp.ts", run: "runMcpCommand", usage: "MCP_USAGE" },
  healthcheck: { module: "cli/healthcheck.ts", run: "runHealthcheckCommand", usage: "HEALTHCHECK_USAGE" },
} as const satisfies Record<string, CommandEntry>;

export type CommandName = keyof typeof COMMANDS;

/** The PDF worker process's module: the binary runs it as `deckhand __pdf-worker` (pdf/worker/pool). */
const WORKER_MODULE = "pdf/worker/main.ts";

/** Every module a process starts from besides main.ts, relative to src/ (the binary's extra entrypoints). */
export const PROCESS_MODULES: readonly string[] = [...Object.values(COMMANDS).map((c) => c.module), WORKER_MODULE];

const importModule = async (module: string) => (await import(entrypointUrl(module).href)) as Record<string, unknown>;

export function isCommand(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}

export interface LoadedCommand {
  run: (args: string[]) => Promise<number>;
  usage: string | undefined;
}

/** Load `name`'s module (its whole graph) and return its entry and help text. */
export async function loadCommand(name: CommandName): Promise<LoadedCommand> {
  const entry: CommandEntry = COMMANDS[name];
  const module = await importModule(entry.module);
  const run = module[entry.run];
  if (typeof run !== "function") throw new Error(`${entry.module} has no ${entry.run}()`);
  return { run: run as LoadedCommand["run"], usage: entry.usage === undefined ? undefined : String(module[entry.usage]) };
}

/** Whether this process was started as a PDF worker. */
export const isWorkerProcess = (argv: readonly string[]): boolean => argv[2] === WORKER_COMMAND;

/** Run this process as a PDF worker: it answers the pool's jobs until the pool disconnects. */
export async function runWorkerProcess(): Promise<void> {
  const module = await importModule(WORKER_MODULE);
  await (module.runPdfWorker as () => Promise<void>)();
}
