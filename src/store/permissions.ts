/**
 * @module store/permissions
 * Files deckhand creates in its data directory — the database, staged decks, the lock — are
 * other people's talks and the hashes of access tokens: owner-only (files 0600, directories
 * 0700), whatever the umask deckhand was started with. The commands that write there call
 * this first; it sets the process's umask, so SQLite's own files (-wal, -shm) follow too.
 */
export function ownerOnlyFiles(): void {
  process.umask(0o077);
}
