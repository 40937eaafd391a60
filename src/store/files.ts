/**
 * @module store/files
 * Staged PDFs on the local filesystem: `<dataDir>/staged/<id>.pdf`, written through
 * `<dataDir>/staged/<random>.tmp` and renamed into place once complete and validated.
 * An interface, so that a deployment can later keep the bytes in object storage.
 */
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

export interface TempFile {
  readonly path: string;
  /** Delete the temporary file (idempotent). */
  discard(): void;
}

export interface BlobStore {
  /** A new, reserved temporary file path; the sweeper leaves it alone until discarded/committed. */
  createTemp(): TempFile;
  /** Durably move a finished temp file into place as the bytes of `id`. */
  commit(temp: TempFile, id: string): void;
  /** Local path of the staged bytes of `id` (may not exist). */
  pathOf(id: string): string;
  exists(id: string): boolean;
  remove(id: string): boolean;
  /** Ids that have staged bytes. */
  listIds(): string[];
  /** Remove temp files not in use by this process; returns how many. */
  sweepTemps(): number;
}

const ID_FILE = /^([A-Za-z0-9_-]{1,64})\.pdf$/;

export class LocalBlobStore implements BlobStore {
  readonly dir: string;
  private readonly liveTemps = new Set<string>();

  constructor(dataDir: string) {
    this.dir = join(dataDir, "staged");
    mkdirSync(this.dir, { recursive: true });
  }

  createTemp(): TempFile {
    const path = join(this.dir, `${randomBytes(12).toString("base64url")}.tmp`);
    this.liveTemps.add(path);
    return {
      path,
      discard: () => {
        this.liveTemps.delete(path);
        rmSync(path, { force: true });
      },
    };
  }

  commit(temp: TempFile, id: string): void {
    // fsync before rename: after a power cut the name never points at missing bytes.
    // "r+": Windows flushes only a handle opened for writing (EPERM otherwise).
    const fd = openSync(temp.path, "r+");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp.path, this.pathOf(id));
    this.liveTemps.delete(temp.path);
    // The rename itself is durable only once the directory is synced. Windows cannot flush a
    // directory (EPERM); NTFS journals the rename itself.
    if (process.platform === "win32") return;
    const dirFd = openSync(this.dir, "r");
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  }

  pathOf(id: string): string {
    return join(this.dir, `${id}.pdf`);
  }

  exists(id: string): boolean {
    try {
      return statSync(this.pathOf(id)).isFile();
    } catch {
      return false;
    }
  }

  remove(id: string): boolean {
    const existed = this.exists(id);
    rmSync(this.pathOf(id), { force: true });
    return existed;
  }

  listIds(): string[] {
    return readdirSync(this.dir).flatMap((name) => {
      const match = ID_FILE.exec(name);
      return match ? [match[1]!] : [];
    });
  }

  sweepTemps(): number {
    let removed = 0;
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith(".tmp")) continue;
      const path = join(this.dir, name);
      if (this.liveTemps.has(path)) continue;
      rmSync(path, { force: true });
      removed++;
    }
    return removed;
  }
}
