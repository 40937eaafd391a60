/**
 * @module store/tokens
 * Bearer access tokens in SQLite. Only a SHA-256 of each token is stored; the token itself is
 * shown once, when it is created.
 */
import type { Database } from "bun:sqlite";
import type { AccessTokenRepository, AccessTokenRow } from "../core/access-tokens.ts";

interface Raw {
  id: string;
  label: string | null;
  token_hash: string;
  created_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
}

const fromRaw = (r: Raw): AccessTokenRow => ({
  id: r.id,
  label: r.label,
  tokenHash: r.token_hash,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
  lastUsedAt: r.last_used_at,
});

export class SqliteTokenRepository implements AccessTokenRepository {
  constructor(private readonly db: Database) {}

  async insert(row: Omit<AccessTokenRow, "revokedAt" | "lastUsedAt">): Promise<void> {
    this.db
      .query("INSERT INTO access_tokens (id, label, token_hash, created_at) VALUES (?, ?, ?, ?)")
      .run(row.id, row.label, row.tokenHash, row.createdAt);
  }

  async list(): Promise<AccessTokenRow[]> {
    return this.db.query<Raw, []>("SELECT * FROM access_tokens ORDER BY created_at, id").all().map(fromRaw);
  }

  /** On a full disk the mark is skipped (SQLITE_FULL): the token's requests may be the ones that free space. */
  async useByHash(tokenHash: string, now: number): Promise<AccessTokenRow | null> {
    let raw: Raw | null;
    try {
      raw = this.db
        .query<Raw, [number, string]>("UPDATE access_tokens SET last_used_at = ?1 WHERE token_hash = ?2 AND revoked_at IS NULL RETURNING *")
        .get(now, tokenHash);
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_FULL") throw error;
      raw = this.db.query<Raw, [string]>("SELECT * FROM access_tokens WHERE token_hash = ?1 AND revoked_at IS NULL").get(tokenHash);
    }
    return raw ? fromRaw(raw) : null;
  }

  async revoke(idOrLabel: string, now: number): Promise<AccessTokenRow[]> {
    return this.db
      .query<Raw, [number, string]>(
        "UPDATE access_tokens SET revoked_at = ?1 WHERE revoked_at IS NULL AND (id = ?2 OR label = ?2) RETURNING *",
      )
      .all(now, idOrLabel)
      .map(fromRaw);
  }
}
