/**
 * @module store/files
 * Staged PDFs on the local filesystem: `<dataDir>/staged/<id>.pdf`, written through
 * `<dataDir>/staged/<random>.tmp` and renamed into place once complete and validated.
 * An interface, so that a deployment can later keep the bytes in object storage.
 *
 * Every call that waits on the disk (fsync, rename, unlink, readdir) is asynchronous: it runs
 * on Bun's I/O threads, never on the event loop that serves requests. Files and the
 * directory are created owner-only (0600 / 0700): staged decks are other people's talks.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { open, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";

export interface TempFile {
  readonly path: string;
  /**
   * Make the bytes written so far durable (fsync; idempotent). `commit` does it anyway; a
   * caller may start it earlier, e.g. while the PDF is being validated.
   */
  sync(): Promise<void>;
  /** Delete the temporary file (idempotent). */
  discard(): Promise<void>;
}

/** A temporary file that will never be kept (a check's input): no durability needed. */
export type ScratchFile = Pick<TempFile, "path" | "discard">;

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

export interface BlobStore {
  /** A new, reserved temporary file path; the sweeper leaves it alone until discarded/committed. */
  createTemp(): TempFile;
  /**
   * Durably move a finished temp file into place as the bytes of `id`. Until `settle(id)` is
   * called, the sweeper treats `id` as in use even though it has no row yet.
   */
  commit(temp: TempFile, id: string): Promise<void>;
  /** The row of `id` is written (or will never be): the sweeper may judge it again. */
  settle(id: string): void;
  /** Local path of the staged bytes of `id` (may not exist). */
  pathOf(id: string): string;
  exists(id: string): Promise<boolean>;
  remove(id: string): Promise<boolean>;
  /** Ids that have staged bytes and are not being committed. */
  listIds(): Promise<string[]>;
  /** Remove temp files not in use by this process; returns how many. */
  sweepTemps(): Promise<number>;
}

const ID_FILE = /^([A-Za-z0-9_-]{1,64})\.pdf$/;
/** Owner-only: read and write for the server's user, nothing for anyone else. */
export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

export class LocalBlobStore implements BlobStore {
  readonly dir: string;
  private readonly liveTemps = new Set<string>();
  private readonly committing = new Set<string>();

  constructor(dataDir: string) {
    this.dir = join(dataDir, "staged");
    mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
  }

  createTemp(): TempFile {
    const path = join(this.dir, `${randomBytes(12).toString("base64url")}.tmp`);
    this.liveTemps.add(path);
    let synced: Promise<void> | null = null;
    return {
      path,
      sync: () => {
        synced ??= syncFile(path);
        return synced;
      },
      discard: async () => {
        await rm(path, { force: true });
        this.liveTemps.delete(path);
      },
    };
  }

  async commit(temp: TempFile, id: string): Promise<void> {
    this.committing.add(id);
    try {
      // fsync before rename: after a power cut the name never points at missing bytes.
      await temp.sync();
      await rename(temp.path, this.pathOf(id));
      this.liveTemps.delete(temp.path);
      // The rename itself is durable only once the directory is synced. (Concurrent fsyncs of
      // one directory are merged by the file system's journal: no grouping needed here.)
      // Windows cannot flush a directory (EPERM); NTFS journals the rename itself.
      if (process.platform !== "win32") await syncFile(this.dir, "r");
    } catch (error) {
      this.committing.delete(id);
      throw error;
    }
  }

  settle(id: string): void {
    this.committing.delete(id);
  }

  pathOf(id: string): string {
    return join(this.dir, `${id}.pdf`);
  }

  async exists(id: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(id))).isFile();
    } catch {
      return false;
    }
  }

  async remove(id: string): Promise<boolean> {
    try {
      await rm(this.pathOf(id));
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT") return false;
      throw error;
    }
  }

  async listIds(): Promise<string[]> {
    return (await readdir(this.dir)).flatMap((name) => {
      const match = ID_FILE.exec(name);
      return match && !this.committing.has(match[1]!) ? [match[1]!] : [];
    });
  }

  async sweepTemps(): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.dir)) {
      if (!name.endsWith(".tmp")) continue;
      const path = join(this.dir, name);
      if (this.liveTemps.has(path)) continue;
      await rm(path, { force: true });
      removed++;
    }
    return removed;
  }
}
