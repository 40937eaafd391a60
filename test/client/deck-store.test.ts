import "fake-indexeddb/auto";
import { afterEach, describe, expect, test } from "bun:test";
import { openDB } from "idb";
import { DeckStore, StorageError, classifyStorageError, deckIdFor } from "../../client/src/storage/deck-store.ts";
import { DB_NAME, DB_VERSION, MIGRATIONS, type Migration } from "../../client/src/storage/schema.ts";
import { needsThumbnail, THUMBNAIL_WIDTH } from "../../client/src/lib/thumbnail.ts";

let counter = 0;
const fresh = () => `deckhand-test-${Date.now()}-${counter++}`;
const opened: DeckStore[] = [];

async function openStore(options: Parameters<typeof DeckStore.open>[0] = {}) {
  const store = await DeckStore.open({ name: fresh(), ...options });
  opened.push(store);
  return store;
}

/** A database as an older release left it: the migrations up to `version`, and no further. */
function openAtVersion(name: string, version: number) {
  return openDB(name, version, {
    upgrade(db, oldVersion, _newVersion, tx) {
      for (let v = oldVersion; v < version; v++) MIGRATIONS[v]!(db as never, tx as never);
    },
  });
}

function bytes(...values: number[]): ArrayBuffer {
  return new Uint8Array(values).buffer;
}

const SHA_A = "a".repeat(64);
const SHA_B = "b".repeat(64);

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

