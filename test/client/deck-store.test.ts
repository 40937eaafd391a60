import "fake-indexeddb/auto";
import { afterEach, describe, expect, test } from "bun:test";
import { openDB } from "idb";
import { DeckStore, StorageError, classifyStorageError, deckIdFor } from "../../client/src/storage/deck-store.ts";
import { DB_NAME, DB_VERSION, MIGRATIONS, type Migration } from "../../client/src/storage/schema.ts";

let counter = 0;
const fresh = () => `deckhand-test-${Date.now()}-${counter++}`;
const opened: DeckStore[] = [];

async function openStore(options: Parameters<typeof DeckStore.open>[0] = {}) {
  const store = await DeckStore.open({ name: fresh(), ...options });
  opened.push(store);
  return store;
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
    expect(await store.getProgress(deck.id)).toBeUndefined();
  });

  test("progress remembers the last slide", async () => {
    const store = await openStore();
    expect(await store.getProgress("x")).toBeUndefined();
    await store.saveProgress("x", 7);
    expect(await store.getProgress("x")).toBe(7);
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
    const v1 = await openDB(name, 1, {
      upgrade(db, oldVersion, newVersion, tx) {
        MIGRATIONS[0]!(db as never, tx as never);
      },
    });
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
    expect(await store.getProgress("0123456789abcdef")).toBe(2);
  });

  test("a future migration appended to the list keeps existing decks", async () => {
    const name = fresh();
    const current = await DeckStore.open({ name });
    await current.putDeck({ title: "Keep me", filename: "k.pdf", totalSlides: 1, sha256: SHA_A, source: "local", data: bytes(7) });
    current.close();
    const v3: Migration = (db) => void db.createObjectStore("thumbnails" as never);
    const upgraded = await DeckStore.open({ name, migrations: [...MIGRATIONS, v3] });
    opened.push(upgraded);
    expect((await upgraded.listDecks()).map((d) => d.title)).toEqual(["Keep me"]);
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
