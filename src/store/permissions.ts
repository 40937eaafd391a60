/**
 * @module store/permissions
 * Files deckhand creates in its data directory — the database, staged decks, the lock — are
 * other people's talks and the hashes of access tokens: owner-only (files 0600, directories
 * 0700), whatever the umask deckhand was started with. The commands that write there call
 * this first; it sets the process's umask, so SQLite's own files (-wal, -shm) follow too.
 */
import { chmodSync, statSync } from "node:fs";

export function ownerOnlyFiles(): void {
  process.umask(0o077);
}

/**
 * A data directory that already existed keeps the mode it was made with (0755 by a plain
 * `mkdir`), letting every local user read other people's talks: tighten it to owner-only at
 * start-up. When that is not allowed (another owner), say so in the log rather than fail.
 * Returns the mode it had when it was tightened, or null when there was nothing to do.
 */
export function tightenDataDir(dir: string, warn: (event: string, fields: Record<string, unknown>) => void): number | null {
  const mode = statSync(dir).mode & 0o777;
  if ((mode & 0o077) === 0) return null;
  try {
    chmodSync(dir, 0o700);
    warn("data_dir_tightened", { from: `0${mode.toString(8)}`, to: "0700" });
  } catch (error) {
    warn("data_dir_open", { mode: `0${mode.toString(8)}`, reason: (error as { code?: string }).code ?? "chmod failed", hint: "chmod 700 the data directory: other local users can read it" });
  }
  return mode;
}
