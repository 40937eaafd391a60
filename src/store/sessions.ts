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
  insert(row: SessionRow): void;
  get(id: string): SessionRow | null;
  /** staged → claimed if still staged and unexpired at `now`; the claimed row, else null. */
  claim(id: string, now: number): SessionRow | null;
  /** staged → expired for every row past its expiry; returns their ids. */
  expireDue(now: number): string[];
  /** Delete tombstones that ended before `before`; returns how many. */
  purgeEnded(before: number): number;
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
      expireDue: db.query<{ id: string }, [number]>(
        "UPDATE sessions SET state = 'expired', ended_at = expires_at WHERE state = 'staged' AND expires_at <= ?1 RETURNING id",
      ),
      purge: db.query<unknown, [number]>("DELETE FROM sessions WHERE state != 'staged' AND ended_at < ?1"),
      stagedBytes: db.query<{ total: number | null }, []>("SELECT SUM(bytes) AS total FROM sessions WHERE state = 'staged'"),
      stagedIds: db.query<{ id: string }, []>("SELECT id FROM sessions WHERE state = 'staged'"),
    };
  }

  insert(row: SessionRow): void {
    this.q.insert.run({ ...row, authenticated: row.authenticated ? 1 : 0 });
  }

  get(id: string): SessionRow | null {
    const raw = this.q.get.get(id);
    return raw ? fromRaw(raw) : null;
  }

  claim(id: string, now: number): SessionRow | null {
    const raw = this.q.claim.get(now, id, now);
    return raw ? fromRaw(raw) : null;
  }

  expireDue(now: number): string[] {
    return this.q.expireDue.all(now).map((r) => r.id);
  }

  purgeEnded(before: number): number {
    return this.q.purge.run(before).changes;
  }

  stagedBytes(): number {
    return this.q.stagedBytes.get()?.total ?? 0;
  }

  stagedIds(): Set<string> {
    return new Set(this.q.stagedIds.all().map((r) => r.id));
  }
}
