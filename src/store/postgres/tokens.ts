/**
 * @module store/postgres/tokens
 * Bearer access tokens in PostgreSQL: `deckhand token … --database-url` and every instance
 * see the same ones. Only a SHA-256 of each token is stored.
 */
import type { AccessTokenRepository, AccessTokenRow } from "../../core/access-tokens.ts";
import type { PostgresDatabase } from "./db.ts";

interface Raw {
  id: string;
  label: string | null;
  token_hash: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

const ms = (value: string | null): number | null => (value === null ? null : Number(value));

const fromRaw = (r: Raw): AccessTokenRow => ({
  id: r.id,
  label: r.label,
  tokenHash: r.token_hash,
  createdAt: Number(r.created_at),
  revokedAt: ms(r.revoked_at),
  lastUsedAt: ms(r.last_used_at),
});

export class PostgresTokenRepository implements AccessTokenRepository {
  constructor(private readonly db: PostgresDatabase) {}

  private async sql() {
    await this.db.ready;
    return this.db.sql;
  }

  async insert(row: Omit<AccessTokenRow, "revokedAt" | "lastUsedAt">): Promise<void> {
    const sql = await this.sql();
    await sql`INSERT INTO access_tokens (id, label, token_hash, created_at) VALUES (${row.id}, ${row.label}, ${row.tokenHash}, ${row.createdAt})`;
  }

  async list(): Promise<AccessTokenRow[]> {
    const sql = await this.sql();
    return ((await sql`SELECT * FROM access_tokens ORDER BY created_at, id`) as Raw[]).map(fromRaw);
  }

  async useByHash(tokenHash: string, now: number): Promise<AccessTokenRow | null> {
    const sql = await this.sql();
    const [raw] = (await sql`UPDATE access_tokens SET last_used_at = ${now} WHERE token_hash = ${tokenHash} AND revoked_at IS NULL RETURNING *`) as Raw[];
    return raw ? fromRaw(raw) : null;
  }

  async revoke(idOrLabel: string, now: number): Promise<AccessTokenRow[]> {
    const sql = await this.sql();
    const rows = (await sql`UPDATE access_tokens SET revoked_at = ${now} WHERE revoked_at IS NULL AND (id = ${idOrLabel} OR label = ${idOrLabel}) RETURNING *`) as Raw[];
    return rows.map(fromRaw);
  }
}