describe("DeckStore", () => {
  test("the database name is the documented constant", () => {
    expect(DB_NAME).toBe("deckhand");
    expect(DB_VERSION).toBe(MIGRATIONS.length);
  });

  test("putDeck stores metadata and bytes together, keyed by the digest", async () => {
    const store = await openStore({ now: () => 1000 });
    const deck = await store.putDeck({ title: "Q3 review", filename: "q3.pdf", totalSlides: 12, sha256: SHA_A, source: "handoff", handoffId: "abc", data: bytes(1, 2, 3) });
    expect(deck).toMatchObject({ id: deckIdFor(SHA_A), title: "Q3 review", bytes: 3, addedAt: 1000, source: "handoff", handoffId: "abc" });
    expect(deck.handoffCompletedAt).toBeUndefined();
    expect(await store.getDeck(deck.id)).toEqual(deck);
    expect(new Uint8Array((await store.getDeckBytes(deck.id))!)).toEqual(new Uint8Array([1, 2, 3]));
    const both = await store.getDeckWithBytes(deck.id);
    expect(both?.deck).toEqual(deck);
    expect(new Uint8Array(both!.bytes)).toEqual(new Uint8Array([1, 2, 3]));
  });

  test("putDeck resolves only for a transaction that asked to be on disk (a claim deletes the server copy next)", async () => {
    const store = await openStore();
    const asked: (IDBTransactionOptions | undefined)[] = [];
    const original = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.transaction = function (this: IDBDatabase, names: string | string[], mode?: IDBTransactionMode, options?: IDBTransactionOptions) {
      if (mode === "readwrite") asked.push(options);
      return original.call(this, names, mode, options);
    } as typeof original;
    try {
      await store.putDeck({ title: "T", filename: "t.pdf", totalSlides: 1, sha256: SHA_A, source: "handoff", handoffId: "h", data: bytes(7) });
    } finally {
      IDBDatabase.prototype.transaction = original;
    }
    expect(asked).toEqual([{ durability: "strict" }]);
  });

  test("the same bytes again are one deck, keeping the first date", async () => {
    let now = 1000;
    const store = await openStore({ now: () => now });
    await store.putDeck({ title: "A", filename: "a.pdf", totalSlides: 1, sha256: SHA_A, source: "local", data: bytes(1) });
    now = 2000;
    const again = await store.putDeck({ title: "A2", filename: "a.pdf", totalSlides: 1, sha256: SHA_A, source: "handoff", handoffId: "h1", data: bytes(1) });
    expect(again.addedAt).toBe(1000);
    expect(again.title).toBe("A2");
    expect((await store.listDecks()).length).toBe(1);
  });

  test("listDecks returns newest first", async () => {
    let now = 1;
    const store = await openStore({ now: () => now++ });
    await store.putDeck({ title: "old", filename: "o.pdf", totalSlides: 1, sha256: SHA_A, source: "local", data: bytes(1) });
    await store.putDeck({ title: "new", filename: "n.pdf", totalSlides: 2, sha256: SHA_B, source: "local", data: bytes(2) });
    expect((await store.listDecks()).map((d) => d.title)).toEqual(["new", "old"]);
  });

  test("findByHandoff finds the deck a link delivered, and marks its claim", async () => {
    const store = await openStore({ now: () => 5 });
    const deck = await store.putDeck({ title: "T", filename: "t.pdf", totalSlides: 3, sha256: SHA_A, source: "handoff", handoffId: "sess1", data: bytes(9) });
    expect((await store.findByHandoff("sess1"))?.id).toBe(deck.id);
    expect(await store.findByHandoff("other")).toBeUndefined();
    await store.markHandoffCompleted(deck.id);
    expect((await store.getDeck(deck.id))?.handoffCompletedAt).toBe(5);
  });

  test("local decks are not indexed under a handoff", async () => {
    const store = await openStore();
    await store.putDeck({ title: "L", filename: "l.pdf", totalSlides: 1, sha256: SHA_A, source: "local", data: bytes(1) });
    expect(await store.findByHandoff("undefined")).toBeUndefined();
  });

  test("deleteDeck removes metadata, bytes and progress", async () => {
    const store = await openStore();
    const deck = await store.putDeck({ title: "D", filename: "d.pdf", totalSlides: 4, sha256: SHA_A, source: "local", data: bytes(1, 2) });
    await store.saveProgress(deck.id, 3);
    await store.deleteDeck(deck.id);
    expect(await store.getDeck(deck.id)).toBeUndefined();
    expect(await store.getDeckBytes(deck.id)).toBeUndefined();
    expect(await store.getDeckWithBytes(deck.id)).toBeUndefined();
    expect(await store.getProgress(deck.id)).toBeUndefined();
  });

  test("progress remembers the last page and the talk timer", async () => {
    const store = await openStore({ now: () => 40 });
    expect(await store.getProgress("x")).toBeUndefined();
    await store.saveProgress("x", 7);
    expect(await store.getProgress("x")).toEqual({ deckId: "x", slide: 7, updatedAt: 40 });
    const timer = { status: "running", startedAt: 12, accumulatedMs: 3000 };
    await store.saveProgress("x", 8, timer);
    expect(await store.getProgress("x")).toEqual({ deckId: "x", slide: 8, updatedAt: 40, timer });
  });

  test("a deck's page size and labels are kept, and survive storing the same bytes again", async () => {
    const store = await openStore();
    const deck = await store.putDeck({ title: "L", filename: "l.pdf", totalSlides: 3, sha256: SHA_A, source: "local", data: bytes(1) });
    await store.setDeckLayout(deck.id, { pageSize: { w: 720, h: 405 }, labels: ["1", "2", "2"] });
    expect(await store.getDeck(deck.id)).toMatchObject({ pageSize: { w: 720, h: 405 }, labels: ["1", "2", "2"] });
    await store.putDeck({ title: "L", filename: "l.pdf", totalSlides: 3, sha256: SHA_A, source: "handoff", handoffId: "h", data: bytes(1) });
    expect((await store.getDeck(deck.id))?.labels).toEqual(["1", "2", "2"]);
  });

  test("URL media are stored per deck, only while the deck exists, and deleted with it", async () => {
    const store = await openStore({ now: () => 5 });
    const deck = await store.putDeck({ title: "M", filename: "m.pdf", totalSlides: 1, sha256: SHA_A, source: "local", data: bytes(1) });
    const url = "https://media.example.org/a.gif";
    expect(await store.putMediaFile(deck.id, url, bytes(0x47, 0x49, 0x46), "image/gif")).toBe(true);
    const stored = await store.getMediaFile(deck.id, url);
    expect(stored).toMatchObject({ deckId: deck.id, url, mime: "image/gif", fetchedAt: 5 });
    expect(new Uint8Array(stored!.data)).toEqual(new Uint8Array([0x47, 0x49, 0x46]));
    expect(await store.listMediaUrls(deck.id)).toEqual([url]);
    expect(await store.getMediaFile("other", url)).toBeUndefined();
    await store.deleteDeck(deck.id);
    expect(await store.getMediaFile(deck.id, url)).toBeUndefined();
    expect(await store.putMediaFile(deck.id, url, bytes(1), "image/gif")).toBe(false);
    expect(await store.listMediaUrls(deck.id)).toEqual([]);
  });

  test("hardReset deletes the database", async () => {
    const name = fresh();
    const store = await DeckStore.open({ name });
    await store.putDeck({ title: "D", filename: "d.pdf", totalSlides: 1, sha256: SHA_A, source: "local", data: bytes(1) });
    await store.hardReset();
    const again = await DeckStore.open({ name });
    opened.push(again);
    expect(await again.listDecks()).toEqual([]);
  });

  test("a store opened by an older app version closes itself when a newer one upgrades", async () => {
    const name = fresh();
    const old = await DeckStore.open({ name });
    const extra: Migration = (db) => void db.createObjectStore("future" as never);
    const newer = await DeckStore.open({ name, migrations: [...MIGRATIONS, extra] });
    opened.push(newer);
    expect(await newer.listDecks()).toEqual([]);
    old.close();
  });
});

