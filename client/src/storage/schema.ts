/**
 * @module client/storage/schema
 * The browser's IndexedDB schema for stored decks, as a list of migrations. Decks must
 * survive app updates, so the schema only ever grows: a new version appends a migration,
 * never edits an old one, and stores are only ever added.
 */
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from "idb";
import type { NotesPosition } from "../../../src/deck/notes-layout.ts";
import type { NotesFileKind } from "../../../src/deck/notes-file/types.ts";
import type { TalkRecord } from "../live/talk-export.ts";
import type { StoredEvent } from "../record/compact.ts";
import type { TimelineEvent } from "../record/timeline.ts";

/** Do not change without a migration: a new name would orphan every deck in every browser. */
export const DB_NAME = "deckhand";

export type DeckSource = "handoff" | "local";

/**
 * The timer as the speaker set it in the presenter (pdfpc's duration / end time / last
 * minutes); each field absent is left to the notes file, a `.pdfpc` or XMP.
 */
export interface DeckTimerSettings {
  /** Talk length in minutes. */
  durationMinutes?: number;
  /** Wall-clock end time "HH:MM". */
  endTime?: string;
  /** Minutes before the end when the timer warns. */
  lastMinutes?: number;
}

/**
 * A notes file that came beside the PDF (a `.pdfpc` or a PowerPoint `.pptx`), kept as the
 * normalised `.pdfpc` text (format 2) it was turned into: the presenter hands that text to
 * readDeckExtras, whatever the original was. The original bytes are not kept.
 */
export interface DeckNotes {
  /** The name it came with (path parts removed), shown in the library. */
  filename: string;
  /** What it was before it was normalised. */
  kind: NotesFileKind;
  /** The normalised `.pdfpc` JSON text, format 2. */
  pdfpc: string;
}

/** What the library lists. Bytes live in their own store so listing stays cheap. */
export interface DeckRecord {
  /** First 16 hex digits of the SHA-256 of the PDF: the same file is one deck. */
  id: string;
  title: string;
  filename: string;
  totalSlides: number;
  bytes: number;
  /** Lower-case hex SHA-256 of the stored bytes. */
  sha256: string;
  addedAt: number;
  source: DeckSource;
  /** The handoff session id when the deck came from a handoff link. */
  handoffId?: string;
  /** When the server confirmed the claim; absent while the claim is pending. */
  handoffCompletedAt?: number;
  lastOpenedAt?: number;
  /**
   * Size of page 1 in points and every page's label, once a worker has read them (at claim or
   * local import, or at the first presenting): the presenter sizes its skeleton and counter
   * from these before mupdf has even loaded.
   */
  pageSize?: { w: number; h: number };
  labels?: string[];
  /**
   * The live grant the server issued at claim (bound to this deck's sha256, short-lived): it
   * lets this browser go live on a `--require-auth` server without an access token.
   */
  liveGrant?: { grant: string; expiresAt: string };
  /**
   * The notes file beside the PDF (from the handoff, or added in the library); absent when
   * none. An optional field: records from before it read as "no notes file".
   */
  notes?: DeckNotes;
  /** The presenter's override of the notes layout (pdfpc's `-n`); absent: as detected. */
  notesPosition?: NotesPosition;
  /** The presenter's own timer settings; they override the notes file, a .pdfpc and XMP. */
  timerSettings?: DeckTimerSettings;
  /** Open Q&A whenever this deck goes live (issue 23); absent: Q&A starts closed. */
  qaOpenByDefault?: boolean;
}

export interface DeckBytesRecord {
  id: string;
  data: ArrayBuffer;
}

/** Where the presenter was, so a reload (or a crash) returns to the same page and timer. */
export interface ProgressRecord {
  deckId: string;
  /** The PDF page (1-based) the presenter was on. */
  slide: number;
  updatedAt: number;
  /** The talk timer (client/lib/timer.ts); absent in records from before v4. */
  timer?: unknown;
  /** The bookmarked page (pdfpc's `m`); absent when none (and before v5). */
  bookmark?: number;
  /** Rehearsal: seconds per slide of this run and the previous one (presenter/state.ts SlideTimes). */
  slideTimes?: unknown;
  /** What the talk is paced against (presenter/state.ts PaceChoice); absent: the rehearsal (no migration: an optional field). */
  pace?: string;
}

