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

function migrate(db: Database): void {
  const stored = (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
  const current = renumbered(stored, SQLITE_OLD_VERSIONS);
  const latest = SQLITE_MIGRATIONS.length;
  if (current > latest) {
    throw new Error(`The database was written by a newer deckhand (schema ${current}); upgrade deckhand.`);
  }
  if (current === latest && stored === latest) return;
  // Every pending migration in one transaction: one commit for a new database rather than one
  // per migration (a first start is part of the cold-start budget), and a failed one leaves the
  // file as it was. An old number is rewritten in the same commit.
  db.transaction(() => {
    for (const step of SQLITE_MIGRATIONS.slice(current)) if (hasStatements(step.sql)) db.run(step.sql);
    db.run(`PRAGMA user_version = ${latest}`);
  }).immediate();
}
