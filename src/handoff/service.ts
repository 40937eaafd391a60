/**
 * @module handoff/service
 * The handoff domain: stage an uploaded PDF, serve it to the holder of the controller token,
 * claim it (staged → claimed, bytes deleted) and expire it (staged → expired). No HTTP here.
 *
 * Crash safety comes from the order of steps: bytes are complete and validated in a temp
 * file, stored under their id (renamed into place, or uploaded to a bucket), and only then is
 * the row written. A crash before the row leaves bytes without a row (removed by the
 * sweeper); never a row without its bytes. Storage is reached through the ports in
 * `src/core/`, all asynchronous: the same code runs on SQLite + files and PostgreSQL + S3.
 */
import type { Clock } from "../core/clock.ts";
import { AppError } from "../base/errors.ts";
import { errorFields, type Logger } from "../base/log.ts";
import type { PdfReader } from "../core/pdf-reader.ts";
import type { BlobStore } from "../core/blobs.ts";
import { SOLE_INSTANCE, type SweepLease } from "../core/coordination.ts";
import type { ReceivedUpload } from "../core/received-upload.ts";
import { type SessionNotes, type SessionRepository, type SessionRow, TOMBSTONE_TTL_MS } from "../core/sessions.ts";
import { displayTitle } from "../security/filename.ts";
import { inspectUpload } from "../upload/inspect.ts";
import type { HandoffRecord } from "../shared/handoff-record.ts";
import { isoSeconds } from "../tools/time.ts";
import { newControllerToken, newSessionId, SESSION_ID_PATTERN, sha256Hex, tokenMatches } from "../security/secrets.ts";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** Lifetime of an unclaimed handoff uploaded without a token: 24 h, the documented lifetime (docs/api/rest.md). */
export const ANONYMOUS_TTL_MS = 24 * HOUR;
/** Lifetime of an unclaimed handoff uploaded with a valid Bearer token: 7 days, so an agent can stage a talk well ahead. */
export const AUTHENTICATED_TTL_MS = 7 * DAY;

/** A staged deck's notes, for the holder of its controller token. */
export interface StagedNotesText {
  notes: SessionNotes;
  /** The normalised `.pdfpc` text (JSON, format 2). */
  pdfpc: string;
}

export interface SweepResult {
  /** False when another instance held the sweep lease: this sweep was skipped. */
  swept: boolean;
  expired: number;
  purgedTombstones: number;
  removedTemps: number;
  removedOrphans: number;
}

export interface HandoffDeps {
  sessions: SessionRepository;
  blobs: BlobStore;
  /** Validates PDFs off the event loop. */
  pdf: PdfReader;
  clock: Clock;
  maxStagedBytes: number;
  /** One sweeper at a time across instances (default: this process is the only one). */
  sweepLease?: SweepLease;
  /** Where a failure that changes no answer is reported (a claimed deck's bytes not deleted). */
  logger?: Pick<Logger, "error">;
  /** Which listed blob ids other owners (open live sessions) still hold: not orphans. */
  keepBlobs?: (ids: string[]) => Promise<Set<string>>;
}

/**
 * A deck's size as the presenter counts it: "12 slides" where every page is a slide, else the
 * pages and the slides both ("79 pages, 54 slides": overlays and builds are pages of one slide).
 */
export function deckSize(pages: number, slides: number): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return slides === pages || slides < 1 ? plural(pages, "slide") : `${plural(pages, "page")}, ${plural(slides, "slide")}`;
}

/** Handoff link: the controller token rides in the fragment, so it never reaches a server. */
export function handoffUrl(baseUrl: string, id: string, token: string): string {
  return `${baseUrl}/start/${id}#t=${token}`;
}

/** Expired decks (and old tombstones) handled per step of a sweep, between which requests run. */
const SWEEP_BATCH = 100;
/** Listed ids whose rows are looked up in one query by the orphan sweep. */
const ORPHAN_BATCH = 1000;

export class HandoffService {
  constructor(private readonly deps: HandoffDeps) {}

  /**
   * Throw STORAGE_FULL if `bytes` more would exceed the staging quota now. A fast early
   * answer only: the binding check is the one made with the insert (see stage).
   */
  async assertCapacity(bytes: number): Promise<void> {
    if ((await this.deps.sessions.stagedBytes()) + bytes > this.deps.maxStagedBytes) throw new AppError("STORAGE_FULL");
  }

