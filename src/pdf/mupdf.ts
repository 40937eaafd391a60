/**
 * @module pdf/mupdf
 * The only place that loads mupdf. Loading the WASM costs ~160 ms, so it happens on first
 * use, not at start-up. Inside a `bun build --compile` binary the WASM is not found next to
 * mupdf's JS, so the binary's entry (main.ts) hands over its bytes with `useMupdfWasm` (the
 * embedded copy the browser client also uses); from source they are the package's own file.
 * The WASM's source is passed in rather than imported so the PDF domain never imports the
 * embedded client bundle (assets.ts): a test or a worker from source needs no client build.
 */
import { join } from "node:path";

export type Mupdf = typeof import("mupdf");

/** From source: the package's own WASM, beside its JS in node_modules. */
const packageWasm = (): Promise<Uint8Array> => Bun.file(join(import.meta.dir, "..", "..", "node_modules", "mupdf", "dist", "mupdf-wasm.wasm")).bytes();

/**
 * Where the WASM's bytes come from; set by the binary's entry before mupdf first loads. Kept
 * on a global, not in this module: in the binary each command is a module graph of its own
 * (src/commands.ts), with its own copy of this module, and main.ts sets it for all of them.
 */
const WASM_SOURCE = Symbol.for("deckhand.mupdfWasmSource");
const wasmSource = (): (() => Promise<Uint8Array>) => ((globalThis as Record<symbol, unknown>)[WASM_SOURCE] as (() => Promise<Uint8Array>) | undefined) ?? packageWasm;

export function useMupdfWasm(source: () => Promise<Uint8Array>): void {
  (globalThis as Record<symbol, unknown>)[WASM_SOURCE] = source;
}

let loading: Promise<Mupdf> | undefined;

export function loadMupdf(): Promise<Mupdf> {
  loading ??= (async () => {
    // Compiled here rather than by mupdf's loader: handed `wasmBinary`, it copies all 10 MB
    // first (5–50 ms), and a compile error surfaces here instead of hanging its start-up.
    const module = await WebAssembly.compile(await wasmSource()());
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
