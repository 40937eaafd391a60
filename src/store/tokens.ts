/**
 * @module store/tokens
 * Bearer access tokens. Only a SHA-256 of each token is stored; the token itself is shown
 * once, when it is created.
 */
import type { Database } from "bun:sqlite";

export interface AccessTokenRow {
  id: string;
  label: string | null;
  tokenHash: string;
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

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

export class TokenRepository {
  constructor(private readonly db: Database) {}

  insert(row: Omit<AccessTokenRow, "revokedAt" | "lastUsedAt">): void {
    this.db
      .query("INSERT INTO access_tokens (id, label, token_hash, created_at) VALUES (?, ?, ?, ?)")
      .run(row.id, row.label, row.tokenHash, row.createdAt);
  }

  list(): AccessTokenRow[] {
    return this.db.query<Raw, []>("SELECT * FROM access_tokens ORDER BY created_at, id").all().map(fromRaw);
  }

  /**
   * The active (unrevoked) token with this hash, marking it used. On a full disk the mark is
   * skipped: a token must still work when nothing can be written (its requests may be the
   * ones that free space).
   */
  useByHash(tokenHash: string, now: number): AccessTokenRow | null {
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

  /** Revoke by id or label; returns the revoked rows. */
  revoke(idOrLabel: string, now: number): AccessTokenRow[] {
    return this.db
      .query<Raw, [number, string]>(
        "UPDATE access_tokens SET revoked_at = ?1 WHERE revoked_at IS NULL AND (id = ?2 OR label = ?2) RETURNING *",
      )
      .all(now, idOrLabel)
      .map(fromRaw);
  }
}
