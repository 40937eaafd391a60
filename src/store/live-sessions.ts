/**
 * @module store/live-sessions
 * Live session and live grant rows in SQLite (migrations 4, 5, 7 and 8). bun:sqlite answers
 * synchronously; the port is asynchronous like every other.
 */
import type { Database } from "bun:sqlite";
import type { LiveEndReason, LiveGrantRow, LiveSessionRepository, LiveSessionRow } from "../core/live-sessions.ts";
import { notesFromRaw, notesParams, type NotesRaw } from "./notes-columns.ts";

/** Every column of a row but the notes text, which only `notesText` reads. */
const ROW_COLUMNS =
  "code, blob_id, filename, total_slides, bytes, sha256, presenter_hash, control_hash, control_generation, allow_download, created_at, expires_at, ended_at, end_reason, state_json, audience_json, presenter_seen_at, notes_filename, notes_kind, notes_slides";

interface Raw extends NotesRaw {
  code: string;
  blob_id: string;
  filename: string;
  total_slides: number;
  bytes: number;
  sha256: string;
  presenter_hash: string;
  control_hash: string;
  control_generation: number;
  allow_download: number;
  created_at: number;
  expires_at: number;
  ended_at: number | null;
  end_reason: LiveEndReason | null;
  state_json: string | null;
  audience_json?: string | null;
  presenter_seen_at: number;
}

const fromRaw = (r: Raw): LiveSessionRow => ({
  code: r.code,
  blobId: r.blob_id,
  filename: r.filename,
  totalSlides: r.total_slides,
  bytes: r.bytes,
  sha256: r.sha256,
  presenterHash: r.presenter_hash,
  controlHash: r.control_hash,
  controlGeneration: r.control_generation,
  allowDownload: r.allow_download === 1,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  endedAt: r.ended_at,
  endReason: r.end_reason,
  stateJson: r.state_json,
  presenterSeenAt: r.presenter_seen_at,
  audienceJson: r.audience_json ?? null,
  notes: notesFromRaw(r),
});

export class SqliteLiveSessionRepository implements LiveSessionRepository {
  private readonly q;

  constructor(db: Database) {
    this.q = {
      insert: db.query(
        `INSERT OR IGNORE INTO live_sessions (code, blob_id, filename, total_slides, bytes, sha256, presenter_hash, control_hash, control_generation, allow_download, created_at, expires_at, ended_at, end_reason, state_json, presenter_seen_at,
                                              notes_filename, notes_kind, notes_slides, notes_pdfpc)
         VALUES ($code, $blobId, $filename, $totalSlides, $bytes, $sha256, $presenterHash, $controlHash, $controlGeneration, $allowDownload, $createdAt, $expiresAt, $endedAt, $endReason, $stateJson, $presenterSeenAt,
                 $notesFilename, $notesKind, $notesSlides, $notesPdfpc)`,
      ),
      get: db.query<Raw, [string]>(`SELECT ${ROW_COLUMNS} FROM live_sessions WHERE code = ?`),
      notesText: db.query<{ notes_pdfpc: string | null }, [string]>("SELECT notes_pdfpc FROM live_sessions WHERE code = ? AND ended_at IS NULL"),
      end: db.query<Raw, [number, string, string]>(
        `UPDATE live_sessions SET ended_at = ?1, end_reason = ?2, audience_json = NULL, notes_pdfpc = NULL WHERE code = ?3 AND ended_at IS NULL RETURNING ${ROW_COLUMNS}`,
      ),
      rotate: db.query<{ control_generation: number }, [string, string]>(
        "UPDATE live_sessions SET control_hash = ?1, control_generation = control_generation + 1 WHERE code = ?2 AND ended_at IS NULL RETURNING control_generation",
      ),
      saveState: db.query<unknown, [string, string]>("UPDATE live_sessions SET state_json = ?1 WHERE code = ?2 AND ended_at IS NULL"),
      saveAudience: db.query<unknown, [string, string]>("UPDATE live_sessions SET audience_json = ?1 WHERE code = ?2 AND ended_at IS NULL"),
      touch: db.query<unknown, [number, string]>("UPDATE live_sessions SET presenter_seen_at = ?1 WHERE code = ?2 AND ended_at IS NULL"),
      gone: db.query<{ code: string }, [number, number]>("SELECT code FROM live_sessions WHERE ended_at IS NULL AND presenter_seen_at < ?1 LIMIT ?2"),
      allow: db.query<unknown, [number, string]>("UPDATE live_sessions SET allow_download = ?1 WHERE code = ?2"),
      due: db.query<{ code: string }, [number, number]>("SELECT code FROM live_sessions WHERE ended_at IS NULL AND expires_at <= ?1 LIMIT ?2"),
      openAmong: db.query<{ blob_id: string }, [string]>("SELECT blob_id FROM live_sessions WHERE ended_at IS NULL AND blob_id IN (SELECT value FROM json_each(?1))"),
      openByAge: db.query<{ code: string; bytes: number }, [number]>("SELECT code, bytes FROM live_sessions WHERE ended_at IS NULL ORDER BY created_at, code LIMIT ?1"),
      openBytes: db.query<{ total: number | null }, []>("SELECT SUM(bytes) AS total FROM live_sessions WHERE ended_at IS NULL"),
      purge: db.query<unknown, [number]>("DELETE FROM live_sessions WHERE ended_at IS NOT NULL AND ended_at < ?1"),
      insertGrant: db.query("INSERT OR REPLACE INTO live_grants (hash, sha256, expires_at) VALUES ($hash, $sha256, $expiresAt)"),
      getGrant: db.query<{ hash: string; sha256: string; expires_at: number }, [string, number]>("SELECT * FROM live_grants WHERE hash = ?1 AND expires_at > ?2"),
      purgeGrants: db.query<unknown, [number]>("DELETE FROM live_grants WHERE expires_at <= ?1"),
    };
  }

