/**
 * @module pdf/mupdf
 * The only place that loads mupdf. Loading the WASM costs ~300 ms (compiling ~250, then
 * instantiating it), so it happens on first use, not at start-up. Inside a `bun build
 * --compile` binary the WASM is not found next to mupdf's JS, so the binary's entry (main.ts)
 * hands over a stream of it with `useMupdfWasm` (the embedded gzip copy the browser client
 * also uses, inflated as it is read); from source it is the package's own file. The WASM's
 * source is passed in rather than imported so the PDF domain never imports the embedded
 * client bundle (binary/assets.ts): a test or a worker from source needs no client build.
 *
 * The WASM is compiled as it streams in (`WebAssembly.compileStreaming`), so compiling
 * overlaps reading and inflating it rather than waiting for all 10 MB (figures in
 * docs/performance.md). It costs more CPU in all (70–100 ms per process, measured: streamed
 * zlib and compile against `Bun.gunzipSync` and one compile), so it gains only while a core is
 * free, as it mostly is where a command or a new PDF worker runs. The compiled module is kept
 * on a global, so main.ts can start the compile before a command's module graph (with its own
 * copy of this module) has loaded: `compileMupdfWasm`.
 */
import { join } from "node:path";

export type Mupdf = typeof import("mupdf");

/** From source: the package's own WASM, beside its JS in node_modules. */
const packageWasm = (): ReadableStream<Uint8Array> => Bun.file(join(import.meta.dir, "..", "..", "node_modules", "mupdf", "dist", "mupdf-wasm.wasm")).stream();

/** Where the WASM comes from: a stream of its bytes, opened once when it is compiled. */
export type MupdfWasmSource = () => ReadableStream<Uint8Array>;

/**
 * Where the WASM comes from, and its compiled module once asked for; set by the binary's entry
 * before mupdf first loads. Kept on globals, not in this module: in the binary each command is
 * a module graph of its own (src/binary/commands.ts), with its own copy of this module, and main.ts
 * sets the source for all of them (and may start the compile before the command loads).
 */
const WASM_SOURCE = Symbol.for("deckhand.mupdfWasmSource");
const WASM_MODULE = Symbol.for("deckhand.mupdfWasmModule");
const globals = globalThis as Record<symbol, unknown>;

export function useMupdfWasm(source: MupdfWasmSource): void {
  globals[WASM_SOURCE] = source;
}

/**
 * mupdf's WASM compiled, once per process: every copy of this module gets the same promise.
 * A compile error (or a broken source) rejects it, rather than hanging mupdf's start-up.
 */
export function compileMupdfWasm(): Promise<WebAssembly.Module> {
  let module = globals[WASM_MODULE] as Promise<WebAssembly.Module> | undefined;
  if (!module) {
    const source = (globals[WASM_SOURCE] as MupdfWasmSource | undefined) ?? packageWasm;
    // A promise, so a source that throws rejects too; compileStreaming wants the WASM's type.
    module = Promise.resolve().then(() => WebAssembly.compileStreaming(new Response(source(), { headers: { "Content-Type": "application/wasm" } })));
    // Bun keeps the process alive for a pending `WebAssembly.compile` but not for a pending
    // `compileStreaming` once its stream is read (oven-sh/bun#25145, JSC's ticket is not
    // "imminent"): `deckhand check` then exited 0 with nothing printed, 1 run in 10-30. A
    // timer holds the event loop until the compile settles.
    const keepAlive = setInterval(() => {}, 60_000);
    module.then(
      () => clearInterval(keepAlive),
      () => clearInterval(keepAlive),
    );
    globals[WASM_MODULE] = module;
  }
  return module;
}

let loading: Promise<Mupdf> | undefined;

export function loadMupdf(): Promise<Mupdf> {
  loading ??= (async () => {
    // Compiled here rather than by mupdf's loader: handed `wasmBinary`, it copies all 10 MB
    // first (5–50 ms), and a compile error surfaces here instead of hanging its start-up.
    const module = await compileMupdfWasm();
    (globalThis as Record<string, unknown>).$libmupdf_wasm_Module = {
      instantiateWasm: (imports: ConstructorParameters<typeof WebAssembly.Instance>[1], receive: (instance: WebAssembly.Instance) => void) => {
        receive(new WebAssembly.Instance(module, imports));
        return {};
      },
    };
    const mupdf = await import("mupdf");
    // mupdf prints repair warnings for hostile input; the checker reports problems itself.
    mupdf.setLog(null);
    return mupdf;
  })();
  return loading;
}
