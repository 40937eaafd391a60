/**
 * @module store/files
 * Staged PDFs on the local filesystem (the embedded default): `<dataDir>/staged/<id>.pdf`,
 * written through `<dataDir>/staged/<random>.tmp` and renamed into place once complete and
 * validated. The data-dir lock makes this process the only writer, so the `committing` set
 * is all the sweeper needs to leave an upload between its rename and its row alone.
 *
 * Every call that waits on the disk (fsync, rename, unlink, readdir, stat) is asynchronous:
 * it runs on Bun's I/O threads, never on the event loop that serves requests. Files and the
 * directory are created owner-only (0600 / 0700): staged decks are other people's talks.
 */
import { open, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { BlobStore, ByteRange, OpenedBlob, TempFile } from "../core/blobs.ts";
import { DirectorySync } from "./directory-sync.ts";
import { TempSpool } from "./temp-spool.ts";

export { DIR_MODE } from "./temp-spool.ts";

const ID_FILE = /^([A-Za-z0-9_-]{1,64})\.pdf$/;

export class LocalBlobStore implements BlobStore {
  readonly dir: string;
  /** Temps live beside the decks: the commit is a rename within one file system. */
  private readonly spool: TempSpool;
  private readonly committing = new Set<string>();
  /** Renames into `dir` become durable through this (shared by concurrent commits). */
  private readonly dirSync: DirectorySync;

  constructor(dataDir: string) {
    this.dir = join(dataDir, "staged");
    this.spool = new TempSpool(this.dir);
    this.dirSync = new DirectorySync(this.dir);
  }

  createTemp(): TempFile {
    return this.spool.create();
  }

  async commit(temp: TempFile, id: string): Promise<void> {
    this.committing.add(id);
    try {
      // fsync before rename: after a power cut the name never points at missing bytes.
      await temp.sync();
      await rename(temp.path, this.pathOf(id));
      this.spool.release(temp.path);
      // The rename itself is durable only once the directory is synced (one sync serves the
      // concurrent commits). Windows cannot flush a directory (EPERM); NTFS journals the rename.
      if (process.platform !== "win32") await this.dirSync.sync();
    } catch (error) {
      this.committing.delete(id);
      throw error;
    }
  }

  settle(id: string): void {
    this.committing.delete(id);
  }

  private pathOf(id: string): string {
    return join(this.dir, `${id}.pdf`);
  }

  async open(id: string, range?: ByteRange): Promise<OpenedBlob | null> {
    try {
      if (!(await stat(this.pathOf(id))).isFile()) return null;
    } catch {
      return null;
    }
    // Bun opens the file when it starts the response and sends it without copying it through
    // JavaScript; from then on the bytes stay readable even if a claim unlinks the name. A
    // claim landing between this stat and that open reaches the server's error hook: a 500
    // problem, never a truncated body.
    const file = Bun.file(this.pathOf(id));
    return { body: range ? file.slice(range.start, range.end + 1) : file };
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

  sweepTemps(): Promise<number> {
    return this.spool.sweep();
  }

  async close(): Promise<void> {
    await this.spool.discardAll();
    await this.dirSync.close();
  }
}
