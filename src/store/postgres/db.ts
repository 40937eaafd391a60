/**
 * @module store/postgres/db
 * The PostgreSQL database of a multi-instance deployment (`--database-url postgres://…`),
 * through Bun's built-in client (`Bun.SQL`). The numbered schema changes of
 * src/store/migrations/postgres/ (one numbering with SQLite's: store/migrations/steps), tracked
 * in `deckhand_schema`; instances that start together serialise on an advisory lock, and all
 * pending migrations apply in one transaction (PostgreSQL's DDL is transactional).
 */
// The type only: `Bun.SQL` is read where a pool is made, so a server on SQLite never loads Bun's
// PostgreSQL client (~5 ms of every start; docs/performance.md).
import type { SQL } from "bun";
import { POSTGRES_MIGRATIONS, POSTGRES_OLD_VERSIONS } from "../migrations/postgres.ts";
import { hasStatements, renumbered } from "../migrations/steps.ts";

/** Advisory lock keys (any 64-bit numbers, fixed forever): migrations and the sweeper. */
export const MIGRATION_LOCK_KEY = 0x6465_636b_6d69;
export const SWEEP_LOCK_KEY = 0x6465_636b_7377;

/** The schema version this build writes. */
export const POSTGRES_SCHEMA_VERSION = POSTGRES_MIGRATIONS.length;

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
    const stored = rows[0]?.version ?? 0;
    const current = renumbered(stored, POSTGRES_OLD_VERSIONS);
    const latest = POSTGRES_MIGRATIONS.length;
    if (current > latest) {
      throw new Error(`The database was written by a newer deckhand (schema ${current}); upgrade deckhand.`);
    }
    for (const step of POSTGRES_MIGRATIONS.slice(current)) if (hasStatements(step.sql)) await tx.unsafe(step.sql);
    // An old number is rewritten in the same transaction.
    if (rows.length === 0) await tx`INSERT INTO deckhand_schema (version) VALUES (${latest})`;
    else if (stored !== latest) await tx`UPDATE deckhand_schema SET version = ${latest}`;
  });
}
