/**
 * @module threads
 * Worker threads of the server: modules started with `new Worker(url)`, never imported. The
 * compiled binary carries each as an entrypoint of its own (scripts/compile.ts lists these),
 * placed under its path from src/ beside the bundled entrypoint; this module sits at src/'s
 * root, so one relative URL finds a thread's module in the binary and in the source tree alike.
 */

/** Every thread module, relative to src/. */
export const THREAD_MODULES = ["upload/digest-worker.ts", "store/checkpoint-worker.ts"] as const;

export type ThreadModule = (typeof THREAD_MODULES)[number];

/**
 * Start the thread of `module`. It does not keep the process alive (an idle helper must not
 * hold up an exit); `smol` keeps its heap small: these threads hold little.
 */
export function startThread(module: ThreadModule): Worker {
  return new Worker(new URL(`./${module}`, import.meta.url).href, { ref: false, smol: true } as WorkerOptions);
}