  /**
   * Validate a fully received upload (and its notes file) and stage it. Consumes
   * `upload.temp` in every case: it is either moved into place or deleted; the notes file's
   * temp is always deleted (its notes go into the row).
   */
  async stage(upload: ReceivedUpload, options: { authenticated: boolean; baseUrl: string }): Promise<HandoffRecord> {
    try {
      await this.assertCapacity(upload.bytes);
      const { info, notes, notesText, notesWarnings } = await inspectUpload(this.deps.pdf, upload);
      const now = this.deps.clock();
      const id = newSessionId();
      const token = newControllerToken();
      // Whole seconds, so the stored expiry equals the one we print.
      const expiresAt = Math.floor((now + (options.authenticated ? AUTHENTICATED_TTL_MS : ANONYMOUS_TTL_MS)) / 1000) * 1000;
      const row: SessionRow = {
        id,
        tokenHash: sha256Hex(token),
        filename: displayTitle(upload.uploadName),
        totalSlides: info.pageCount,
        bytes: upload.bytes,
        sha256: upload.sha256,
        state: "staged",
        authenticated: options.authenticated,
        createdAt: now,
        expiresAt,
        endedAt: null,
        notes,
      };
      // Bytes first, then the row: a crash in between leaves a file without a row (swept),
      // never a row without its file. The store keeps the sweeper off `id` until it settles.
      await this.deps.blobs.commit(upload.temp, id);
      try {
        if (!(await this.deps.sessions.insertWithinQuota(row, this.deps.maxStagedBytes, notesText))) throw new AppError("STORAGE_FULL");
      } catch (error) {
        await this.deps.blobs.remove(id);
        throw error;
      } finally {
        this.deps.blobs.settle(id);
      }
      return this.record(row, handoffUrl(options.baseUrl, id, token), notesWarnings, info.slides);
    } finally {
      await Promise.all([upload.temp.discard(), upload.notes?.temp.discard()]);
    }
  }

  /**
   * The handoff record of a staged row; `notesWarnings` are its notes file's warnings, `slides`
   * the slides the presenter will count (pdf/open inspectPdf). `totalSlides` stays the page count;
   * the sentence names both where builds make them differ ("79 pages, 54 slides").
   */
  record(row: SessionRow, url: string, notesWarnings: Array<{ code: string; message: string }> = [], slides = row.totalSlides): HandoffRecord {
    const expiresAt = isoSeconds(row.expiresAt);
    const size = deckSize(row.totalSlides, slides);
    const withNotes = row.notes ? `, with speaker notes from "${row.notes.filename}"` : "";
    return {
      id: row.id,
      url,
      filename: row.filename,
      totalSlides: row.totalSlides,
      next: `Open url in a browser to present "${row.filename}" (${size}${withNotes}). The link works once and expires at ${expiresAt}.`,
      expiresAt,
      bytes: row.bytes,
      sha256: row.sha256,
      ...(row.notes ? { notes: { ...row.notes, warnings: notesWarnings } } : {}),
    };
  }

  /** The staged row for a download by the token holder, or the reason it cannot be had. */
  async resolveDownload(id: string, token: string | null | undefined): Promise<SessionRow> {
    const row = await this.authorize(id, token);
    this.assertLive(row);
    return row;
  }

  /**
   * The notes of a staged deck for the holder of its token (the same answers as a download:
   * 401/403/404/410); null when the deck came without notes. Judged again after the read, as
   * the download is: a claim or an expiry that lands meanwhile is a 410, never notes of a
   * deck that is gone.
   */
  async notesFor(id: string, token: string | null | undefined): Promise<StagedNotesText | null> {
    const row = await this.resolveDownload(id, token);
    if (!row.notes) return null;
    const pdfpc = await this.deps.sessions.notesText(id);
    if (pdfpc === null) {
      const now = await this.deps.sessions.get(id);
      if (now) this.assertLive(now);
      throw new AppError("INTERNAL", undefined, { cause: new Error(`the notes text of staged session ${id} is missing`) });
    }
    return { notes: row.notes, pdfpc };
  }

