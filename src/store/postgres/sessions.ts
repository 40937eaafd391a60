/**
 * @module store/postgres/sessions
 * Handoff session rows in PostgreSQL, shared by every instance. The claim is one conditional
 * `UPDATE … RETURNING` (under READ COMMITTED a concurrent claim waits for the row, then finds
 * it no longer staged); the quota check locks the one quota row in the insert's transaction;
 * the sweeper's expiry skips rows a claim holds (`FOR UPDATE SKIP LOCKED`), so it never waits
 * on one, and rows are always locked before the quota row: no deadlock between them.
 */
import type { SessionRepository, SessionRow, SessionState } from "../../core/sessions.ts";
import { notesFromRaw, notesParams, type NotesRaw } from "../notes-columns.ts";
import type { PostgresDatabase } from "./db.ts";

/**
 * Every column of a row but the notes text, which only `notesText` reads: written once for the
 * read and the claim's RETURNING (a constant, never input: `sql.unsafe` adds it as written).
 */
const ROW_COLUMNS = "id, token_hash, filename, total_slides, bytes, sha256, state, authenticated, created_at, expires_at, ended_at, notes_filename, notes_kind, notes_slides";

interface Raw extends NotesRaw {
  id: string;
  token_hash: string;
  filename: string;
  total_slides: number;
  bytes: string | number;
  sha256: string;
  state: SessionState;
  authenticated: boolean;
  created_at: string | number;
  expires_at: string | number;
  ended_at: string | number | null;
}

// bigint columns arrive as strings (exact); every value here is far below 2^53.
const fromRaw = (r: Raw): SessionRow => ({
  id: r.id,
  tokenHash: r.token_hash,
  filename: r.filename,
  totalSlides: r.total_slides,
  bytes: Number(r.bytes),
  sha256: r.sha256,
  state: r.state,
  authenticated: r.authenticated,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
  endedAt: r.ended_at === null ? null : Number(r.ended_at),
  notes: notesFromRaw(r),
});

export class PostgresSessionRepository implements SessionRepository {
  constructor(private readonly db: PostgresDatabase) {}

  private async sql() {
    await this.db.ready;
    return this.db.sql;
  }

  async insertWithinQuota(row: SessionRow, maxStagedBytes: number, notesText: string | null = null): Promise<boolean> {
    const sql = await this.sql();
    return sql.begin(async (tx) => {
      // The row lock serialises admissions (on every instance) between check and insert.
      const [quota] = (await tx`SELECT staged_bytes FROM quota WHERE id = 1 FOR UPDATE`) as { staged_bytes: string }[];
      if (Number(quota?.staged_bytes ?? 0) + row.bytes > maxStagedBytes) return false;
      const n = notesParams(row.notes, notesText);
      await tx`INSERT INTO sessions (id, token_hash, filename, total_slides, bytes, sha256, state, authenticated, created_at, expires_at, ended_at,
                                     notes_filename, notes_kind, notes_slides, notes_pdfpc)
               VALUES (${row.id}, ${row.tokenHash}, ${row.filename}, ${row.totalSlides}, ${row.bytes}, ${row.sha256}, ${row.state},
                       ${row.authenticated}, ${row.createdAt}, ${row.expiresAt}, ${row.endedAt},
                       ${n.notesFilename}, ${n.notesKind}, ${n.notesSlides}, ${n.notesPdfpc})`;
      return true;
    });
  }

  async get(id: string): Promise<SessionRow | null> {
    const sql = await this.sql();
    const [raw] = (await sql`SELECT ${sql.unsafe(ROW_COLUMNS)} FROM sessions WHERE id = ${id}`) as Raw[];
    return raw ? fromRaw(raw) : null;
  }

  async notesText(id: string): Promise<string | null> {
    const sql = await this.sql();
    const [raw] = (await sql`SELECT notes_pdfpc FROM sessions WHERE id = ${id} AND state = 'staged'`) as { notes_pdfpc: string | null }[];
    return raw?.notes_pdfpc ?? null;
  }

  async claim(id: string, now: number): Promise<SessionRow | null> {
    const sql = await this.sql();
    const [raw] = (await sql`UPDATE sessions SET state = 'claimed', ended_at = ${now}, notes_pdfpc = NULL
                             WHERE id = ${id} AND state = 'staged' AND expires_at > ${now} RETURNING ${sql.unsafe(ROW_COLUMNS)}`) as Raw[];
    return raw ? fromRaw(raw) : null;
  }

  async dueIds(now: number, limit: number): Promise<string[]> {
    const sql = await this.sql();
    const rows = (await sql`SELECT id FROM sessions WHERE state = 'staged' AND expires_at <= ${now} ORDER BY expires_at LIMIT ${limit}`) as { id: string }[];
    return rows.map((r) => r.id);
  }

  async markExpired(ids: string[], now: number): Promise<number> {
    if (ids.length === 0) return 0;
    const sql = await this.sql();
    const rows = (await sql`
      WITH due AS (
        SELECT id FROM sessions
        WHERE id = ANY(${sql.array(ids, "TEXT")}) AND state = 'staged' AND expires_at <= ${now}
        ORDER BY id FOR UPDATE SKIP LOCKED
      )
      UPDATE sessions SET state = 'expired', ended_at = expires_at, notes_pdfpc = NULL FROM due WHERE sessions.id = due.id RETURNING sessions.id`) as { id: string }[];
    return rows.length;
  }

  async purgeEnded(before: number, limit: number): Promise<number> {
    const sql = await this.sql();
    const rows = (await sql`
      DELETE FROM sessions WHERE id IN (
        SELECT id FROM sessions WHERE state <> 'staged' AND ended_at < ${before} LIMIT ${limit} FOR UPDATE SKIP LOCKED
      ) RETURNING id`) as { id: string }[];
    return rows.length;
  }

  async stagedBytes(): Promise<number> {
    const sql = await this.sql();
    const [row] = (await sql`SELECT staged_bytes FROM quota WHERE id = 1`) as { staged_bytes: string }[];
    return Number(row?.staged_bytes ?? 0);
  }

  async stagedAmong(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const sql = await this.sql();
    const rows = (await sql`SELECT id FROM sessions WHERE state = 'staged' AND id = ANY(${sql.array(ids, "TEXT")})`) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  }
}
