/**
 * @module store/postgres/db
 * The PostgreSQL database of a multi-instance deployment (`--database-url postgres://…`),
 * through Bun's built-in client (`Bun.SQL`). Numbered migrations, as for SQLite, tracked in
 * `deckhand_schema`; instances that start together serialise on an advisory lock, and all
 * pending migrations apply in one transaction (PostgreSQL's DDL is transactional).
 * Migrations are only ever appended; never edit one that has shipped.
 */
// The type only: `Bun.SQL` is read where a pool is made, so a server on SQLite never loads Bun's
// PostgreSQL client (~5 ms of every start, issue 24).
import type { SQL } from "bun";

/** Advisory lock keys (any 64-bit numbers, fixed forever): migrations and the sweeper. */
export const MIGRATION_LOCK_KEY = 0x6465_636b_6d69;
export const SWEEP_LOCK_KEY = 0x6465_636b_7377;

const MIGRATIONS: readonly string[] = [
  // 1: handoff sessions, access tokens, the staged-bytes quota as a running total kept by a
  //    trigger (admitting an upload reads and locks one row instead of summing every staged
  //    session), and the shared anonymous rate-limit windows. Times are ms since the epoch,
  //    as in SQLite, so both stores speak the same rows.
  `CREATE TABLE sessions (
     id            text PRIMARY KEY,
     token_hash    text NOT NULL,
     filename      text NOT NULL,
     total_slides  integer NOT NULL,
     bytes         bigint NOT NULL,
     sha256        text NOT NULL,
     state         text NOT NULL CHECK (state IN ('staged', 'claimed', 'expired')),
     authenticated boolean NOT NULL,
     created_at    bigint NOT NULL,
     expires_at    bigint NOT NULL,
     ended_at      bigint
   );
   CREATE INDEX sessions_state_expires ON sessions (state, expires_at);
   CREATE INDEX sessions_ended ON sessions (ended_at) WHERE ended_at IS NOT NULL;
   CREATE TABLE access_tokens (
     id           text PRIMARY KEY,
     label        text,
     token_hash   text NOT NULL UNIQUE,
     created_at   bigint NOT NULL,
     revoked_at   bigint,
     last_used_at bigint
   );
   CREATE TABLE quota (
     id           integer PRIMARY KEY CHECK (id = 1),
     staged_bytes bigint NOT NULL
   );
   INSERT INTO quota (id, staged_bytes) VALUES (1, 0);
   CREATE FUNCTION quota_track() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'INSERT' THEN
       IF NEW.state = 'staged' THEN UPDATE quota SET staged_bytes = staged_bytes + NEW.bytes WHERE id = 1; END IF;
       RETURN NEW;
     ELSIF TG_OP = 'UPDATE' THEN
       IF OLD.state = 'staged' AND NEW.state <> 'staged' THEN UPDATE quota SET staged_bytes = staged_bytes - OLD.bytes WHERE id = 1; END IF;
       RETURN NEW;
     ELSE
       IF OLD.state = 'staged' THEN UPDATE quota SET staged_bytes = staged_bytes - OLD.bytes WHERE id = 1; END IF;
       RETURN OLD;
     END IF;
   END $$;
   CREATE TRIGGER sessions_quota AFTER INSERT OR DELETE OR UPDATE OF state ON sessions
     FOR EACH ROW EXECUTE FUNCTION quota_track();
   CREATE TABLE rate_windows (
     key          text PRIMARY KEY,
     window_start bigint NOT NULL,
     hits         integer NOT NULL
   );`,
  // 2: live sessions (issue 11) and the live grants a claim hands out; as SQLite's migration 3.
  `CREATE TABLE live_sessions (
     code               text PRIMARY KEY,
     blob_id            text NOT NULL,
     filename           text NOT NULL,
     total_slides       integer NOT NULL,
     bytes              bigint NOT NULL,
     sha256             text NOT NULL,
     presenter_hash     text NOT NULL,
     control_hash       text NOT NULL,
     control_generation integer NOT NULL,
     allow_download     boolean NOT NULL,
     created_at         bigint NOT NULL,
     expires_at         bigint NOT NULL,
     ended_at           bigint,
     end_reason         text,
     state_json         text
   );
   CREATE INDEX live_sessions_open_expires ON live_sessions (expires_at) WHERE ended_at IS NULL;
   CREATE TABLE live_grants (
     hash       text PRIMARY KEY,
     sha256     text NOT NULL,
     expires_at bigint NOT NULL
   );`,
  // 3: when the presenter of a live talk was last connected; as SQLite's migration 4.
  `ALTER TABLE live_sessions ADD COLUMN presenter_seen_at bigint;
   UPDATE live_sessions SET presenter_seen_at = (extract(epoch FROM now()) * 1000)::bigint;
   ALTER TABLE live_sessions ALTER COLUMN presenter_seen_at SET NOT NULL;
   CREATE INDEX live_sessions_open_presenter_seen ON live_sessions (presenter_seen_at) WHERE ended_at IS NULL;`,
  // 4: the notes file that came beside a staged PDF (issue 19); as SQLite's migration 5.
  `ALTER TABLE sessions ADD COLUMN notes_filename text;
   ALTER TABLE sessions ADD COLUMN notes_kind text CHECK (notes_kind IN ('pdfpc', 'pptx'));
   ALTER TABLE sessions ADD COLUMN notes_slides integer;
   ALTER TABLE sessions ADD COLUMN notes_pdfpc text;`,
  // 5: the audience of a live talk (issue 23); as SQLite's migration 6.
  `ALTER TABLE live_sessions ADD COLUMN audience_json text;`,
  // 6: the notes file a presenter sent with a live talk's deck; as SQLite's migration 7.
  `ALTER TABLE live_sessions ADD COLUMN notes_filename text;
   ALTER TABLE live_sessions ADD COLUMN notes_kind text CHECK (notes_kind IN ('pdfpc', 'pptx'));
   ALTER TABLE live_sessions ADD COLUMN notes_slides integer;
   ALTER TABLE live_sessions ADD COLUMN notes_pdfpc text;`,
  // 7: keys the rate limit remembers for a time — the live talks each address opened, which a
  //    block for guessing codes leaves open to it on every instance (live/join-guard). No SQLite
  //    twin: one embedded process keeps them in memory.
  `CREATE TABLE remembered_keys (
     key   text PRIMARY KEY,
     until bigint NOT NULL
   );
   CREATE INDEX remembered_keys_until ON remembered_keys (until);`,
];