  /** Claim the handoff: the browser holds the deck now, so the server copy goes. `claimedAt`: when the (first) claim was made. */
  async complete(id: string, token: string | null | undefined, browserSha256?: string): Promise<{ ok: true; claimedAt: number }> {
    const row = await this.authorize(id, token);
    const mismatch = browserSha256 !== undefined && browserSha256.toLowerCase() !== row.sha256;
    if (row.state === "claimed") {
      // A retry after a lost response must not look like a failure; it changes nothing. But a
      // retry with another digest is not that retry: those bytes were never the deck.
      if (mismatch) {
        throw new AppError("CHECKSUM_MISMATCH", "The digest sent differs from the deck this link handed over, which was already claimed; the bytes you hold are not that deck.");
      }
      return { ok: true, claimedAt: row.endedAt ?? this.deps.clock() };
    }
    this.assertLive(row);
    if (mismatch) {
      throw new AppError(
        "CHECKSUM_MISMATCH",
        "The deck stored in the browser differs from the server copy; the handoff is still open, so download it again.",
      );
    }
    const claimed = await this.deps.sessions.claim(id, this.deps.clock());
    if (!claimed) {
      // Lost a race: either another complete won (fine) or it expired meanwhile.
      const now = await this.deps.sessions.get(id);
      if (now?.state === "claimed") return { ok: true, claimedAt: now.endedAt ?? this.deps.clock() };
      throw new AppError("HANDOFF_EXPIRED");
    }
    // The claim holds whatever happens to the bytes now: the browser has the deck. Bytes that
    // cannot be deleted (a storage hiccup, or a crash right here) are bytes without a staged
    // row, which the orphan sweep removes; the caller is told the truth, that it worked.
    try {
      await this.deps.blobs.remove(id);
    } catch (error) {
      this.deps.logger?.error("claimed_bytes_not_deleted", { session: id, ...errorFields(error) });
    }
    return { ok: true, claimedAt: claimed.endedAt ?? this.deps.clock() };
  }

  /**
   * The error for a staged row whose bytes are gone: a claim that just won (410), or bytes
   * lost outside deckhand (500, logged by the caller's error handler).
   */
  async missingBytes(id: string): Promise<AppError> {
    const row = await this.deps.sessions.get(id);
    if (row?.state === "claimed") return new AppError("HANDOFF_CLAIMED");
    return new AppError("INTERNAL", undefined, { cause: new Error(`staged bytes of session ${id} are missing`) });
  }

  /**
   * Expire due sessions, purge old tombstones, remove temp leftovers and orphan bytes — in
   * batches, with the event loop free between them, on one instance at a time (the sweep
   * lease). The bytes of an expired deck are deleted before its row is marked: on a full disk
   * the row update may fail, but the deletion frees the space it needs (and expiry already
   * holds by time at every access).
   */
  async sweep(): Promise<SweepResult> {
    const result = await (this.deps.sweepLease ?? SOLE_INSTANCE).runExclusive(() => this.sweepNow());
    return result ?? { swept: false, expired: 0, purgedTombstones: 0, removedTemps: 0, removedOrphans: 0 };
  }

  private async sweepNow(): Promise<SweepResult> {
    const now = this.deps.clock();
    let expired = 0;
    for (;;) {
      const due = await this.deps.sessions.dueIds(now, SWEEP_BATCH);
      if (due.length === 0) break;
      for (const id of due) await this.deps.blobs.remove(id);
      expired += await this.deps.sessions.markExpired(due, now);
      if (due.length < SWEEP_BATCH) break;
    }
    let purgedTombstones = 0;
    for (;;) {
      const purged = await this.deps.sessions.purgeEnded(now - TOMBSTONE_TTL_MS, SWEEP_BATCH);
      purgedTombstones += purged;
      if (purged < SWEEP_BATCH) break;
    }
    const removedTemps = await this.deps.blobs.sweepTemps();
    // Bytes first, rows second: an id listed while no commit held it had its row written
    // before the listing (or never will), so asking for rows afterwards cannot miss it.
    const listed = await this.deps.blobs.listIds();
    let removedOrphans = 0;
    for (let i = 0; i < listed.length; i += ORPHAN_BATCH) {
      const batch = listed.slice(i, i + ORPHAN_BATCH);
      const staged = await this.deps.sessions.stagedAmong(batch);
      const kept = (await this.deps.keepBlobs?.(batch)) ?? new Set<string>();
      for (const id of batch) if (!staged.has(id) && !kept.has(id) && (await this.deps.blobs.remove(id))) removedOrphans++;
    }
    return { swept: true, expired, purgedTombstones, removedTemps, removedOrphans };
  }

  /** The session, if `token` controls it: 401 without a token, 404 unknown id, 403 wrong token. */
  async authorize(id: string, token: string | null | undefined): Promise<SessionRow> {
    if (!token) throw new AppError("TOKEN_MISSING");
    const row = SESSION_ID_PATTERN.test(id) ? await this.deps.sessions.get(id) : null;
    if (!row) throw new AppError("SESSION_NOT_FOUND");
    if (!tokenMatches(token, row.tokenHash)) throw new AppError("TOKEN_INVALID");
    return row;
  }

  private assertLive(row: SessionRow): void {
    if (row.state === "claimed") throw new AppError("HANDOFF_CLAIMED");
    // Expiry holds at every access, even before the sweeper has run.
    if (row.state === "expired" || row.expiresAt <= this.deps.clock()) throw new AppError("HANDOFF_EXPIRED");
  }
}
