/**
 * @module store/db
 * The SQLite database: WAL mode, numbered migrations tracked in `PRAGMA user_version`.
 * Migrations are only ever appended; never edit one that has shipped.
 */
import { Database } from "bun:sqlite";

const MIGRATIONS: readonly string[] = [
  // 1: handoff sessions and access tokens.
  `CREATE TABLE sessions (
     id            TEXT PRIMARY KEY,
     token_hash    TEXT NOT NULL,
     filename      TEXT NOT NULL,
     total_slides  INTEGER NOT NULL,
     bytes         INTEGER NOT NULL,
     sha256        TEXT NOT NULL,
     state         TEXT NOT NULL CHECK (state IN ('staged', 'claimed', 'expired')),
     authenticated INTEGER NOT NULL,
     created_at    INTEGER NOT NULL,
     expires_at    INTEGER NOT NULL,
     ended_at      INTEGER
   );
   CREATE INDEX sessions_state_expires ON sessions (state, expires_at);
   CREATE INDEX sessions_ended ON sessions (ended_at) WHERE ended_at IS NOT NULL;
   CREATE TABLE access_tokens (
     id           TEXT PRIMARY KEY,
     label        TEXT,
     token_hash   TEXT NOT NULL UNIQUE,
     created_at   INTEGER NOT NULL,
     revoked_at   INTEGER,
     last_used_at INTEGER
   );`,
  // 2: the staged-bytes quota as a running total kept by triggers, so admitting an upload
  //    reads one row instead of summing every staged session (1.9× slower at 10,000 decks).
  `CREATE TABLE quota (
     id           INTEGER PRIMARY KEY CHECK (id = 1),
     staged_bytes INTEGER NOT NULL
   );
   INSERT INTO quota (id, staged_bytes) SELECT 1, COALESCE(SUM(bytes), 0) FROM sessions WHERE state = 'staged';
   CREATE TRIGGER quota_insert AFTER INSERT ON sessions WHEN NEW.state = 'staged'
     BEGIN UPDATE quota SET staged_bytes = staged_bytes + NEW.bytes WHERE id = 1; END;
   CREATE TRIGGER quota_end AFTER UPDATE OF state ON sessions WHEN OLD.state = 'staged' AND NEW.state != 'staged'
     BEGIN UPDATE quota SET staged_bytes = staged_bytes - OLD.bytes WHERE id = 1; END;
   CREATE TRIGGER quota_delete AFTER DELETE ON sessions WHEN OLD.state = 'staged'
     BEGIN UPDATE quota SET staged_bytes = staged_bytes - OLD.bytes WHERE id = 1; END;`,
  // 3: live sessions and the live grants a claim hands out. Secrets only as hashes.
  `CREATE TABLE live_sessions (
     code               TEXT PRIMARY KEY,
     blob_id            TEXT NOT NULL,
     filename           TEXT NOT NULL,
     total_slides       INTEGER NOT NULL,
     bytes              INTEGER NOT NULL,
     sha256             TEXT NOT NULL,
     presenter_hash     TEXT NOT NULL,
     control_hash       TEXT NOT NULL,
     control_generation INTEGER NOT NULL,
     allow_download     INTEGER NOT NULL,
     created_at         INTEGER NOT NULL,
     expires_at         INTEGER NOT NULL,
     ended_at           INTEGER,
     end_reason         TEXT,
     state_json         TEXT
   );
   CREATE INDEX live_sessions_open_expires ON live_sessions (expires_at) WHERE ended_at IS NULL;
   CREATE TABLE live_grants (
     hash       TEXT PRIMARY KEY,
     sha256     TEXT NOT NULL,
     expires_at INTEGER NOT NULL
   );`,
  // 4: when the presenter of a live talk was last connected, so the sweep can end talks
  //    nobody returns to after --live-presenter-grace. Open talks count from the upgrade.
  `ALTER TABLE live_sessions ADD COLUMN presenter_seen_at INTEGER NOT NULL DEFAULT 0;
   UPDATE live_sessions SET presenter_seen_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000;
   CREATE INDEX live_sessions_open_presenter_seen ON live_sessions (presenter_seen_at) WHERE ended_at IS NULL;`,
  // 5: the notes file that came beside a staged PDF: what it was, and its notes as
  //    normalised .pdfpc text, which the claim and the expiry set back to NULL.
  `ALTER TABLE sessions ADD COLUMN notes_filename TEXT;
   ALTER TABLE sessions ADD COLUMN notes_kind TEXT CHECK (notes_kind IN ('pdfpc', 'pptx'));
   ALTER TABLE sessions ADD COLUMN notes_slides INTEGER;
   ALTER TABLE sessions ADD COLUMN notes_pdfpc TEXT;`,
  // 6: what the audience of a live talk asked, voted and tapped, so a restart keeps
  //    it; bounded by src/live/audience/model.ts, cleared when the talk ends.
  `ALTER TABLE live_sessions ADD COLUMN audience_json TEXT;`,
  // 7: the notes file a presenter sent with a live talk's deck, for its phone remote: what it
  //    was, and its notes as normalised .pdfpc text, which the end sets back to NULL.
  `ALTER TABLE live_sessions ADD COLUMN notes_filename TEXT;
   ALTER TABLE live_sessions ADD COLUMN notes_kind TEXT CHECK (notes_kind IN ('pdfpc', 'pptx'));
   ALTER TABLE live_sessions ADD COLUMN notes_slides INTEGER;
   ALTER TABLE live_sessions ADD COLUMN notes_pdfpc TEXT;`,
];

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
  const current = (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
  if (current > MIGRATIONS.length) {
    throw new Error(`The database was written by a newer deckhand (schema ${current}); upgrade deckhand.`);
  }
  if (current === MIGRATIONS.length) return;
  // Every pending migration in one transaction: one commit for a new database rather than one
  // per migration (a first start is part of the cold-start budget), and a failed one leaves the file as it was.
  db.transaction(() => {
    for (let version = current; version < MIGRATIONS.length; version++) db.run(MIGRATIONS[version]!);
    db.run(`PRAGMA user_version = ${MIGRATIONS.length}`);
  }).immediate();
}