  async insert(row: LiveSessionRow, notesText: string | null = null): Promise<boolean> {
    const { notes, ...fields } = row;
    return this.q.insert.run({ ...fields, allowDownload: row.allowDownload ? 1 : 0, ...notesParams(notes, notesText) }).changes === 1;
  }

  async get(code: string): Promise<LiveSessionRow | null> {
    const raw = this.q.get.get(code);
    return raw ? fromRaw(raw) : null;
  }

  async notesText(code: string): Promise<string | null> {
    return this.q.notesText.get(code)?.notes_pdfpc ?? null;
  }

  async end(code: string, reason: LiveEndReason, now: number): Promise<LiveSessionRow | null> {
    const raw = this.q.end.get(now, reason, code);
    return raw ? fromRaw(raw) : null;
  }

  async rotateControl(code: string, controlHash: string): Promise<number | null> {
    return this.q.rotate.get(controlHash, code)?.control_generation ?? null;
  }

  async saveState(code: string, stateJson: string): Promise<void> {
    this.q.saveState.run(stateJson, code);
  }

  async saveAudience(code: string, audienceJson: string): Promise<void> {
    this.q.saveAudience.run(audienceJson, code);
  }

  async touchPresenter(code: string, now: number): Promise<void> {
    this.q.touch.run(now, code);
  }

  async presenterGoneCodes(before: number, limit: number): Promise<string[]> {
    return this.q.gone.all(before, limit).map((r) => r.code);
  }

  async setAllowDownload(code: string, allow: boolean): Promise<void> {
    this.q.allow.run(allow ? 1 : 0, code);
  }

  async dueCodes(now: number, limit: number): Promise<string[]> {
    return this.q.due.all(now, limit).map((r) => r.code);
  }

  async openBlobsAmong(blobIds: string[]): Promise<Set<string>> {
    return blobIds.length === 0 ? new Set() : new Set(this.q.openAmong.all(JSON.stringify(blobIds)).map((r) => r.blob_id));
  }

  async openByAge(limit: number): Promise<{ code: string; bytes: number }[]> {
    return this.q.openByAge.all(limit);
  }

  async openBytes(): Promise<number> {
    return this.q.openBytes.get()?.total ?? 0;
  }

  async purgeEnded(before: number): Promise<number> {
    return this.q.purge.run(before).changes;
  }

  async insertGrant(grant: LiveGrantRow): Promise<void> {
    this.q.insertGrant.run({ ...grant });
  }

  async getGrant(hash: string, now: number): Promise<LiveGrantRow | null> {
    const raw = this.q.getGrant.get(hash, now);
    return raw ? { hash: raw.hash, sha256: raw.sha256, expiresAt: raw.expires_at } : null;
  }

  async purgeGrants(now: number): Promise<number> {
    return this.q.purgeGrants.run(now).changes;
  }
}
