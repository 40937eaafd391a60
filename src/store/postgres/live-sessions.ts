/**
 * @module store/postgres/live-sessions
 * Live session and live grant rows in PostgreSQL (migrations 2, 3, 5 and 6), shared by every instance:
 * ending is one conditional `UPDATE … WHERE ended_at IS NULL RETURNING`, so of concurrent
 * ends (a presenter's, the sweeper's) exactly one deletes the deck and tells the sockets.
 */
import type { LiveEndReason, LiveGrantRow, LiveSessionRepository, LiveSessionRow } from "../../core/live-sessions.ts";
import { notesFromRaw, notesParams, type NotesRaw } from "../notes-columns.ts";
import type { PostgresDatabase } from "./db.ts";

interface Raw extends NotesRaw {
  code: string;
  blob_id: string;
  filename: string;
  total_slides: number;
  bytes: string | number;
  sha256: string;
  presenter_hash: string;
  control_hash: string;
  control_generation: number;
  allow_download: boolean;
  created_at: string | number;
  expires_at: string | number;
  ended_at: string | number | null;
  end_reason: LiveEndReason | null;
  state_json: string | null;
  audience_json?: string | null;
  presenter_seen_at: string | number;
}

/**
 * Every column of a row but the notes text, which only `notesText` reads: written once for the
 * reads and the end's RETURNING (a constant, never input: `sql.unsafe` adds it as written).
 */
const ROW_COLUMNS =
  "code, blob_id, filename, total_slides, bytes, sha256, presenter_hash, control_hash, control_generation, allow_download, created_at, expires_at, ended_at, end_reason, state_json, audience_json, presenter_seen_at, notes_filename, notes_kind, notes_slides";

// bigint columns arrive as strings (exact); every value here is far below 2^53.
const fromRaw = (r: Raw): LiveSessionRow => ({
  code: r.code,
  blobId: r.blob_id,
  filename: r.filename,
  totalSlides: r.total_slides,
  bytes: Number(r.bytes),
  sha256: r.sha256,
  presenterHash: r.presenter_hash,
  controlHash: r.control_hash,
  controlGeneration: r.control_generation,
  allowDownload: r.allow_download,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
  endedAt: r.ended_at === null ? null : Number(r.ended_at),
  endReason: r.end_reason,
  stateJson: r.state_json,
  presenterSeenAt: Number(r.presenter_seen_at),
  audienceJson: r.audience_json ?? null,
  notes: notesFromRaw(r),
});

export class PostgresLiveSessionRepository implements LiveSessionRepository {
  constructor(private readonly db: PostgresDatabase) {}

  private async sql() {
    await this.db.ready;
    return this.db.sql;
  }

  async insert(row: LiveSessionRow, notesText: string | null = null): Promise<boolean> {
    const sql = await this.sql();
    const n = notesParams(row.notes, notesText);
    const rows = (await sql`INSERT INTO live_sessions (code, blob_id, filename, total_slides, bytes, sha256, presenter_hash, control_hash, control_generation, allow_download, created_at, expires_at, ended_at, end_reason, state_json, presenter_seen_at,
                                                       notes_filename, notes_kind, notes_slides, notes_pdfpc)
      VALUES (${row.code}, ${row.blobId}, ${row.filename}, ${row.totalSlides}, ${row.bytes}, ${row.sha256}, ${row.presenterHash}, ${row.controlHash}, ${row.controlGeneration},
              ${row.allowDownload}, ${row.createdAt}, ${row.expiresAt}, ${row.endedAt}, ${row.endReason}, ${row.stateJson}, ${row.presenterSeenAt},
              ${n.notesFilename}, ${n.notesKind}, ${n.notesSlides}, ${n.notesPdfpc})
      ON CONFLICT (code) DO NOTHING RETURNING code`) as { code: string }[];
    return rows.length === 1;
  }

  async get(code: string): Promise<LiveSessionRow | null> {
    const sql = await this.sql();
    const [raw] = (await sql`SELECT ${sql.unsafe(ROW_COLUMNS)} FROM live_sessions WHERE code = ${code}`) as Raw[];
    return raw ? fromRaw(raw) : null;
  }

  async notesText(code: string): Promise<string | null> {
    const sql = await this.sql();
    const [raw] = (await sql`SELECT notes_pdfpc FROM live_sessions WHERE code = ${code} AND ended_at IS NULL`) as { notes_pdfpc: string | null }[];
    return raw?.notes_pdfpc ?? null;
  }