/** The schema version this build writes. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

export interface PostgresDatabase {
  sql: SQL;
  /** Resolves once the schema is current; every repository awaits it before its first query. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Connect and migrate in the background. The connection pool is lazy: nothing is sent until
 * the first query, so a wrong URL or an unreachable server shows up as `ready` rejecting.
 */
export function openPostgres(url: string, options: { max?: number } = {}): PostgresDatabase {
  // Each instance keeps a small pool; a request makes one or two short queries.
  const sql = new Bun.SQL(url, { max: options.max ?? 10, idleTimeout: 30, connectionTimeout: 10 });
  const ready = migrate(sql);
  ready.catch(() => {}); // observed by whoever awaits it; never an unhandled rejection here
  return {
    sql,
    ready,
    close: () => sql.close({ timeout: 5 }),
  };
}

async function migrate(sql: SQL): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
    await tx`CREATE TABLE IF NOT EXISTS deckhand_schema (version integer NOT NULL)`;
    const rows = (await tx`SELECT version FROM deckhand_schema`) as { version: number }[];
    const current = rows[0]?.version ?? 0;
    if (current > MIGRATIONS.length) {
      throw new Error(`The database was written by a newer deckhand (schema ${current}); upgrade deckhand.`);
    }
    for (let version = current; version < MIGRATIONS.length; version++) await tx.unsafe(MIGRATIONS[version]!);
    if (rows.length === 0) await tx`INSERT INTO deckhand_schema (version) VALUES (${MIGRATIONS.length})`;
    else await tx`UPDATE deckhand_schema SET version = ${MIGRATIONS.length}`;
  });
}
