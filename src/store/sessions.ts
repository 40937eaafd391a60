/**
 * @module store/sessions
 * Handoff session rows in SQLite (the embedded default). bun:sqlite answers synchronously; the
 * port is asynchronous because other databases are across a network. The claim is one
 * conditional `UPDATE … WHERE state = 'staged' AND expires_at > now RETURNING *`.
 */
import type { Database } from "bun:sqlite";
import type { SessionRepository, SessionRow, SessionState } from "../core/sessions.ts";
import { notesFromRaw, notesParams, type NotesRaw } from "./notes-columns.ts";

/** Every column of a row but the notes text, which only `notesText` reads. */
const ROW_COLUMNS =
  "id, token_hash, filename, total_slides, bytes, sha256, state, authenticated, created_at, expires_at, ended_at, notes_filename, notes_kind, notes_slides";

interface Raw extends NotesRaw {
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
  notes: notesFromRaw(r),
});

export class SqliteSessionRepository implements SessionRepository {
  private readonly q;
  private readonly insertChecked: (row: SessionRow, max: number, notesText: string | null) => boolean;

  constructor(db: Database) {
    this.q = {
      insert: db.query(
        `INSERT INTO sessions (id, token_hash, filename, total_slides, bytes, sha256, state, authenticated, created_at, expires_at, ended_at,
                               notes_filename, notes_kind, notes_slides, notes_pdfpc)
         VALUES ($id, $tokenHash, $filename, $totalSlides, $bytes, $sha256, $state, $authenticated, $createdAt, $expiresAt, $endedAt,
                 $notesFilename, $notesKind, $notesSlides, $notesPdfpc)`,
      ),
      get: db.query<Raw, [string]>(`SELECT ${ROW_COLUMNS} FROM sessions WHERE id = ?`),
      notesText: db.query<{ notes_pdfpc: string | null }, [string]>("SELECT notes_pdfpc FROM sessions WHERE id = ? AND state = 'staged'"),
      claim: db.query<Raw, [number, string, number]>(
        `UPDATE sessions SET state = 'claimed', ended_at = ?1, notes_pdfpc = NULL WHERE id = ?2 AND state = 'staged' AND expires_at > ?3 RETURNING ${ROW_COLUMNS}`,
      ),
      dueIds: db.query<{ id: string }, [number, number]>("SELECT id FROM sessions WHERE state = 'staged' AND expires_at <= ?1 ORDER BY expires_at LIMIT ?2"),
      markExpired: db.query<unknown, [string, number]>(
        "UPDATE sessions SET state = 'expired', ended_at = expires_at, notes_pdfpc = NULL WHERE state = 'staged' AND expires_at <= ?2 AND id IN (SELECT value FROM json_each(?1))",
      ),
      purge: db.query<unknown, [number, number]>(
        "DELETE FROM sessions WHERE rowid IN (SELECT rowid FROM sessions WHERE state != 'staged' AND ended_at < ?1 LIMIT ?2)",
      ),
      stagedBytes: db.query<{ total: number }, []>("SELECT staged_bytes AS total FROM quota WHERE id = 1"),
      stagedAmong: db.query<{ id: string }, [string]>("SELECT id FROM sessions WHERE state = 'staged' AND id IN (SELECT value FROM json_each(?1))"),
    };
    // IMMEDIATE: the write lock is taken before the total is read, so no other writer (another
    // request, or `deckhand token` in another process) can slip in between check and insert.
    this.insertChecked = db
      .transaction((row: SessionRow, max: number, notesText: string | null) => {
        if ((this.q.stagedBytes.get()?.total ?? 0) + row.bytes > max) return false;
        const { notes, ...fields } = row;
        this.q.insert.run({ ...fields, authenticated: row.authenticated ? 1 : 0, ...notesParams(notes, notesText) });
        return true;
      })
      .immediate;
  }

  async insertWithinQuota(row: SessionRow, maxStagedBytes: number, notesText: string | null = null): Promise<boolean> {
    return this.insertChecked(row, maxStagedBytes, notesText);
  }

  async get(id: string): Promise<SessionRow | null> {
    const raw = this.q.get.get(id);
    return raw ? fromRaw(raw) : null;
  }

  async notesText(id: string): Promise<string | null> {
    return this.q.notesText.get(id)?.notes_pdfpc ?? null;
  }

  async claim(id: string, now: number): Promise<SessionRow | null> {
    const raw = this.q.claim.get(now, id, now);
    return raw ? fromRaw(raw) : null;
  }

  async dueIds(now: number, limit: number): Promise<string[]> {
    return this.q.dueIds.all(now, limit).map((r) => r.id);
  }

  async markExpired(ids: string[], now: number): Promise<number> {
    return ids.length === 0 ? 0 : this.q.markExpired.run(JSON.stringify(ids), now).changes;
  }

  async purgeEnded(before: number, limit: number): Promise<number> {
    return this.q.purge.run(before, limit).changes;
  }

  async stagedBytes(): Promise<number> {
    return this.q.stagedBytes.get()?.total ?? 0;
  }

  async stagedAmong(ids: string[]): Promise<Set<string>> {
    return ids.length === 0 ? new Set() : new Set(this.q.stagedAmong.all(JSON.stringify(ids)).map((r) => r.id));
  }
}