  async end(code: string, reason: LiveEndReason, now: number): Promise<LiveSessionRow | null> {
    const sql = await this.sql();
    const [raw] = (await sql`UPDATE live_sessions SET ended_at = ${now}, end_reason = ${reason}, audience_json = NULL, notes_pdfpc = NULL
                             WHERE code = ${code} AND ended_at IS NULL RETURNING ${sql.unsafe(ROW_COLUMNS)}`) as Raw[];
    return raw ? fromRaw(raw) : null;
  }

  async rotateControl(code: string, controlHash: string): Promise<number | null> {
    const sql = await this.sql();
    const [row] = (await sql`UPDATE live_sessions SET control_hash = ${controlHash}, control_generation = control_generation + 1
                             WHERE code = ${code} AND ended_at IS NULL RETURNING control_generation`) as { control_generation: number }[];
    return row?.control_generation ?? null;
  }

  async saveState(code: string, stateJson: string): Promise<void> {
    const sql = await this.sql();
    await sql`UPDATE live_sessions SET state_json = ${stateJson} WHERE code = ${code} AND ended_at IS NULL`;
  }

  async saveAudience(code: string, audienceJson: string): Promise<void> {
    const sql = await this.sql();
    await sql`UPDATE live_sessions SET audience_json = ${audienceJson} WHERE code = ${code} AND ended_at IS NULL`;
  }

  async touchPresenter(code: string, now: number): Promise<void> {
    const sql = await this.sql();
    await sql`UPDATE live_sessions SET presenter_seen_at = ${now} WHERE code = ${code} AND ended_at IS NULL`;
  }

  async presenterGoneCodes(before: number, limit: number): Promise<string[]> {
    const sql = await this.sql();
    const rows = (await sql`SELECT code FROM live_sessions WHERE ended_at IS NULL AND presenter_seen_at < ${before} LIMIT ${limit}`) as { code: string }[];
    return rows.map((r) => r.code);
  }

  async setAllowDownload(code: string, allow: boolean): Promise<void> {
    const sql = await this.sql();
    await sql`UPDATE live_sessions SET allow_download = ${allow} WHERE code = ${code}`;
  }

  async dueCodes(now: number, limit: number): Promise<string[]> {
    const sql = await this.sql();
    const rows = (await sql`SELECT code FROM live_sessions WHERE ended_at IS NULL AND expires_at <= ${now} LIMIT ${limit}`) as { code: string }[];
    return rows.map((r) => r.code);
  }

  async openBlobsAmong(blobIds: string[]): Promise<Set<string>> {
    if (blobIds.length === 0) return new Set();
    const sql = await this.sql();
    const rows = (await sql`SELECT blob_id FROM live_sessions WHERE ended_at IS NULL AND blob_id = ANY(${sql.array(blobIds, "TEXT")})`) as { blob_id: string }[];
    return new Set(rows.map((r) => r.blob_id));
  }

  async openByAge(limit: number): Promise<{ code: string; bytes: number }[]> {
    const sql = await this.sql();
    const rows = (await sql`SELECT code, bytes FROM live_sessions WHERE ended_at IS NULL ORDER BY created_at, code LIMIT ${limit}`) as { code: string; bytes: string }[];
    return rows.map((r) => ({ code: r.code, bytes: Number(r.bytes) }));
  }

  async openBytes(): Promise<number> {
    const sql = await this.sql();
    const [row] = (await sql`SELECT COALESCE(SUM(bytes), 0) AS total FROM live_sessions WHERE ended_at IS NULL`) as { total: string }[];
    return Number(row?.total ?? 0);
  }

  async purgeEnded(before: number): Promise<number> {
    const sql = await this.sql();
    const rows = (await sql`DELETE FROM live_sessions WHERE ended_at IS NOT NULL AND ended_at < ${before} RETURNING code`) as { code: string }[];
    return rows.length;
  }

  async insertGrant(grant: LiveGrantRow): Promise<void> {
    const sql = await this.sql();
    await sql`INSERT INTO live_grants (hash, sha256, expires_at) VALUES (${grant.hash}, ${grant.sha256}, ${grant.expiresAt})
              ON CONFLICT (hash) DO UPDATE SET sha256 = EXCLUDED.sha256, expires_at = EXCLUDED.expires_at`;
  }

  async getGrant(hash: string, now: number): Promise<LiveGrantRow | null> {
    const sql = await this.sql();
    const [raw] = (await sql`SELECT * FROM live_grants WHERE hash = ${hash} AND expires_at > ${now}`) as { hash: string; sha256: string; expires_at: string }[];
    return raw ? { hash: raw.hash, sha256: raw.sha256, expiresAt: Number(raw.expires_at) } : null;
  }

  async purgeGrants(now: number): Promise<number> {
    const sql = await this.sql();
    const rows = (await sql`DELETE FROM live_grants WHERE expires_at <= ${now} RETURNING hash`) as { hash: string }[];
    return rows.length;
  }
}
