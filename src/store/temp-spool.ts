/**
 * @module store/temp-spool
 * The local temporary files uploads are received into, whatever keeps the bytes afterwards:
 * `<dir>/<random>.tmp`, owner-only, tracked while in use so that a sweep removes only the
 * leftovers of a crashed run. Every wait on the disk (fsync, unlink, readdir) runs on Bun's
 * I/O threads, never on the event loop.
 */
import { randomBytes } from "../tools/random.ts";
import { fsync, mkdirSync } from "node:fs";
import { open, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { TempFile } from "../core/blobs.ts";

/**
 * Owner-only directories (files follow the process umask of 077, store/permissions): staged
 * decks are other people's talks.
 */
export const DIR_MODE = 0o700;

/**
 * fsync `path`: a file opened "r+" (Windows flushes only a handle opened for writing, EPERM
 * otherwise), a directory "r" (a directory cannot be opened for writing).
 */
async function syncFile(path: string, flags: "r+" | "r" = "r+"): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class TempSpool {
  private readonly live = new Set<string>();

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  }

  create(): TempFile {
    const path = join(this.dir, `${randomBytes(12).toString("base64url")}.tmp`);
    this.live.add(path);
    let synced: Promise<void> | null = null;
    return {
      path,
      sync: (fd) => {
        synced ??= fd === undefined ? syncFile(path) : new Promise<void>((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
        return synced;
      },
      discard: async () => {
        // Moved into place (released): nothing is left at the path to remove.
        if (!this.live.has(path)) return;
        // A sync through the writer's descriptor ends (and the writer closes it) first: a file
        // still open cannot be removed everywhere (Windows).
        await synced?.catch(() => {});
        await rm(path, { force: true });
        this.live.delete(path);
      },
    };
  }

  /** The temp file at `path` was moved away (renamed into place): no longer ours to sweep. */
  release(path: string): void {
    this.live.delete(path);
  }

  /**
   * Remove every temp file still in use: the store is closing, so the uploads writing them (cut
   * by a forced shutdown) can no longer finish, and their own discards may not run before the
   * process exits.
   */
  async discardAll(): Promise<void> {
    const paths = [...this.live];
    this.live.clear();
    await Promise.all(paths.map((path) => rm(path, { force: true })));
  }

  /** Remove `.tmp` files not in use by this process; returns how many. */
  async sweep(): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.dir)) {
      if (!name.endsWith(".tmp")) continue;
      const path = join(this.dir, name);
      if (this.live.has(path)) continue;
      await rm(path, { force: true });
      removed++;
    }
    return removed;
  }
}
