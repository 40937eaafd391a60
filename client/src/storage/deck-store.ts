/**
 * @module client/storage/deck-store
 * The decks stored in this browser: one object with `close()` and `hardReset()`, every
 * write in a single transaction so a deck is either fully stored (bytes and metadata) or
 * not at all. Its recordings are reached through `recordings` (./recording-store.ts), on the
 * same database, and go when the deck goes.
 */
import { deleteDB, openDB } from "idb";
import {
  DB_NAME,
  DB_VERSION,
  MIGRATIONS,
  runMigrations,
  type AnyDB,
  type DeckBytesRecord,
  type DeckNotes,
  type DeckRecord,
  type DeckTimerSettings,
  type InkRecord,
  type LiveDeckRecord,
  type LiveSessionRecord,
  type MediaFileRecord,
  type Migration,
  type ProgressRecord,
  type ThumbnailRecord,
} from "./schema.ts";

import type { NotesPosition } from "../../../src/deck/notes-layout.ts";
import type { TalkRecord } from "../live/talk-export.ts";
import { deleteRecordingsOfDeck, RecordingStore } from "./recording-store.ts";
import { classifyStorageError, StorageError } from "./storage-error.ts";

export { classifyStorageError, StorageError } from "./storage-error.ts";
export type { DeckNotes, DeckRecord, DeckTimerSettings, LiveDeckRecord, LiveSessionRecord, MediaFileRecord, ProgressRecord, ThumbnailRecord } from "./schema.ts";

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
  /** The notes file that came with the deck, stored in the same transaction as its bytes. */
  notes?: DeckNotes;
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

  /**
   * Store bytes and metadata in one transaction; the same bytes again update the record.
   * Resolved once the transaction is on disk ("strict"), not only in the browser's cache: a
   * claim asks the server to delete its copy right after.
   */
  async putDeck(input: NewDeck): Promise<DeckRecord> {
    const id = deckIdFor(input.sha256);
    try {
      const tx = this.db.transaction(["decks", "deckBytes"], "readwrite", { durability: "strict" });
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
      // The same bytes have the same pages: what a worker read about them stays true.
      if (existing?.pageSize) record.pageSize = existing.pageSize;
      if (existing?.labels) record.labels = existing.labels;
      // A notes file that comes with the bytes replaces the one kept; bytes that come without
      // one keep it (it was added to these very pages), and the speaker's settings stay too.
      const notes = input.notes ?? existing?.notes;
      if (notes) record.notes = notes;
      if (existing?.notesPosition) record.notesPosition = existing.notesPosition;
      if (existing?.timerSettings) record.timerSettings = existing.timerSettings;
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

  /** Remember what a worker read about a deck's pages (see DeckRecord.pageSize). */
  async setDeckLayout(id: string, layout: { pageSize: { w: number; h: number }; labels: string[] }): Promise<void> {
    await this.update(id, (deck) => ({ ...deck, pageSize: layout.pageSize, labels: layout.labels }));
  }

  /**
   * Keep a notes file with a stored deck (replacing any), or remove it with null. False when
   * the deck is gone (checked in the same transaction: nothing is left behind).
   */
  async setDeckNotes(id: string, notes: DeckNotes | null): Promise<boolean> {
    try {
      return await this.update(id, (deck) => {
        const next = { ...deck };
        if (notes) next.notes = { filename: notes.filename, kind: notes.kind, pdfpc: notes.pdfpc };
        else delete next.notes;
        return next;
      });
    } catch (cause) {
      throw new StorageError(classifyStorageError(cause), "The notes could not be stored in this browser.", { cause });
    }
  }

  /** The presenter's notes-layout override for a deck; null goes back to the detected layout. */
  async setNotesPosition(id: string, position: NotesPosition | null): Promise<boolean> {
    return this.update(id, (deck) => {
      const next = { ...deck };
      if (position) next.notesPosition = position;
      else delete next.notesPosition;
      return next;
    });
  }

  /**
   * The presenter's own timer settings for a deck; fields left undefined are not kept, and
   * null (or nothing set) removes them, so the notes file, a .pdfpc or XMP apply again.
   */
  async setTimerSettings(id: string, settings: DeckTimerSettings | null): Promise<boolean> {
    const kept: DeckTimerSettings = {};
    if (settings?.durationMinutes !== undefined) kept.durationMinutes = settings.durationMinutes;
    if (settings?.endTime !== undefined) kept.endTime = settings.endTime;
    if (settings?.lastMinutes !== undefined) kept.lastMinutes = settings.lastMinutes;
    return this.update(id, (deck) => {
      const next = { ...deck };
      if (Object.keys(kept).length) next.timerSettings = kept;
      else delete next.timerSettings;
      return next;
    });
  }

  /** Open Q&A whenever this deck goes live (issue 23), or not. */
  async setQaOpenByDefault(id: string, on: boolean): Promise<boolean> {
    return this.update(id, (deck) => {
      const next = { ...deck };
      if (on) next.qaOpenByDefault = true;
      else delete next.qaOpenByDefault;
      return next;
    });
  }

  /** The recordings kept in this browser (talks and rehearsals, by deck). */
  get recordings(): RecordingStore {
    return new RecordingStore(this.db, this.now);
  }

  /** A deck and everything kept with it: bytes, progress, thumbnail, media, ink, talks and recordings. */
  async deleteDeck(id: string): Promise<void> {
    const tx = this.db.transaction(["decks", "deckBytes", "progress", "thumbnails", "mediaFiles", "ink", "liveSessions", "talks", "recordings", "recordingPieces"], "readwrite");
    const media = tx.objectStore("mediaFiles");
    const ink = tx.objectStore("ink");
    const talks = tx.objectStore("talks");
    const [keys, inkKeys, talkKeys] = await Promise.all([media.index("byDeck").getAllKeys(id), ink.index("byDeck").getAllKeys(id), talks.index("byDeck").getAllKeys(id)]);
    await Promise.all([
      tx.objectStore("decks").delete(id),
      tx.objectStore("deckBytes").delete(id),
      tx.objectStore("progress").delete(id),
      tx.objectStore("thumbnails").delete(id),
      tx.objectStore("liveSessions").delete(id),
      ...keys.map((key) => media.delete(key)),
      ...inkKeys.map((key) => ink.delete(key)),
      ...talkKeys.map((key) => talks.delete(key)),
      deleteRecordingsOfDeck(tx, id),
      tx.done,
    ]);
  }

  /** A stored URL medium of a deck, or undefined. */
  getMediaFile(deckId: string, url: string): Promise<MediaFileRecord | undefined> {
    return this.db.get("mediaFiles", `${deckId} ${url}`);
  }

  /** The URLs a deck has stored media for. */
  async listMediaUrls(deckId: string): Promise<string[]> {
    return (await this.db.getAllFromIndex("mediaFiles", "byDeck", deckId)).map((m) => m.url);
  }

  /**
   * Keep a fetched URL medium for a deck — only while the deck exists, checked in the same
   * transaction, so a deck deleted during the download leaves nothing behind. False when gone.
   */
  async putMediaFile(deckId: string, url: string, data: ArrayBuffer, mime: string): Promise<boolean> {
    try {
      const tx = this.db.transaction(["decks", "mediaFiles"], "readwrite");
      const deck = await tx.objectStore("decks").get(deckId);
      if (deck) {
        const record: MediaFileRecord = { key: `${deckId} ${url}`, deckId, url, data, mime, fetchedAt: this.now() };
        await tx.objectStore("mediaFiles").put(record);
      }
      await tx.done;
      return Boolean(deck);
    } catch (cause) {
      throw new StorageError(classifyStorageError(cause), "The medium could not be stored in this browser.", { cause });
    }
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

  getProgress(deckId: string): Promise<ProgressRecord | undefined> {
    return this.db.get("progress", deckId);
  }

  /** Where the talk is: the page and (from the presenter) its timer, bookmark, slide times and pace choice. */
  async saveProgress(deckId: string, slide: number, timer?: unknown, extra: { bookmark?: number | null; slideTimes?: unknown; pace?: string } = {}): Promise<void> {
    const record: ProgressRecord = { deckId, slide, updatedAt: this.now() };
    if (timer !== undefined) record.timer = timer;
    if (typeof extra.bookmark === "number") record.bookmark = extra.bookmark;
    if (extra.slideTimes !== undefined) record.slideTimes = extra.slideTimes;
    if (extra.pace !== undefined) record.pace = extra.pace;
    await this.db.put("progress", record);
  }

  /** A deck's ink, page by page (pages without strokes are absent). */
  async getInk(deckId: string): Promise<Map<number, unknown[]>> {
    const all = await this.db.getAllFromIndex("ink", "byDeck", deckId);
    return new Map(all.map((r) => [r.page, r.strokes]));
  }

  /**
   * Keep one page's strokes — only while the deck exists, checked in the same transaction;
   * an empty list deletes the page's record. False when the deck is gone.
   */
  async putInk(deckId: string, page: number, strokes: readonly unknown[]): Promise<boolean> {
    try {
      const tx = this.db.transaction(["decks", "ink"], "readwrite");
      const deck = await tx.objectStore("decks").get(deckId);
      const key = `${deckId} ${page}`;
      if (deck && strokes.length) {
        const record: InkRecord = { key, deckId, page, strokes: strokes.slice(), updatedAt: this.now() };
        await tx.objectStore("ink").put(record);
      } else if (deck) await tx.objectStore("ink").delete(key);
      await tx.done;
      return Boolean(deck);
    } catch (cause) {
      throw new StorageError(classifyStorageError(cause), "The ink could not be stored in this browser.", { cause });
    }
  }

  /** Keep the live grant the server issued when this deck was claimed. */
  async setLiveGrant(id: string, liveGrant: { grant: string; expiresAt: string }): Promise<void> {
    await this.update(id, (deck) => ({ ...deck, liveGrant }));
  }

  getLiveSession(deckId: string): Promise<LiveSessionRecord | undefined> {
    return this.db.get("liveSessions", deckId);
  }

  async putLiveSession(record: LiveSessionRecord): Promise<void> {
    await this.db.put("liveSessions", record);
  }

  async deleteLiveSession(deckId: string): Promise<void> {
    await this.db.delete("liveSessions", deckId);
  }

  /** What a live talk's audience gave, kept for export (issue 23). */
  getTalk(deckId: string, code: string): Promise<TalkRecord | undefined> {
    return this.db.get("talks", `${deckId} ${code}`);
  }

  /** The deck's most recent talk (by its last change), if any. */
  async latestTalk(deckId: string): Promise<TalkRecord | undefined> {
    const all = await this.db.getAllFromIndex("talks", "byDeck", deckId);
    return all.sort((a, b) => b.updatedAt - a.updatedAt)[0];
  }

  /**
   * Keep a talk's record — only while its deck exists, checked in the same transaction, so a
   * deck deleted mid-talk leaves nothing behind. False when the deck is gone.
   */
  async putTalk(record: TalkRecord): Promise<boolean> {
    const tx = this.db.transaction(["decks", "talks"], "readwrite");
    const deck = await tx.objectStore("decks").get(record.deckId);
    if (deck) await tx.objectStore("talks").put(record);
    await tx.done;
    return Boolean(deck);
  }

  getLiveDeck(code: string): Promise<LiveDeckRecord | undefined> {
    return this.db.get("liveDecks", code);
  }

  /** Keep a live viewer's deck; false when the browser refused (the talk still shows from memory). */
  async putLiveDeck(record: LiveDeckRecord): Promise<boolean> {
    try {
      await this.db.put("liveDecks", record);
      return true;
    } catch {
      return false;
    }
  }

  async deleteLiveDeck(code: string): Promise<void> {
    await this.db.delete("liveDecks", code);
  }

  close(): void {
    this.db.close();
  }

  /** Close and delete the whole database: the escape hatch when storage is corrupt. */
  async hardReset(): Promise<void> {
    this.db.close();
    await deleteDB(this.name);
  }

  /** Change one deck record in one transaction; false when there is no such deck. */
  private async update(id: string, change: (deck: DeckRecord) => DeckRecord): Promise<boolean> {
    const tx = this.db.transaction("decks", "readwrite");
    const deck = await tx.store.get(id);
    if (deck) await tx.store.put(change(deck));
    await tx.done;
    return Boolean(deck);
  }
}
