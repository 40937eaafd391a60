/**
 * src/binary/commands.ts: every command's module is loaded by URL (an entrypoint of its own in the
 * binary; docs/performance.md) and has the export the table names; the binary's extra entrypoints are
 * exactly those modules and the threads. test/binary.test.ts runs them in the compiled binary.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { COMMANDS, isCommand, loadCommand, PROCESS_MODULES, type CommandName } from "../src/binary/commands.ts";
import { THREAD_MODULES } from "../src/binary/threads.ts";

// The timeout of each test and hook here: its slowest test imports every command's module (0.4 s
// on the quiet machine, over 5 s in the services stage, yielding beside the browser lanes): 60 s.
setDefaultTimeout(60_000);

describe("commands", () => {
  test("each command loads from its own module with a runner and, but for serve, its help", async () => {
    for (const name of Object.keys(COMMANDS) as CommandName[]) {
      const loaded = await loadCommand(name);
      expect(typeof loaded.run).toBe("function");
      if (name === "serve") expect(loaded.usage).toBeUndefined();
      else expect(loaded.usage).toContain(`deckhand ${name}`);
    }
  });

  test("only the commands are commands: the worker's hidden one and prototype names are not", () => {
    expect(isCommand("check")).toBe(true);
    for (const name of ["__pdf-worker", "toString", "constructor", "__proto__", ""]) expect(isCommand(name)).toBe(false);
  });

  test("the binary's extra entrypoints: each command, the PDF worker, and the threads, none twice", async () => {
    const compile = await Bun.file(new URL("../scripts/compile.ts", import.meta.url)).text();
    expect(compile).toContain("...[...PROCESS_MODULES, ...THREAD_MODULES]");
    const all = [...PROCESS_MODULES, ...THREAD_MODULES];
    expect(new Set(all).size).toBe(all.length);
    expect(PROCESS_MODULES).toContain("pdf/worker/main.ts");
    for (const module of all) expect(await Bun.file(new URL(`../src/${module}`, import.meta.url)).exists()).toBe(true);
  });
});