describe("migrations", () => {
  test("decks stored under schema v1 survive the upgrade to the current schema", async () => {
    const name = fresh();
    const v1 = await openAtVersion(name, 1);
    await v1.put("decks" as never, { id: "0123456789abcdef", title: "Old talk", filename: "old.pdf", totalSlides: 2, bytes: 1, sha256: "0123456789abcdef".padEnd(64, "0"), addedAt: 1, source: "local" } as never);
    await v1.put("deckBytes" as never, { id: "0123456789abcdef", data: bytes(42) } as never);
    v1.close();

    const store = await DeckStore.open({ name });
    opened.push(store);
    const decks = await store.listDecks();
    expect(decks.map((d) => d.title)).toEqual(["Old talk"]);
    expect(new Uint8Array((await store.getDeckBytes("0123456789abcdef"))!)).toEqual(new Uint8Array([42]));
    // v2 features work on the migrated data.
    await store.saveProgress("0123456789abcdef", 2);
    expect((await store.getProgress("0123456789abcdef"))?.slide).toBe(2);
  });

  test("v3 adds the thumbnails store to a v2 database, keeping its decks, bytes and progress", async () => {
    const name = fresh();
    const id = "0123456789abcdef";
    const v2 = await openAtVersion(name, 2);
    expect([...v2.objectStoreNames].sort()).toEqual(["deckBytes", "decks", "progress"]);
    await v2.put("decks" as never, { id, title: "Before thumbnails", filename: "b.pdf", totalSlides: 3, bytes: 2, sha256: id.padEnd(64, "0"), addedAt: 7, source: "handoff", handoffId: "h-old", handoffCompletedAt: 8 } as never);
    await v2.put("deckBytes" as never, { id, data: bytes(4, 2) } as never);
    await v2.put("progress" as never, { deckId: id, slide: 2, updatedAt: 9 } as never);
    v2.close();

    const store = await DeckStore.open({ name, now: () => 100 });
    opened.push(store);
    expect(DB_VERSION).toBeGreaterThanOrEqual(3);
    // Everything stored before the upgrade is still there.
    expect(await store.getDeck(id)).toMatchObject({ title: "Before thumbnails", handoffId: "h-old", handoffCompletedAt: 8 });
    expect((await store.findByHandoff("h-old"))?.id).toBe(id);
    expect(new Uint8Array((await store.getDeckBytes(id))!)).toEqual(new Uint8Array([4, 2]));
    expect((await store.getProgress(id))?.slide).toBe(2);
    // An old deck has no thumbnail yet: the library renders one lazily.
    expect(await store.getThumbnail(id)).toBeUndefined();
    expect((await store.listThumbnails()).size).toBe(0);

    const image = new Blob([new Uint8Array([0x52, 0x49, 0x46, 0x46])], { type: "image/webp" });
    expect(await store.putThumbnail(id, image, { width: 320, height: 180 })).toBe(true);
    const thumb = await store.getThumbnail(id);
    expect(thumb).toMatchObject({ id, width: 320, height: 180, createdAt: 100 });
    expect(thumb!.image.type).toBe("image/webp");
    expect(new Uint8Array(await thumb!.image.arrayBuffer())).toEqual(new Uint8Array([0x52, 0x49, 0x46, 0x46]));
    expect([...(await store.listThumbnails()).keys()]).toEqual([id]);

    // Deleting the deck takes its thumbnail with it; a thumbnail for a deck that is gone is refused.
    await store.deleteDeck(id);
    expect(await store.getThumbnail(id)).toBeUndefined();
    expect(await store.putThumbnail(id, image, { width: 320, height: 180 })).toBe(false);
    expect((await store.listThumbnails()).size).toBe(0);
  });

  test("v4 adds the URL media store to a v3 database, keeping decks, progress and thumbnails", async () => {
    const name = fresh();
    const id = "fedcba9876543210";
    const v3 = await openAtVersion(name, 3);
    await v3.put("decks" as never, { id, title: "Before URL media", filename: "u.pdf", totalSlides: 2, bytes: 1, sha256: id.padEnd(64, "0"), addedAt: 3, source: "local" } as never);
    await v3.put("deckBytes" as never, { id, data: bytes(9) } as never);
    await v3.put("progress" as never, { deckId: id, slide: 2, updatedAt: 4 } as never);
    await v3.put("thumbnails" as never, { id, image: new Blob([new Uint8Array([1])]), width: 320, height: 180, createdAt: 5 } as never);
    v3.close();

    const store = await DeckStore.open({ name });
    opened.push(store);
    expect(DB_VERSION).toBeGreaterThanOrEqual(4);
    expect(await store.getDeck(id)).toMatchObject({ title: "Before URL media" });
    expect(new Uint8Array((await store.getDeckBytes(id))!)).toEqual(new Uint8Array([9]));
    // An old progress record has no timer: the presenter reads that as an idle timer.
    expect(await store.getProgress(id)).toEqual({ deckId: id, slide: 2, updatedAt: 4 });
    expect((await store.getThumbnail(id))?.width).toBe(320);
    expect(await store.listMediaUrls(id)).toEqual([]);
    expect(await store.putMediaFile(id, "https://x.example/v.webm", bytes(1, 2), "video/webm")).toBe(true);
    expect(await store.listMediaUrls(id)).toEqual(["https://x.example/v.webm"]);
  });

  test("v5 adds the ink store to a v4 database, keeping decks, progress and URL media; ink is per deck and page and goes with its deck", async () => {
    const name = fresh();
    const id = "0123456789abcdef";
    const v4 = await openAtVersion(name, 4);
    await v4.put("decks" as never, { id, title: "Before ink", filename: "i.pdf", totalSlides: 3, bytes: 1, sha256: id.padEnd(64, "0"), addedAt: 3, source: "handoff" } as never);
    await v4.put("deckBytes" as never, { id, data: bytes(5) } as never);
    await v4.put("progress" as never, { deckId: id, slide: 3, updatedAt: 4, timer: { status: "paused", startedAt: null, accumulatedMs: 5000 } } as never);
    await v4.put("mediaFiles" as never, { key: `${id} https://x.example/a.gif`, deckId: id, url: "https://x.example/a.gif", data: bytes(1), mime: "image/gif", fetchedAt: 1 } as never);
    v4.close();

    const store = await DeckStore.open({ name, now: () => 77 });
    opened.push(store);
    expect(DB_VERSION).toBeGreaterThanOrEqual(5);
    expect(await store.getDeck(id)).toMatchObject({ title: "Before ink" });
    expect(new Uint8Array((await store.getDeckBytes(id))!)).toEqual(new Uint8Array([5]));
    expect(await store.getProgress(id)).toMatchObject({ slide: 3, timer: { accumulatedMs: 5000 } });
    expect(await store.listMediaUrls(id)).toEqual(["https://x.example/a.gif"]);
    expect((await store.getInk(id)).size).toBe(0);

    const stroke = { id: "s1", color: "#e11d48", width: 4, points: [10, 20, 0.5, 30, 40, 0.6] };
    expect(await store.putInk(id, 2, [stroke])).toBe(true);
    expect(await store.putInk(id, 3, [stroke, { ...stroke, id: "s2" }])).toBe(true);
    expect([...(await store.getInk(id)).entries()]).toEqual([[2, [stroke]], [3, [stroke, { ...stroke, id: "s2" }]]]);
    // An empty page deletes its record.
    await store.putInk(id, 3, []);
    expect([...(await store.getInk(id)).keys()]).toEqual([2]);
    // Bookmark, slide times and the pace's plan ride on the progress record.
    await store.saveProgress(id, 2, undefined, { bookmark: 3, slideTimes: { current: { 0: 12.5 }, previous: null, mark: null }, pace: "duration" });
    expect(await store.getProgress(id)).toEqual({ deckId: id, slide: 2, updatedAt: 77, bookmark: 3, slideTimes: { current: { 0: 12.5 }, previous: null, mark: null }, pace: "duration" });
    // Ink goes with its deck, and ink for a deck that is gone is refused.
    await store.deleteDeck(id);
    expect((await store.getInk(id)).size).toBe(0);
    expect(await store.putInk(id, 2, [stroke])).toBe(false);
  });

  test("v6 adds live sessions and live viewers' decks to a v5 database, keeping decks and ink; a live session goes with its deck", async () => {
    const name = fresh();
    const id = "0123456789abcdef";
    const v5 = await openAtVersion(name, 5);
    await v5.put("decks" as never, { id, title: "Before live", filename: "l.pdf", totalSlides: 2, bytes: 1, sha256: id.padEnd(64, "0"), addedAt: 3, source: "handoff" } as never);
    await v5.put("deckBytes" as never, { id, data: bytes(6) } as never);
    await v5.put("ink" as never, { key: `${id} 1`, deckId: id, page: 1, strokes: [{ id: "s" }], updatedAt: 1 } as never);
    v5.close();

    const store = await DeckStore.open({ name });
    opened.push(store);
    expect(DB_VERSION).toBeGreaterThanOrEqual(6);
    expect(await store.getDeck(id)).toMatchObject({ title: "Before live" });
    expect([...(await store.getInk(id)).keys()]).toEqual([1]);
    await store.setLiveGrant(id, { grant: "g", expiresAt: "2026-11-23T03:00:00Z" });
    expect((await store.getDeck(id))?.liveGrant).toEqual({ grant: "g", expiresAt: "2026-11-23T03:00:00Z" });
    const session = { deckId: id, code: "ABC234", presenterSecret: "p", viewerUrl: "http://x/live/ABC234", controlUrl: "http://x/live/ABC234/control#c", expiresAt: "z", allowDownload: false, startedAt: 1 };
    await store.putLiveSession(session);
    expect(await store.getLiveSession(id)).toEqual(session);
    expect(await store.putLiveDeck({ code: "ABC234", sha256: "f".repeat(64), filename: "talk", data: bytes(1, 2), storedAt: 2 })).toBe(true);
    expect(new Uint8Array((await store.getLiveDeck("ABC234"))!.data)).toEqual(new Uint8Array([1, 2]));
    await store.deleteDeck(id);
    expect(await store.getLiveSession(id)).toBeUndefined();
    // A viewer's deck is not one of the library's decks; it stays until the talk ends.
    expect(await store.getLiveDeck("ABC234")).toBeDefined();
    await store.deleteLiveDeck("ABC234");
    expect(await store.getLiveDeck("ABC234")).toBeUndefined();
  });

  test("decks of a v6 database (before notes files) are kept and take a notes file, a layout override and timer settings", async () => {
    const name = fresh();
    const id = "0123456789abcdef";
    const v6 = await openAtVersion(name, 6);
    await v6.put("decks" as never, { id, title: "Before notes", filename: "n.pdf", totalSlides: 2, bytes: 1, sha256: id.padEnd(64, "0"), addedAt: 3, source: "handoff", handoffId: "h6", handoffCompletedAt: 4, labels: ["1", "2"] } as never);
    await v6.put("deckBytes" as never, { id, data: bytes(8) } as never);
    await v6.put("progress" as never, { deckId: id, slide: 2, updatedAt: 4 } as never);
    v6.close();

    const store = await DeckStore.open({ name });
    opened.push(store);
    const old = await store.getDeck(id);
    expect(old).toMatchObject({ title: "Before notes", handoffCompletedAt: 4, labels: ["1", "2"] });
    // An old record reads as "no notes file, no override, no timer settings".
    expect(old?.notes).toBeUndefined();
    expect(old?.notesPosition).toBeUndefined();
    expect(old?.timerSettings).toBeUndefined();
    expect(new Uint8Array((await store.getDeckBytes(id))!)).toEqual(new Uint8Array([8]));
    expect((await store.getProgress(id))?.slide).toBe(2);
    const notes = { filename: "talk.pdfpc", kind: "pdfpc" as const, pdfpc: '{"pdfpcFormat":2,"pages":[]}' };
    expect(await store.setDeckNotes(id, notes)).toBe(true);
    expect(await store.setNotesPosition(id, "left")).toBe(true);
    expect(await store.setTimerSettings(id, { lastMinutes: 2 })).toBe(true);
    expect(await store.getDeck(id)).toMatchObject({ title: "Before notes", notes, notesPosition: "left", timerSettings: { lastMinutes: 2 } });
    await store.deleteDeck(id);
    expect(await store.getDeckWithBytes(id)).toBeUndefined();
    expect(await store.getProgress(id)).toBeUndefined();
  });

  test("v7 adds the talks store to a v6 database, keeping decks and live sessions; a talk is kept only while its deck exists and goes with it", async () => {
    const name = fresh();
    const id = "0123456789abcdef";
    const other = "fedcba9876543210";
    const v6 = await openAtVersion(name, 6);
    for (const deckId of [id, other]) await v6.put("decks" as never, { id: deckId, title: `Before talks ${deckId}`, filename: "t.pdf", totalSlides: 3, bytes: 1, sha256: deckId.padEnd(64, "0"), addedAt: 3, source: "local" } as never);
    await v6.put("liveSessions" as never, { deckId: id, code: "ABC234", presenterSecret: "p", viewerUrl: "v", controlUrl: "c", expiresAt: "z", allowDownload: false, startedAt: 1 } as never);
    v6.close();

    const store = await DeckStore.open({ name });
    opened.push(store);
    expect(DB_VERSION).toBeGreaterThanOrEqual(7);
    expect(await store.getDeck(id)).toMatchObject({ title: `Before talks ${id}` });
    expect((await store.getLiveSession(id))?.code).toBe("ABC234");
    // Q&A is off by default for an old deck, and the setting is kept with the deck.
    expect((await store.getDeck(id))?.qaOpenByDefault).toBeUndefined();
    expect(await store.setQaOpenByDefault(id, true)).toBe(true);
    expect((await store.getDeck(id))?.qaOpenByDefault).toBe(true);
    expect(await store.setQaOpenByDefault(id, false)).toBe(true);
    expect((await store.getDeck(id))?.qaOpenByDefault).toBeUndefined();
    const talk = (deckId: string, code: string, updatedAt: number) => ({
      key: `${deckId} ${code}`, deckId, code, startedAt: 1, updatedAt,
      questions: [{ id: "q1", text: "Why?", name: "", votes: 2, answered: false, hidden: false, at: 5 }],
      polls: [{ id: "p1", question: "Tabs?", options: ["Tabs", "Spaces"], multiple: false, counts: [2, 1], voters: 3, slide: 2 }],
      reactions: [{ page: 2, counts: { "👍": 4 } }],
    });
    expect(await store.putTalk(talk(id, "ABC234", 10))).toBe(true);
    expect(await store.putTalk(talk(id, "XYZ789", 20))).toBe(true);
    expect(await store.putTalk(talk(other, "QQQ222", 30))).toBe(true);
    expect(await store.getTalk(id, "ABC234")).toEqual(talk(id, "ABC234", 10));
    expect((await store.latestTalk(id))?.code).toBe("XYZ789");
    await store.deleteDeck(id);
    expect(await store.getTalk(id, "ABC234")).toBeUndefined();
    expect(await store.latestTalk(id)).toBeUndefined();
    // Another deck's talk stays; a deck that is gone takes no new talk.
    expect((await store.latestTalk(other))?.code).toBe("QQQ222");
    expect(await store.putTalk(talk(id, "ABC234", 40))).toBe(false);
    expect(await store.getTalk(id, "ABC234")).toBeUndefined();
  });

  test("a future migration appended to the list keeps existing decks", async () => {
    const name = fresh();
    const current = await DeckStore.open({ name });
    await current.putDeck({ title: "Keep me", filename: "k.pdf", totalSlides: 1, sha256: SHA_A, source: "local", data: bytes(7) });
    current.close();
    const next: Migration = (db) => void db.createObjectStore("future" as never);
    const upgraded = await DeckStore.open({ name, migrations: [...MIGRATIONS, next] });
    opened.push(upgraded);
    expect((await upgraded.listDecks()).map((d) => d.title)).toEqual(["Keep me"]);
  });
});

