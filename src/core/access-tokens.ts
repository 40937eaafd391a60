/**
 * @module core/access-tokens
 * Bearer access tokens as stored: only a SHA-256 of each token, never the token itself.
 * Implemented for SQLite and PostgreSQL; `deckhand token …` and the server use the same port.
 */

export interface AccessTokenRow {
  id: string;
  label: string | null;
  tokenHash: string;
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

export interface AccessTokenRepository {
  insert(row: Omit<AccessTokenRow, "revokedAt" | "lastUsedAt">): Promise<void>;
  list(): Promise<AccessTokenRow[]>;
  /**
   * The active (unrevoked) token with this hash, marking it used. When nothing can be
   * written (a full disk), the mark is skipped: a token must still work then.
   */
  useByHash(tokenHash: string, now: number): Promise<AccessTokenRow | null>;
  /** Revoke by id or label; returns the revoked rows. */
  revoke(idOrLabel: string, now: number): Promise<AccessTokenRow[]>;
}
