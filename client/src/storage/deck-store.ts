/**
 * @module client/storage/deck-store
 * The decks stored in this browser: one object with `close()` and `hardReset()`, every
 * write in a single transaction so a deck is either fully stored (bytes and metadata) or
 * not at all.
 */
import { deleteDB, openDB } from "idb";
import {
  DB_NAME,
  DB_VERSION,
  MIGRATIONS,
  runMigrations,
  type AnyDB,
  type DeckBytesRecord,
  type DeckRecord,
  type Migration,
  type ProgressRecord,
  type ThumbnailRecord,
} from "./schema.ts";

export type { DeckRecord, ThumbnailRecord } from "./schema.ts";

/** Why storage refused to work, in terms a screen can explain. */
export type StorageFailure = "quota" | "unavailable" | "blocked" | "unknown";

export class StorageError extends Error {
  readonly kind: StorageFailure;
  constructor(kind: StorageFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StorageError";
    this.kind = kind;
  }
}

/** Map a DOMException from IndexedDB to what the user can do about it. */
export function classifyStorageError(error: unknown): StorageFailure {
  const name = (error as { name?: string } | null)?.name ?? "";
  if (name === "QuotaExceededError") return "quota";
  // Firefox private windows and disabled storage throw these when opening the database.
  if (name === "InvalidStateError" || name === "SecurityError" || name === "NotAllowedError") return "unavailable";
  if (name === "UnknownError" && /quota|space|disk/i.test(String((error as Error).message))) return "quota";
  return "unknown";
}

/** The deck id for some bytes: the first 16 hex digits of their SHA-256. */
export function deckIdFor(sha256Hex: string): string {
  return sha256Hex.slice(0, 16);
}

export interface NewDeck {
  title: string;
  filename: string;
  totalSlides: number;
  sha256: string;
  source: DeckRecord["source"];
  handoffId?: string;
  data: ArrayBuffer;
}

export interface OpenOptions {
  /** Database name; tests use a fresh one each. */
  name?: string;
  /** Migrations; tests pass a longer list to prove old data survives an upgrade. */
  migrations?: readonly Migration[];
  now?: () => number;
}

export class DeckStore {
  private constructor(
    private readonly db: AnyDB,
    private readonly name: string,
    private readonly now: () => number,
  ) {}

  static async open(options: OpenOptions = {}): Promise<DeckStore> {
    const name = options.name ?? DB_NAME;
    const migrations = options.migrations ?? MIGRATIONS;
    const version = options.migrations ? migrations.length : DB_VERSION;
    let db: AnyDB;
    try {
      db = await openDB(name, version, {
        upgrade(database, oldVersion, newVersion, tx) {
          runMigrations(database, tx, oldVersion, newVersion ?? version, migrations);
        },
        blocked() {
          // Another tab holds an older version open; it closes itself on `versionchange`.
        },
      });
    } catch (cause) {
      const kind = classifyStorageError(cause);
      throw new StorageError(kind === "unknown" ? "unavailable" : kind, "This browser refused to open its storage.", { cause });
    }
    // An app update in another tab wants a newer schema: let it, this tab reloads later.
    db.addEventListener("versionchange", () => db.close());
    return new DeckStore(db, name, options.now ?? Date.now);
  }

  /** Store bytes and metadata in one transaction; the same bytes again update the record. */
  async putDeck(input: NewDeck): Promise<DeckRecord> {
    const id = deckIdFor(input.sha256);
    try {
      const tx = this.db.transaction(["decks", "deckBytes"], "readwrite");
      const decks = tx.objectStore("decks");
      const existing = await decks.get(id);
      const record: DeckRecord = {
        id,
        title: input.title,
        filename: input.filename,
        totalSlides: input.totalSlides,
        bytes: input.data.byteLength,
        sha256: input.sha256,
        addedAt: existing?.addedAt ?? this.now(),
        source: existing?.source === "handoff" && input.source === "local" ? "handoff" : input.source,
      };
      const handoffId = input.handoffId ?? existing?.handoffId;
      if (handoffId) record.handoffId = handoffId;
      // A new handoff of the same bytes starts a new pending claim.
      if (existing?.handoffCompletedAt && handoffId === existing.handoffId) record.handoffCompletedAt = existing.handoffCompletedAt;
      if (existing?.lastOpenedAt) record.lastOpenedAt = existing.lastOpenedAt;
      const bytes: DeckBytesRecord = { id, data: input.data };
      await Promise.all([decks.put(record), tx.objectStore("deckBytes").put(bytes), tx.done]);
      return record;
    } catch (cause) {
      throw new StorageError(classifyStorageError(cause), "The deck could not be stored in this browser.", { cause });
    }
  }

