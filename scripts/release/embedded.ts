/**
 * @module scripts/release/embedded
 * Prove that a binary carries what deckhand embeds, without running it (a macOS or Windows
 * binary cannot run here): every file of the client build (pages, bundles, service worker,
 * mupdf's WASM, the API docs), every served JSON Schema, and the stamped commit. Bun stores
 * embedded files uncompressed, so each file's bytes appear verbatim in the executable.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export interface Marker {
  what: string;
  bytes: Uint8Array;
}

/** Bytes searched per file: enough to be unique, small enough to search 30 files in a second. */
const SLICE = 4096;

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = join(dir, name);
      return statSync(full).isDirectory() ? filesUnder(full) : [full];
    });
}

/** A slice from the middle of a large file: headers (WASM, gzip) are alike across files. */
function sample(bytes: Uint8Array): Uint8Array {
  if (bytes.length <= SLICE) return bytes;
  const start = Math.floor((bytes.length - SLICE) / 2);
  return bytes.subarray(start, start + SLICE);
}

export function embeddedMarkers(root: string, commit: string): Marker[] {
  const markers: Marker[] = [];
  for (const dir of ["client-dist", "schemas"]) {
    for (const file of filesUnder(join(root, dir))) {
      markers.push({ what: relative(root, file), bytes: sample(readFileSync(file)) });
    }
  }
  markers.push({ what: `the commit ${commit}`, bytes: new TextEncoder().encode(JSON.stringify(commit)) });
  return markers;
}

/** The markers absent from the executable (an empty list means everything is inside). */
export function missingMarkers(executable: Uint8Array, markers: Marker[]): string[] {
  const haystack = Buffer.from(executable.buffer, executable.byteOffset, executable.byteLength);
  return markers.filter((m) => haystack.indexOf(m.bytes) < 0).map((m) => m.what);
}