/**
 * The ink drawn on one page of one deck: its strokes (presenter/ink.ts Stroke), in PDF
 * points from the page's top-left. Keyed by deck and page; deleted with the deck.
 */
export interface InkRecord {
  /** `${deckId} ${page}` (a space never occurs in a deck id). */
  key: string;
  deckId: string;
  page: number;
  strokes: unknown[];
  updatedAt: number;
}

/**
 * A medium of a `kind: "url"` media sidecar, fetched once while online (where its origin
 * allows it: CORS), so the deck plays it offline. Keyed by deck and URL.
 */
export interface MediaFileRecord {
  /** `${deckId} ${url}` (a space never occurs in a deck id). */
  key: string;
  deckId: string;
  url: string;
  data: ArrayBuffer;
  mime: string;
  fetchedAt: number;
}

/**
 * A small picture of a deck's first page for the library. Keyed like the deck; the bytes of
 * a deck id never change (the id is their digest), so a thumbnail stays valid until its
 * deck is deleted, or until `width` differs from what the library asks for now.
 */
export interface ThumbnailRecord {
  id: string;
  /** An encoded image (WebP where the browser can encode it, else PNG). */
  image: Blob;
  /** Pixel size of the image. */
  width: number;
  height: number;
  createdAt: number;
}

/**
 * A live session this browser presents (keyed by deck): its code and the presenter secret,
 * so a reload of the presenter window reconnects and can still end it. The secret never goes
 * into a URL; only here and in the socket's first message.
 */
export interface LiveSessionRecord {
  deckId: string;
  code: string;
  presenterSecret: string;
  viewerUrl: string;
  controlUrl: string;
  expiresAt: string;
  allowDownload: boolean;
  startedAt: number;
}

/**
 * A deck a live viewer downloaded (keyed by talk code), digest-checked, so a reconnect or a
 * reload never downloads it again. Apart from `decks`: the library lists only decks one
 * presents.
 */
export interface LiveDeckRecord {
  code: string;
  sha256: string;
  filename: string;
  data: ArrayBuffer;
  storedAt: number;
}

/**
 * A recording of a talk or a rehearsal (client/record/): the microphone's sound and the
 * audience window's timeline, kept in pieces (RecordingPiece) with their deck until deleted.
 * `durationMs` and `bytes` grow with every piece, in the piece's own transaction, so a crash
 * leaves them true for what was kept.
 */
export interface RecordingRecord {
  id: string;
  deckId: string;
  kind: "talk" | "rehearsal";
  title: string;
  createdAt: number;
  updatedAt: number;
  /**
   * "recording" while a presenter window writes it; "interrupted" once a window found it so
   * with nobody writing (a crash, a reload, a closed tab) — it can be continued or kept;
   * "stopped" when finished.
   */
  state: "recording" | "interrupted" | "stopped";
  /** Milliseconds on the recording's clock (sound recorded; paused time does not count). */
  durationMs: number;
  /** Bytes of sound and timeline kept. */
  bytes: number;
  /** The sound's container and codec as the browser recorded it; null: no microphone (a silent rehearsal). */
  audio: { mimeType: string } | null;
  /** Recording sessions: a continue after a reload opens a new one (each piece says which). */
  segments: number;
  /** The deck's page labels when it was recorded (the player's and the export's slide names). */
  labels: string[];
}

/**
 * About a second of a recording: the sound recorded in it (a slice of its segment's container
 * stream: a segment's pieces in `seq` order concatenate into one file) and the timeline's
 * events of that second, written together in one transaction as they come.
 */
export interface RecordingPiece {
  /** `${recordingId}:${seq padded to 8 digits}`: key order is the recording's order. */
  key: string;
  recordingId: string;
  seq: number;
  segment: number;
  /** The stretch of the recording's clock this piece covers. */
  startMs: number;
  endMs: number;
  audio?: Blob;
  events: TimelineEvent[];
}

/**
 * A piece as IndexedDB keeps it: its sound as bytes, not a Blob (WebKit aborts a transaction
 * that stores a Blob where its IndexedDB keeps no files: MiniBrowser under automation,
 * private windows), and its events compacted (client/record/compact.ts).
 */
export type StoredRecordingPiece = Omit<RecordingPiece, "events" | "audio"> & { audio?: ArrayBuffer; events: StoredEvent[] };

