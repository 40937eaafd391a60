/**
 * @module live/socket-cap
 * How many live sockets this instance holds at most, below its file-descriptor limit: every
 * socket is a descriptor, and a process out of descriptors cannot accept an upload, open a
 * deck file or reach its database (`/healthz` hangs, the sweeper logs EMFILE). The limit is
 * read from /proc/self/limits (Linux: Bun raises the soft limit to the hard one at start);
 * elsewhere --max-live-sockets decides, with a default that fits the usual 1,024.
 */
import { readFileSync } from "node:fs";

/** Descriptors kept for everything that is not a live socket: 64 uploads and their temp files, deck files, PDF workers, the database, logs, and the plain HTTP connections. */
export const FD_HEADROOM = 512;
/** Without a readable limit: safe under the common soft limit of 1,024 with the headroom above. */
export const FALLBACK_MAX_LIVE_SOCKETS = 512;

/** The process's soft RLIMIT_NOFILE, or null where it cannot be read. */
export function descriptorLimit(read: () => string = () => readFileSync("/proc/self/limits", "utf8")): number | null {
  try {
    const line = read()
      .split("\n")
      .find((l) => l.startsWith("Max open files"));
    const soft = line?.slice("Max open files".length).trim().split(/\s+/)[0];
    if (!soft || soft === "unlimited") return soft === "unlimited" ? Number.MAX_SAFE_INTEGER : null;
    const value = Number(soft);
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

/**
 * The default cap: three quarters of the limit and at least FD_HEADROOM below it (the rest is
 * for uploads, files and the database), never under 64 (a small talk still works).
 */
export function defaultMaxLiveSockets(limit: number | null = descriptorLimit()): number {
  if (limit === null) return FALLBACK_MAX_LIVE_SOCKETS;
  return Math.max(64, Math.min(Math.floor(limit * 0.75), limit - FD_HEADROOM, 1_000_000));
}
