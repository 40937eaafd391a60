/**
 * @module core/live-sessions
 * The rows of live sessions and of live grants, as the live domain needs them.
 * Implemented for SQLite (store/live-sessions.ts) and PostgreSQL (store/postgres/live-sessions.ts);
 * the contract both keep is test/live/repository.test.ts.
 */
import type { SessionNotes } from "./sessions.ts";

export type LiveEndReason = "ended" | "expired" | "presenter-gone" | "quota";

export interface LiveSessionRow {
  code: string;
  /** The blob id of the deck's bytes (`live-{code}`). */
  blobId: string;
  filename: string;
  totalSlides: number;
  bytes: number;
  sha256: string;
  presenterHash: string;
  controlHash: string;
  /** Bumped by each rotation of the control secret; sockets of an older generation are closed. */
  controlGeneration: number;
  allowDownload: boolean;
  createdAt: number;
  expiresAt: number;
  endedAt: number | null;
  endReason: LiveEndReason | null;
  /** The last snapshot ({seq, state}) as JSON, so a restarted server resyncs its clients. */
  stateJson: string | null;
  /**
   * When the presenter was last known connected (going live, its joins and leaves, and
   * periodically while connected): the sweep ends talks whose presenter has been away
   * longer than --live-presenter-grace, even if no instance has them loaded.
   */
  presenterSeenAt: number;
  /**
   * The audience's questions, poll and reactions as JSON (src/live/audience/model.ts's
   * snapshot), so a restart keeps them; null when there is none, and again once the talk ends.
   */
  audienceJson: string | null;
  /**
   * The notes file the presenter sent with the deck (the `notes` part of going live), as a
   * handoff row describes its own: null when none came. Its normalised `.pdfpc` text is stored
   * with the row but read on its own (`notesText`), and only by the remote and the presenter.
   */
  notes: SessionNotes | null;
}

export interface LiveGrantRow {
  hash: string;
  sha256: string;
  expiresAt: number;
}

export interface LiveSessionRepository {
  /**
   * Insert a new row, with `notesText` (the normalised `.pdfpc` text of `row.notes`; stored only
   * when the row describes notes); false when the code is taken (the caller draws another).
   */
  insert(row: LiveSessionRow, notesText?: string | null): Promise<boolean>;
  /** The row (every column but the notes text). */
  get(code: string): Promise<LiveSessionRow | null>;
  /**
   * The notes text stored by `insert`: null when the talk came without notes, or once it has
   * ended (the end clears it in the same statement: no notes are kept after the deck goes).
   */
  notesText(code: string): Promise<string | null>;
  /** Mark ended (once), its audience and notes text cleared; returns the row as it was if this call ended it, else null. */
  end(code: string, reason: LiveEndReason, now: number): Promise<LiveSessionRow | null>;
  /** New control hash; returns the new generation, or null when the session is not open. */
  rotateControl(code: string, controlHash: string): Promise<number | null>;
  saveState(code: string, stateJson: string): Promise<void>;
  /** The audience's snapshot (no-op once ended). */
  saveAudience(code: string, audienceJson: string): Promise<void>;
  /** The presenter was connected at `now` (no-op once ended). */
  touchPresenter(code: string, now: number): Promise<void>;
  /** Codes of open sessions whose presenter was last seen before `before`. */
  presenterGoneCodes(before: number, limit: number): Promise<string[]>;
  setAllowDownload(code: string, allow: boolean): Promise<void>;
  /** Codes of open sessions past expiry at `now`. */
  dueCodes(now: number, limit: number): Promise<string[]>;
  /** Which of `blobIds` belong to open sessions (the orphan sweep keeps them). */
  openBlobsAmong(blobIds: string[]): Promise<Set<string>>;
  /** The oldest open sessions first (code and deck size): whom the quota ends first. */
  openByAge(limit: number): Promise<{ code: string; bytes: number }[]>;
  /** Bytes of all open sessions (they count against --max-staged-gb with staged handoffs). */
  openBytes(): Promise<number>;
  /** Delete ended rows that ended before `before`; returns how many. */
  purgeEnded(before: number): Promise<number>;
  insertGrant(grant: LiveGrantRow): Promise<void>;
  getGrant(hash: string, now: number): Promise<LiveGrantRow | null>;
  purgeGrants(now: number): Promise<number>;
}
