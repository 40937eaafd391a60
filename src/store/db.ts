/**
 * @module store/db
 * The SQLite database: WAL mode, the numbered schema changes of src/store/migrations/sqlite/
 * (one numbering with PostgreSQL's: store/migrations/steps) tracked in `PRAGMA user_version`.
 */
import { Database } from "bun:sqlite";
import { SQLITE_MIGRATIONS, SQLITE_OLD_VERSIONS } from "./migrations/sqlite.ts";
import { hasStatements, renumbered } from "./migrations/steps.ts";

export function openDatabase(path: string): Database {
  const db = new Database(path, { create: true, strict: true });
  db.run("PRAGMA journal_mode = WAL");
  // Several processes (the server and `deckhand token …`) may share the file.
  db.run("PRAGMA busy_timeout = 5000");
  db.run("PRAGMA synchronous = NORMAL");
  db.run("PRAGMA foreign_keys = ON");
  migrate(db);
  return db;
}

/** The stored `user_version`, and where it stands in the one numbering; a newer deckhand's schema is refused. */
function versionOf(db: Database): { stored: number; current: number } {
  const stored = (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
  const current = renumbered(stored, SQLITE_OLD_VERSIONS);
  if (current > SQLITE_MIGRATIONS.length) {
    throw new Error(`The database was written by a newer deckhand (schema ${current}); upgrade deckhand.`);
  }
  return { stored, current };
}

function migrate(db: Database): void {
  const latest = SQLITE_MIGRATIONS.length;
  const upToDate = ({ stored, current }: { stored: number; current: number }) => current === latest && stored === latest;
  if (upToDate(versionOf(db))) return;
  // Every pending migration in one transaction: one commit for a new database rather than one
  // per migration (a first start is part of the cold-start budget), and a failed one leaves the
  // file as it was. An old number is rewritten in the same commit. The version is read again
  // under the write lock: another process (a second server, `deckhand token …`) may have
  // migrated the file between the read above and the lock, and its steps must not run twice.
  db.transaction(() => {
    const version = versionOf(db);
    if (upToDate(version)) return;
    for (const step of SQLITE_MIGRATIONS.slice(version.current)) if (hasStatements(step.sql)) db.run(step.sql);
    db.run(`PRAGMA user_version = ${latest}`);
  }).immediate();
}
