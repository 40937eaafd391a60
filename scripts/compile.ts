/**
 * @module scripts/compile
 * Compile one deckhand executable with `bun build --compile`: everything embedded (the client
 * bundle, mupdf's WASM, the JSON schemas, the API docs), the version and commit stamped in
 * with `define`, and no autoloading of .env / bunfig / tsconfig / package.json where it runs.
 * Used by scripts/build.ts (the host's binary) and scripts/release.ts (every platform).
 * Build the client first (scripts/build-client.ts): the binary embeds its output.
 */
import { join } from "node:path";
import { PROCESS_MODULES } from "../src/binary/commands.ts";
import { THREAD_MODULES } from "../src/binary/threads.ts";
import type { BuildInfo } from "./build-info.ts";

const root = join(import.meta.dir, "..");

export interface CompileOptions {
  outfile: string;
  /** A Bun cross-compile target such as "bun-darwin-arm64"; omitted = this machine's runtime. */
  target?: Bun.Build.CompileTarget;
  info: BuildInfo;
  /** Precompiled bytecode (default true); scripts/docs-figures.ts compiles without it to weigh it. */
  bytecode?: boolean;
}

export async function compile({ outfile, target, info, bytecode = true }: CompileOptions): Promise<void> {
  const result = await Bun.build({
    // Worker threads and each command are entrypoints of their own: `new Worker(url)` and
    // `import(url)` find them inside the binary only when they are listed here (src/binary/threads.ts,
    // src/binary/commands.ts).
    entrypoints: [join(root, "src", "main.ts"), ...[...PROCESS_MODULES, ...THREAD_MODULES].map((module) => join(root, "src", module))],
    // Paths in the binary are relative to src/, as those URLs are (left to itself the bundler
    // took the project's root once the commands' graphs were entrypoints too).
    root: join(root, "src"),
    target: "bun",
    format: "esm",
    // --minify is reported to break some compiled Elysia apps (its handler analysis reads
    // function source), and it would save ~1 MB of a ~120 MB binary: not worth the risk.
    minify: false,
    sourcemap: "none",
    // Precompiled bytecode halves cold start (parsing the bundle dominated it); needs ESM here
    // because mupdf uses top-level await. It costs ~5 MB per binary (measured: docs/development/release.md).
    bytecode,
    define: {
      DECKHAND_VERSION: JSON.stringify(info.version),
      DECKHAND_COMMIT: JSON.stringify(info.commit),
      // True inside a compiled binary, for code that must know it (e.g. to start itself again).
      DECKHAND_COMPILED: "true",
    },
    compile: {
      outfile,
      ...(target ? { target } : {}),
      // What Windows shows in the file's Properties (and SmartScreen's "Publisher" line stays
      // "Unknown publisher": that needs an Authenticode signature, see docs/operating/install.md).
      ...(target?.startsWith("bun-windows")
        ? { windows: { title: "deckhand", description: "deckhand: hand a PDF deck to a browser and present it offline", version: `${info.version}.0`, publisher: "deckhand", copyright: "AGPL-3.0-or-later" } }
        : {}),
      autoloadDotenv: false,
      autoloadBunfig: false,
      autoloadTsconfig: false,
      autoloadPackageJson: false,
    },
  });
  if (!result.success) {
    throw new AggregateError(result.logs, `bun build --compile${target ? ` --target=${target}` : ""} failed`);
  }
}