  /** Newest first. */
  async listDecks(): Promise<DeckRecord[]> {
    const all = await this.db.getAllFromIndex("decks", "byAddedAt");
    return all.reverse();
  }

  getDeck(id: string): Promise<DeckRecord | undefined> {
    return this.db.get("decks", id);
  }

  async getDeckBytes(id: string): Promise<ArrayBuffer | undefined> {
    return (await this.db.get("deckBytes", id))?.data;
  }

  /** A deck with its bytes, read in one transaction; undefined unless both are stored. */
  async getDeckWithBytes(id: string): Promise<{ deck: DeckRecord; bytes: ArrayBuffer } | undefined> {
    const tx = this.db.transaction(["decks", "deckBytes"], "readonly");
    const [deck, stored] = await Promise.all([tx.objectStore("decks").get(id), tx.objectStore("deckBytes").get(id), tx.done]);
    return deck && stored ? { deck, bytes: stored.data } : undefined;
  }

  findByHandoff(handoffId: string): Promise<DeckRecord | undefined> {
    return this.db.getFromIndex("decks", "byHandoff", handoffId);
  }

  async markHandoffCompleted(id: string): Promise<void> {
    await this.update(id, (deck) => ({ ...deck, handoffCompletedAt: this.now() }));
  }

  async touchOpened(id: string): Promise<void> {
    await this.update(id, (deck) => ({ ...deck, lastOpenedAt: this.now() }));
  }

  async deleteDeck(id: string): Promise<void> {
    const tx = this.db.transaction(["decks", "deckBytes", "progress", "thumbnails"], "readwrite");
    await Promise.all([
      tx.objectStore("decks").delete(id),
      tx.objectStore("deckBytes").delete(id),
      tx.objectStore("progress").delete(id),
      tx.objectStore("thumbnails").delete(id),
      tx.done,
    ]);
  }

  /** Every stored thumbnail by deck id (a few KB each: the library reads them all at once). */
  async listThumbnails(): Promise<Map<string, ThumbnailRecord>> {
    const all = await this.db.getAll("thumbnails");
    return new Map(all.map((t) => [t.id, t]));
  }

  getThumbnail(id: string): Promise<ThumbnailRecord | undefined> {
    return this.db.get("thumbnails", id);
  }

  /**
   * Keep a deck's thumbnail. Written only while the deck exists, in the same transaction
   * that checks it, so a deck deleted during the render leaves no orphan behind.
   * Returns false when the deck is gone.
   */
  async putThumbnail(id: string, image: Blob, size: { width: number; height: number }): Promise<boolean> {
    try {
      const tx = this.db.transaction(["decks", "thumbnails"], "readwrite");
      const deck = await tx.objectStore("decks").get(id);
      if (deck) {
        const record: ThumbnailRecord = { id, image, width: size.width, height: size.height, createdAt: this.now() };
        await tx.objectStore("thumbnails").put(record);
      }
      await tx.done;
      return Boolean(deck);
    } catch (cause) {
      throw new StorageError(classifyStorageError(cause), "The thumbnail could not be stored in this browser.", { cause });
    }
  }

  async getProgress(deckId: string): Promise<number | undefined> {
    return (await this.db.get("progress", deckId))?.slide;
  }

  async saveProgress(deckId: string, slide: number): Promise<void> {
    const record: ProgressRecord = { deckId, slide, updatedAt: this.now() };
    await this.db.put("progress", record);
  }

  close(): void {
    this.db.close();
  }

  /** Close and delete the whole database: the escape hatch when storage is corrupt. */
  async hardReset(): Promise<void> {
    this.db.close();
    await deleteDB(this.name);
  }

  private async update(id: string, change: (deck: DeckRecord) => DeckRecord): Promise<void> {
    const tx = this.db.transaction("decks", "readwrite");
    const deck = await tx.store.get(id);
    if (deck) await tx.store.put(change(deck));
    await tx.done;
  }
}
