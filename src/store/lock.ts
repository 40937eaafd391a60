/**
 * @module store/lock
 * One server per data directory. Two servers on one directory would each sweep the other's
 * in-flight uploads and split the quota and rate limits, so `serve` takes this lock: a file
 * holding the owner's pid, taken over when that process is gone (after a crash).
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { processAlive } from "../base/process-alive.ts";

export const LOCK_FILE = "deckhand.lock";

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
}

/** Is `pid` a live deckhand? (A recycled pid of another program does not hold the lock.) */
function isLiveDeckhand(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  if (!processAlive(pid)) return false;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return /deckhand|main\.ts/.test(cmdline);
  } catch {
    return true; // no /proc: trust the signal check
  }
}

export interface DataDirLock {
  release(): void;
}

export function lockDataDir(dataDir: string): DataDirLock {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      return {
        release: () => {
          // Only our own lock: never remove one a successor took over.
          if (readOwner(path) === process.pid) rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
      const owner = readOwner(path);
      if (owner !== null && isLiveDeckhand(owner)) {
        throw new DataDirLockedError(
          `Another deckhand (pid ${owner}) is serving ${dataDir}. Stop it, or give this one its own --data-dir.`,
        );
      }
      // Left by a process that is gone: take it over.
      rmSync(path, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock ${dataDir}: another deckhand is starting on it at the same moment.`);
}

function readOwner(path: string): number | null {
  try {
    return Number.parseInt(readFileSync(path, "utf8"), 10);
  } catch {
    return null;
  }
}
