/**
 * @module binary/threads
 * Worker threads of the server: modules started with `new Worker(url)`, never imported. The
 * compiled binary carries each as an entrypoint of its own (scripts/compile.ts lists these),
 * placed under its path from src/ beside the bundled entrypoint; from source, this module sits
 * one folder below src/'s root (binary/), so `../` + that path finds a thread's module.
 */

import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/** Defined true by scripts/compile.ts inside the binary. */
declare const DECKHAND_COMPILED: boolean | undefined;
const compiled = typeof DECKHAND_COMPILED === "boolean" && DECKHAND_COMPILED;

/**
 * The URL of an entrypoint module given by its path from src/. In the binary every entrypoint
 * sits beside the main one (scripts/compile.ts roots them at src/), as .js; a bundled module's
 * own import.meta.url is its bundle's (cli/serve.js for the server's code), so the base is the
 * main entry's directory. From source, the file itself (src/ is this module's parent folder).
 */
export function entrypointUrl(module: string): URL {
  if (compiled) return pathToFileURL(join(dirname(Bun.main), module.replace(/\.ts$/, ".js")));
  return new URL(`../${module}`, import.meta.url);
}

/** Every thread module, relative to src/. */
export const THREAD_MODULES = ["upload/digest-worker.ts", "store/checkpoint-worker.ts"] as const;

export type ThreadModule = (typeof THREAD_MODULES)[number];

/**
 * Start the thread of `module`. It does not keep the process alive (an idle helper must not
 * hold up an exit); `smol` keeps its heap small: these threads hold little.
 */
export function startThread(module: ThreadModule): Worker {
  return new Worker(entrypointUrl(module).href, { ref: false, smol: true } as WorkerOptions);
}
