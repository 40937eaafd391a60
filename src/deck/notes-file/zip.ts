/**
 * @module deck/notes-file/zip
 * Read a few named entries of an untrusted zip archive (a .pptx) with fflate's streaming
 * `Unzip`, bounded everywhere: the archive is pushed in small slices so that one step can
 * inflate at most a few MiB, every entry is counted as it inflates and stopped at its cap (and
 * at a ratio to its compressed size, so a bomb is stopped early), the total is capped, and the
 * number of entries is capped before anything is inflated. Entries nobody asked for are never
 * inflated. Browser-safe.
 */
import { Unzip, UnzipInflate, unzipSync, type UnzipFile } from "fflate";

export interface ZipLimits {
  /** Decoded bytes per wanted entry. */
  maxEntryBytes: number;
  /** Decoded bytes of all wanted entries together. */
  maxTotalBytes: number;
  /** Entries in the archive (wanted or not). */
  maxEntries: number;
  /** Decoded/compressed ratio past which an entry is a bomb (above a floor of 1 MiB). */
  maxRatio: number;
}

export type ZipFailure =
  | { kind: "invalid"; detail: string }
  | { kind: "bomb"; entry: string }
  | { kind: "entry-too-large"; entry: string }
  | { kind: "too-many-entries"; count: number }
  | { kind: "counted-out"; what: string; count: number };

export interface ZipRead {
  entries: Map<string, Uint8Array>;
  /** Every entry name seen, in archive order (until a failure stopped the read). */
  names: string[];
  failure: ZipFailure | null;
}

/**
 * Input slice pushed per step: deflate expands at most ~1032×, so one step inflates at most
 * ~16 MiB before the per-entry counter can stop it.
 */
const PUSH_SLICE = 16 * 1024;
const RATIO_FLOOR = 1024 * 1024;

class Abort extends Error {
  constructor(readonly failure: ZipFailure) {
    super(failure.kind);
  }
}

/**
 * The archive's entry names from its central directory, nothing inflated (fflate's `unzipSync`
 * with a filter that takes nothing): refuses a damaged or truncated archive, and lets `count`
 * refuse one by its names alone.
 */
export function zipCensus(bytes: Uint8Array, limits: ZipLimits, count?: (name: string) => ZipFailure | null): { names: string[]; failure: ZipFailure | null } {
  const names: string[] = [];
  try {
    unzipSync(bytes, {
      filter: (file) => {
        names.push(file.name);
        if (names.length > limits.maxEntries) throw new Abort({ kind: "too-many-entries", count: names.length });
        const counted = count?.(file.name);
        if (counted) throw new Abort(counted);
        return false;
      },
    });
  } catch (error) {
    return { names, failure: error instanceof Abort ? error.failure : { kind: "invalid", detail: error instanceof Error ? error.message : String(error) } };
  }
  return { names, failure: null };
}

/**
 * Read the entries `want` accepts. `count` may stop the read early by returning a failure for
 * what the names alone show (e.g. too many slides), before anything is inflated.
 */
export function readZip(bytes: Uint8Array, want: (name: string) => boolean, limits: ZipLimits, count?: (name: string) => ZipFailure | null): ZipRead {
  const entries = new Map<string, Uint8Array>();
  const names: string[] = [];
  let total = 0;
  let failure: ZipFailure | null = null;
  const started: string[] = [];
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  unzip.onfile = (file: UnzipFile) => {
    names.push(file.name);
    if (names.length > limits.maxEntries) throw new Abort({ kind: "too-many-entries", count: names.length });
    const counted = count?.(file.name);
    if (counted) throw new Abort(counted);
    if (!want(file.name) || entries.has(file.name)) return;
    if (file.compression !== 0 && file.compression !== 8) throw new Abort({ kind: "invalid", detail: `${file.name} uses compression method ${file.compression}` });
    const compressed = file.size ?? 0;
    // What the headers declare is checked first (nothing inflated); what really inflates, after.
    if (file.originalSize !== undefined && file.originalSize > Math.max(RATIO_FLOOR, compressed * limits.maxRatio)) throw new Abort({ kind: "bomb", entry: file.name });
    if (file.originalSize !== undefined && file.originalSize > limits.maxEntryBytes) throw new Abort({ kind: "entry-too-large", entry: file.name });
    const parts: Uint8Array[] = [];
    let size = 0;
    file.ondata = (error, data, final) => {
      if (error) throw new Abort({ kind: "invalid", detail: `${file.name}: ${error.message}` });
      size += data.length;
      total += data.length;
      if (size > Math.max(RATIO_FLOOR, compressed * limits.maxRatio) || total > limits.maxTotalBytes) throw new Abort({ kind: "bomb", entry: file.name });
      if (size > limits.maxEntryBytes) throw new Abort({ kind: "entry-too-large", entry: file.name });
      parts.push(data.slice());
      if (final) {
        const out = new Uint8Array(size);
        let offset = 0;
        for (const part of parts) {
          out.set(part, offset);
          offset += part.length;
        }
        entries.set(file.name, out);
      }
    };
    started.push(file.name);
    file.start();
  };
  try {
    for (let offset = 0; offset < bytes.length; offset += PUSH_SLICE) {
      const end = Math.min(bytes.length, offset + PUSH_SLICE);
      unzip.push(bytes.subarray(offset, end), end === bytes.length);
    }
    if (bytes.length === 0) unzip.push(new Uint8Array(0), true);
    const unfinished = started.find((name) => !entries.has(name));
    if (unfinished !== undefined) failure = { kind: "invalid", detail: `${unfinished} is cut short` };
  } catch (error) {
    failure = error instanceof Abort ? error.failure : { kind: "invalid", detail: error instanceof Error ? error.message : String(error) };
  }
  return { entries, names, failure };
}