describe("notes file and the presenter's settings", () => {
  const PDFPC = JSON.stringify({ pdfpcFormat: 2, pages: [{ idx: 0, label: "1", overlay: 0, note: "Welcome" }] });
  const notes = { filename: "talk.pptx", kind: "pptx" as const, pdfpc: PDFPC };

  test("a notes file is stored with the bytes in putDeck's one transaction, and goes with the deck", async () => {
    const store = await openStore();
    const deck = await store.putDeck({ title: "N", filename: "n.pdf", totalSlides: 2, sha256: SHA_A, source: "handoff", handoffId: "h", data: bytes(1), notes });
    expect(deck.notes).toEqual(notes);
    expect((await store.getDeck(deck.id))?.notes).toEqual(notes);
    expect((await store.getDeckWithBytes(deck.id))?.deck.notes?.pdfpc).toBe(PDFPC);
    await store.deleteDeck(deck.id);
    expect(await store.getDeck(deck.id)).toBeUndefined();
    expect(await store.listDecks()).toEqual([]);
  });

  test("setDeckNotes adds, replaces and removes a stored deck's notes; a deck that is gone gets none", async () => {
    const store = await openStore();
    const deck = await store.putDeck({ title: "L", filename: "l.pdf", totalSlides: 2, sha256: SHA_A, source: "local", data: bytes(1) });
    expect(deck.notes).toBeUndefined();
    expect(await store.setDeckNotes(deck.id, notes)).toBe(true);
    expect((await store.getDeck(deck.id))?.notes).toEqual(notes);
    const other = { filename: "talk.pdfpc", kind: "pdfpc" as const, pdfpc: '{"pdfpcFormat":2,"pages":[]}' };
    expect(await store.setDeckNotes(deck.id, other)).toBe(true);
    expect((await store.getDeck(deck.id))?.notes).toEqual(other);
    expect(await store.setDeckNotes(deck.id, null)).toBe(true);
    const after = await store.getDeck(deck.id);
    expect(after).toBeDefined();
    expect("notes" in after!).toBe(false);
    // Nothing else of the deck changed.
    expect(after).toEqual(deck);
    await store.deleteDeck(deck.id);
    expect(await store.setDeckNotes(deck.id, notes)).toBe(false);
    expect(await store.getDeck(deck.id)).toBeUndefined();
  });

  test("the notes-layout override and the timer settings are kept with the deck, and can be cleared", async () => {
    const store = await openStore();
    const deck = await store.putDeck({ title: "B", filename: "b.pdf", totalSlides: 8, sha256: SHA_A, source: "local", data: bytes(1) });
    expect(await store.setNotesPosition(deck.id, "right")).toBe(true);
    expect(await store.setTimerSettings(deck.id, { durationMinutes: 20, endTime: undefined, lastMinutes: 3 })).toBe(true);
    expect(await store.getDeck(deck.id)).toMatchObject({ notesPosition: "right", timerSettings: { durationMinutes: 20, lastMinutes: 3 } });
    expect("endTime" in (await store.getDeck(deck.id))!.timerSettings!).toBe(false);
    // "none" is an override too (plain slides, whatever the geometry suggests); null clears it.
    await store.setNotesPosition(deck.id, "none");
    expect((await store.getDeck(deck.id))?.notesPosition).toBe("none");
    await store.setNotesPosition(deck.id, null);
    expect("notesPosition" in (await store.getDeck(deck.id))!).toBe(false);
    await store.setTimerSettings(deck.id, { endTime: "10:45" });
    expect((await store.getDeck(deck.id))?.timerSettings).toEqual({ endTime: "10:45" });
    await store.setTimerSettings(deck.id, {});
    expect("timerSettings" in (await store.getDeck(deck.id))!).toBe(false);
    await store.deleteDeck(deck.id);
    expect(await store.setNotesPosition(deck.id, "left")).toBe(false);
    expect(await store.setTimerSettings(deck.id, { durationMinutes: 5 })).toBe(false);
    expect(await store.getDeck(deck.id)).toBeUndefined();
  });

  test("storing the same bytes again keeps the notes and the settings, unless new notes come with them", async () => {
    const store = await openStore();
    const deck = await store.putDeck({ title: "S", filename: "s.pdf", totalSlides: 2, sha256: SHA_A, source: "local", data: bytes(1) });
    await store.setDeckNotes(deck.id, notes);
    await store.setNotesPosition(deck.id, "bottom");
    await store.setTimerSettings(deck.id, { durationMinutes: 15 });
    await store.putDeck({ title: "S", filename: "s.pdf", totalSlides: 2, sha256: SHA_A, source: "handoff", handoffId: "h2", data: bytes(1) });
    expect(await store.getDeck(deck.id)).toMatchObject({ notes, notesPosition: "bottom", timerSettings: { durationMinutes: 15 }, handoffId: "h2" });
    const fresh = { filename: "new.pdfpc", kind: "pdfpc" as const, pdfpc: '{"pdfpcFormat":2,"pages":[]}' };
    await store.putDeck({ title: "S", filename: "s.pdf", totalSlides: 2, sha256: SHA_A, source: "handoff", handoffId: "h3", data: bytes(1), notes: fresh });
    expect(await store.getDeck(deck.id)).toMatchObject({ notes: fresh, notesPosition: "bottom" });
  });
});

