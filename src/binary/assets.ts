/**
 * @module binary/assets
 * The files the build embeds in the binary (the browser client, mupdf's WASM, the API docs'
 * script), listed by the module scripts/build-client.ts generates; and the bytes of those
 * embedded only gzip-compressed, inflated on first use and kept.
 */
import { join } from "node:path";
// Generated before start, test and build (scripts/build-client.ts); git-ignored.
// @ts-ignore -- absent in a fresh checkout until the client is built
import * as generated from "../http/client-assets.gen.ts";

export interface EmbeddedFile {
  /** Where the bytes are: a real path in development, a `$bunfs` path inside the binary. */
  path: string;
  contentType: string;
  bytes: number;
}

/** URL path → file; a file embedded only compressed is listed as its URL + ".gz". */
export const embeddedFiles: Record<string, EmbeddedFile> = (generated as unknown as { clientFiles?: Record<string, EmbeddedFile> }).clientFiles ?? {};
export const clientVersion: string = (generated as unknown as { clientVersion?: string }).clientVersion ?? "dev";

const inflated = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

/** The original bytes of a gzip-embedded file (inflating mupdf's WASM takes ~25 ms). */
export function inflate(file: EmbeddedFile): Promise<Uint8Array<ArrayBuffer>> {
  let bytes = inflated.get(file.path);
  if (!bytes) {
    bytes = Bun.file(file.path)
      .bytes()
      .then((gz) => Bun.gunzipSync(gz));
    inflated.set(file.path, bytes);
  }
  return bytes;
}

/**
 * mupdf's WASM for the server's own mupdf, as a stream (pdf/mupdf compiles it as it arrives):
 * the client's embedded copy inflated as it is read, so the binary carries it once (main.ts
 * hands it to pdf/mupdf). From source pdf/mupdf reads the package's file itself; the fallback
 * below only serves a client build that lists no WASM.
 */
export function mupdfWasmStream(): ReadableStream<Uint8Array> {
  const embedded = Object.entries(embeddedFiles).find(([url]) => url.endsWith("/mupdf-wasm.wasm.gz"))?.[1];
  if (embedded) return Bun.file(embedded.path).stream().pipeThrough(new DecompressionStream("gzip"));
  return Bun.file(join(import.meta.dir, "..", "..", "node_modules", "mupdf", "dist", "mupdf-wasm.wasm")).stream();
}
