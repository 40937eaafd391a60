/**
 * @module store/sessions
 * Handoff session rows. The repository is an interface so a deployment can later keep rows
 * in PostgreSQL; the claim stays one atomic `UPDATE … WHERE state = 'staged' … RETURNING`.
 */
import type { Database } from "bun:sqlite";

export type SessionState = "staged" | "claimed" | "expired";

export interface SessionRow {
  id: string;
  tokenHash: string;
  filename: string;
  totalSlides: number;
  bytes: number;
  sha256: string;
  state: SessionState;
  authenticated: boolean;
  createdAt: number;
  expiresAt: number;
  endedAt: number | null;
}

export interface SessionRepository {
  /**
   * Insert a staged row if the staged bytes stay within `maxStagedBytes`, in one transaction
   * with that check (so concurrent uploads, or several processes, cannot overshoot together).
   * False when the quota would be exceeded: nothing was written.
   */
  insertWithinQuota(row: SessionRow, maxStagedBytes: number): boolean;
  get(id: string): SessionRow | null;
  /** staged → claimed if still staged and unexpired at `now`; the claimed row, else null. */
  claim(id: string, now: number): SessionRow | null;
  /** Ids of at most `limit` staged rows past their expiry at `now` (reads only). */
  dueIds(now: number, limit: number): string[];
  /** staged → expired for those of `ids` still staged and past expiry; returns how many. */
  markExpired(ids: string[], now: number): number;
  /** Delete at most `limit` tombstones that ended before `before`; returns how many. */
  purgeEnded(before: number, limit: number): number;
  /** Bytes of all staged rows (a running total, not a sum over the rows). */
  stagedBytes(): number;
  stagedIds(): Set<string>;
}

interface Raw {
  id: string;
  token_hash: string;
  filename: string;
  total_slides: number;
  bytes: number;
  sha256: string;
  state: SessionState;
  authenticated: number;
  created_at: number;
  expires_at: number;
  ended_at: number | null;
}

const fromRaw = (r: Raw): SessionRow => ({
  id: r.id,
  tokenHash: r.token_hash,
  filename: r.filename,
  totalSlides: r.total_slides,
  bytes: r.bytes,
  sha256: r.sha256,
  state: r.state,
  authenticated: r.authenticated === 1,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  endedAt: r.ended_at,
});

export class SqliteSessionRepository implements SessionRepository {
  private readonly q;
  private readonly insertChecked: (row: SessionRow, max: number) => boolean;

  constructor(db: Database) {
    this.q = {
      insert: db.query(
        `INSERT INTO sessions (id, token_hash, filename, total_slides, bytes, sha256, state, authenticated, created_at, expires_at, ended_at)
         VALUES ($id, $tokenHash, $filename, $totalSlides, $bytes, $sha256, $state, $authenticated, $createdAt, $expiresAt, $endedAt)`,
      ),
      get: db.query<Raw, [string]>("SELECT * FROM sessions WHERE id = ?"),
      claim: db.query<Raw, [number, string, number]>(
        "UPDATE sessions SET state = 'claimed', ended_at = ?1 WHERE id = ?2 AND state = 'staged' AND expires_at > ?3 RETURNING *",
      ),
      dueIds: db.query<{ id: string }, [number, number]>("SELECT id FROM sessions WHERE state = 'staged' AND expires_at <= ?1 ORDER BY expires_at LIMIT ?2"),
      markExpired: db.query<unknown, [string, number]>(
        "UPDATE sessions SET state = 'expired', ended_at = expires_at WHERE state = 'staged' AND expires_at <= ?2 AND id IN (SELECT value FROM json_each(?1))",
      ),
      purge: db.query<unknown, [number, number]>(
        "DELETE FROM sessions WHERE rowid IN (SELECT rowid FROM sessions WHERE state != 'staged' AND ended_at < ?1 LIMIT ?2)",
      ),
      stagedBytes: db.query<{ total: number }, []>("SELECT staged_bytes AS total FROM quota WHERE id = 1"),
      stagedIds: db.query<{ id: string }, []>("SELECT id FROM sessions WHERE state = 'staged'"),
    };
    // IMMEDIATE: the write lock is taken before the total is read, so no other writer (another
    // request, or `deckhand token` in another process) can slip in between check and insert.
    this.insertChecked = db
      .transaction((row: SessionRow, max: number) => {
        if ((this.q.stagedBytes.get()?.total ?? 0) + row.bytes > max) return false;
        this.q.insert.run({ ...row, authenticated: row.authenticated ? 1 : 0 });
        return true;
      })
      .immediate;
  }

  insertWithinQuota(row: SessionRow, maxStagedBytes: number): boolean {
    return this.insertChecked(row, maxStagedBytes);
  }

  get(id: string): SessionRow | null {
    const raw = this.q.get.get(id);
    return raw ? fromRaw(raw) : null;
  }

  claim(id: string, now: number): SessionRow | null {
    const raw = this.q.claim.get(now, id, now);
    return raw ? fromRaw(raw) : null;
  }

  dueIds(now: number, limit: number): string[] {
    return this.q.dueIds.all(now, limit).map((r) => r.id);
  }

  markExpired(ids: string[], now: number): number {
    return ids.length === 0 ? 0 : this.q.markExpired.run(JSON.stringify(ids), now).changes;
  }

  purgeEnded(before: number, limit: number): number {
    return this.q.purge.run(before, limit).changes;
  }

  stagedBytes(): number {
    return this.q.stagedBytes.get()?.total ?? 0;
  }

  stagedIds(): Set<string> {
    return new Set(this.q.stagedIds.all().map((r) => r.id));
  }
}
