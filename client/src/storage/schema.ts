/**
 * @module client/storage/schema
 * The browser's IndexedDB schema for stored decks, as a list of migrations. Decks must
 * survive app updates, so the schema only ever grows: a new version appends a migration,
 * never edits an old one, and stores are only ever added.
 */
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from "idb";

/** Do not change without a migration: a new name would orphan every deck in every browser. */
export const DB_NAME = "deckhand";

export type DeckSource = "handoff" | "local";

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
}

export interface DeckBytesRecord {
  id: string;
  data: ArrayBuffer;
}

/** Where the presenter was, so a reload returns to the same slide. */
export interface ProgressRecord {
  deckId: string;
  slide: number;
  updatedAt: number;
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

export interface DeckhandDB extends DBSchema {
  decks: { key: string; value: DeckRecord; indexes: { byHandoff: string; byAddedAt: number } };
  deckBytes: { key: string; value: DeckBytesRecord };
  progress: { key: string; value: ProgressRecord };
  thumbnails: { key: string; value: ThumbnailRecord };
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
