/**
 * @module core/sessions
 * The rows of handoff sessions, as the domain needs them. `store/` implements this port for
 * SQLite (the embedded default) and PostgreSQL; the contract both must keep is
 * test/store/contract.ts. Every call is asynchronous: a row may live across a network.
 */

/**
 * Ended sessions (handoffs and live talks) stay as byte-less tombstones this long so late
 * requests get 410, not 404: the age past which `purgeEnded` may drop them.
 */
export const TOMBSTONE_TTL_MS = 7 * 24 * 60 * 60_000;

export type SessionState = "staged" | "claimed" | "expired";

/**
 * The notes file that came beside a staged PDF (docs/decks/notes-formats.md), as the row
 * describes it. Its normalised `.pdfpc` text is stored with the row too but read on its own
 * (`notesText`): every other access to a row leaves it out.
 */
export interface SessionNotes {
  /** The notes file's name as uploaded (path parts and control characters removed). */
  filename: string;
  kind: "pdfpc" | "pptx";
  /** Slides the file gives notes for. */
  slides: number;
}

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
  /** The notes file that came with the deck; null when none did. */
  notes: SessionNotes | null;
}

export interface SessionRepository {
  /**
   * Insert a staged row if the staged bytes stay within `maxStagedBytes`, in one transaction
   * with that check (so concurrent uploads, on one instance or several, cannot overshoot
   * together). False when the quota would be exceeded: nothing was written.
   */
  insertWithinQuota(row: SessionRow, maxStagedBytes: number, notesText?: string | null): Promise<boolean>;
  get(id: string): Promise<SessionRow | null>;
  /**
   * The normalised `.pdfpc` text stored with a row by `insertWithinQuota`: null when the deck
   * came without notes, or once the row is no longer staged (the claim and the expiry clear it
   * in the same statement that ends the row: no notes are kept after the bytes go).
   */
  notesText(id: string): Promise<string | null>;
  /**
   * staged → claimed if still staged and unexpired at `now`, in one conditional statement
   * (`UPDATE … WHERE state = 'staged' AND expires_at > now RETURNING …`): of any number of
   * concurrent claims, on any number of instances, exactly one gets the row; the others null.
   * The notes text goes with the state change.
   */
  claim(id: string, now: number): Promise<SessionRow | null>;
  /** Ids of at most `limit` staged rows past their expiry at `now` (reads only). */
  dueIds(now: number, limit: number): Promise<string[]>;
  /** staged → expired (notes text cleared) for those of `ids` still staged and past expiry; returns how many. */
  markExpired(ids: string[], now: number): Promise<number>;
  /** Delete at most `limit` tombstones that ended before `before`; returns how many. */
  purgeEnded(before: number, limit: number): Promise<number>;
  /** Bytes of all staged rows (a running total kept with the rows, not a sum over them). */
  stagedBytes(): Promise<number>;
  /** Which of `ids` are staged rows (the orphan sweep asks about the objects it listed). */
  stagedAmong(ids: string[]): Promise<Set<string>>;
}
