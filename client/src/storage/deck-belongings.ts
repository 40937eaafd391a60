/**
 * @module client/storage/deck-belongings
 * What this browser keeps beside each deck, on the deck store's database: its URL media, its
 * library thumbnail, where the talk is, its ink, its live session and the talks' records, and
 * a live viewer's copy of a deck. A write that belongs to a deck happens only while the deck
 * exists, checked in the same transaction, so a deck deleted meanwhile leaves nothing behind.
 * The deck store (./deck-store.ts) extends this class: callers see one object.
 */
import type { TalkRecord } from "../model/talk-record.ts";
import type { AnyDB, InkRecord, LiveDeckRecord, LiveSessionRecord, MediaFileRecord, ProgressRecord, ThumbnailRecord } from "./schema.ts";
import { classifyStorageError, StorageError } from "./storage-error.ts";

export abstract class DeckBelongings {
  protected constructor(
    protected readonly db: AnyDB,
    protected readonly now: () => number,
  ) {}

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

  getLiveSession(deckId: string): Promise<LiveSessionRecord | undefined> {
    return this.db.get("liveSessions", deckId);
  }

  async putLiveSession(record: LiveSessionRecord): Promise<void> {
    await this.db.put("liveSessions", record);
  }

  async deleteLiveSession(deckId: string): Promise<void> {
    await this.db.delete("liveSessions", deckId);
  }

  /** What a live talk's audience gave, kept for export. */
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
}