export interface DeckhandDB extends DBSchema {
  decks: { key: string; value: DeckRecord; indexes: { byHandoff: string; byAddedAt: number } };
  deckBytes: { key: string; value: DeckBytesRecord };
  progress: { key: string; value: ProgressRecord };
  thumbnails: { key: string; value: ThumbnailRecord };
  mediaFiles: { key: string; value: MediaFileRecord; indexes: { byDeck: string } };
  ink: { key: string; value: InkRecord; indexes: { byDeck: string } };
  liveSessions: { key: string; value: LiveSessionRecord };
  liveDecks: { key: string; value: LiveDeckRecord };
  talks: { key: string; value: TalkRecord; indexes: { byDeck: string } };
  recordings: { key: string; value: RecordingRecord; indexes: { byDeck: string } };
  recordingPieces: { key: string; value: StoredRecordingPiece; indexes: { byRecording: string } };
}

export type AnyDB = IDBPDatabase<DeckhandDB>;
export type UpgradeTx = IDBPTransaction<DeckhandDB, StoreNames<DeckhandDB>[], "versionchange">;
/** One schema step. Index i upgrades version i to version i + 1. */
export type Migration = (db: AnyDB, tx: UpgradeTx) => void;

export const MIGRATIONS: readonly Migration[] = [
  // v1: decks (metadata) and their bytes, kept apart so the library never loads PDFs.
  (db) => {
    const decks = db.createObjectStore("decks", { keyPath: "id" });
    decks.createIndex("byAddedAt", "addedAt");
    db.createObjectStore("deckBytes", { keyPath: "id" });
  },
  // v2: find the deck of a handoff link (the "already claimed — open it" button), and
  // remember the slide the presenter was on.
  (db, tx) => {
    tx.objectStore("decks").createIndex("byHandoff", "handoffId");
    db.createObjectStore("progress", { keyPath: "deckId" });
  },
  // v3: first-page thumbnails for the library, apart from the deck records so a thumbnail
  // can be added later to decks stored before this version (the library renders them lazily).
  (db) => {
    db.createObjectStore("thumbnails", { keyPath: "id" });
  },
  // v4: URL media fetched for offline playing, per deck (deleted with it). Progress records
  // may now carry the talk timer: an optional field, so no step is needed for them.
  (db) => {
    db.createObjectStore("mediaFiles", { keyPath: "key" }).createIndex("byDeck", "deckId");
  },
  // v5: ink per deck and page (the stage tools), deleted with its deck. Progress records may
  // now carry the bookmark and the rehearsal's slide times: optional fields, no step needed.
  (db) => {
    db.createObjectStore("ink", { keyPath: "key" }).createIndex("byDeck", "deckId");
  },
  // v6: live presenting — the sessions this browser presents (code and presenter secret, by
  // deck) and the decks it downloaded as a live viewer (by talk code). Deck records may now
  // carry the live grant issued at claim: an optional field, no step needed.
  (db) => {
    db.createObjectStore("liveSessions", { keyPath: "deckId" });
    db.createObjectStore("liveDecks", { keyPath: "code" });
  },
  // (Deck records may now also carry a notes file, a notes-layout override and the
  // presenter's timer settings: optional fields of the record, so no version and no step.)
  // v7: what a live talk's audience gave (questions, polls, reactions per slide), by deck and
  // talk code, kept for export until the deck is deleted. Deck records may now carry the Q&A
  // default: an optional field, no step needed.
  (db) => {
    db.createObjectStore("talks", { keyPath: "key" }).createIndex("byDeck", "deckId");
  },
  // v8: recordings of talks and rehearsals (sound and the audience window's timeline), by
  // deck, and their pieces of about a second each, by recording; deleted with their deck.
  (db) => {
    db.createObjectStore("recordings", { keyPath: "id" }).createIndex("byDeck", "deckId");
    db.createObjectStore("recordingPieces", { keyPath: "key" }).createIndex("byRecording", "recordingId");
  },
];

export const DB_VERSION = MIGRATIONS.length;

/** Run the migrations from `oldVersion` up to `newVersion` inside the upgrade transaction. */
export function runMigrations(
  db: AnyDB,
  tx: UpgradeTx,
  oldVersion: number,
  newVersion: number,
  migrations: readonly Migration[] = MIGRATIONS,
): void {
  for (let v = oldVersion; v < newVersion; v++) {
    const step = migrations[v];
    if (!step) throw new Error(`No migration from version ${v} to ${v + 1}`);
    step(db, tx);
  }
}