describe("storage errors", () => {
  test("quota and private-window failures are told apart", () => {
    expect(classifyStorageError(new DOMException("full", "QuotaExceededError"))).toBe("quota");
    expect(classifyStorageError(new DOMException("nope", "InvalidStateError"))).toBe("unavailable");
    expect(classifyStorageError(new DOMException("nope", "SecurityError"))).toBe("unavailable");
    expect(classifyStorageError(new Error("???"))).toBe("unknown");
  });

  test("a write that fails surfaces as a StorageError with its kind", async () => {
    const store = await openStore();
    store.close();
    const err = await store.putDeck({ title: "x", filename: "x.pdf", totalSlides: 1, sha256: SHA_A, source: "local", data: bytes(1) }).catch((e) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect(err.kind).toBe("unavailable");
  });
});

describe("thumbnails", () => {
  const record = (width: number, image: Blob = new Blob([new Uint8Array([1])], { type: "image/webp" })) => ({ id: "x", image, width, height: 180, createdAt: 1 });

  test("a deck needs a thumbnail until one of the library's size is stored", () => {
    expect(needsThumbnail(undefined)).toBe(true);
    expect(needsThumbnail(record(THUMBNAIL_WIDTH))).toBe(false);
    // The renderer rounds the page box by a pixel either way.
    expect(needsThumbnail(record(THUMBNAIL_WIDTH + 1))).toBe(false);
    expect(needsThumbnail(record(160))).toBe(true);
    expect(needsThumbnail(record(THUMBNAIL_WIDTH, new Blob([])))).toBe(true);
  });

  test("a stored thumbnail survives closing and reopening the database", async () => {
    const name = fresh();
    const first = await DeckStore.open({ name });
    const deck = await first.putDeck({ title: "T", filename: "t.pdf", totalSlides: 1, sha256: SHA_A, source: "local", data: bytes(1) });
    await first.putThumbnail(deck.id, new Blob([new Uint8Array([9, 9])], { type: "image/png" }), { width: 320, height: 240 });
    first.close();
    const again = await DeckStore.open({ name });
    opened.push(again);
    const thumb = await again.getThumbnail(deck.id);
    expect(needsThumbnail(thumb)).toBe(false);
    expect(thumb!.image.size).toBe(2);
  });
});
