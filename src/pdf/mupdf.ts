/**
 * @module pdf/mupdf
 * The only place that loads mupdf. Loading the WASM costs ~160 ms, so it happens on first
 * use, not at start-up. Inside a `bun build --compile` binary the WASM is not found next to
 * mupdf's JS, so we hand mupdf its bytes (the embedded copy the browser client also uses).
 */
import { mupdfWasmBinary } from "../assets.ts";

export type Mupdf = typeof import("mupdf");

let loading: Promise<Mupdf> | undefined;

export function loadMupdf(): Promise<Mupdf> {
  loading ??= (async () => {
    (globalThis as Record<string, unknown>).$libmupdf_wasm_Module = { wasmBinary: await mupdfWasmBinary() };
    const mupdf = await import("mupdf");
    // mupdf prints repair warnings for hostile input; the checker reports problems itself.
    mupdf.setLog(null);
    // Compiling the 10 MB WASM leaves ~20 MB of garbage that JSC keeps for a long time;
    // collect it once so the server's resident set settles at its real size.
    Bun.gc(true);
    return mupdf;
  })();
  return loading;
}
