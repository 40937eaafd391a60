/**
 * The recordings' storage (client/storage/recording-store): a recording and its pieces kept by
 * deck, each piece written with the record's length and size in one transaction, its sound kept
 * as bytes and read back as a Blob, its events read back as they came; deleted alone or with
 * its deck; read for an export in one pass, its events still compacted and expanded piece by
 * piece as a walk goes; a refusal is a StorageError the recorder can explain. The migration that adds the
 * stores keeps every older store's data.
 */
import "fake-indexeddb/auto";
import { afterEach, describe, expect, test } from "bun:test";
import { openDB } from "idb";
import { DeckStore, StorageError } from "../../client/src/storage/deck-store.ts";
import { newRecordingId, pieceKey } from "../../client/src/storage/recording-store.ts";
import { MIGRATIONS } from "../../client/src/storage/schema.ts";
import { expandedTrack } from "../../client/src/export/stored-track.ts";
import type { AudienceState } from "../../client/src/presenter/audience.ts";
import { NO_OVERLAYS } from "../../client/src/presenter/state.ts";
import type { TimelineEvent } from "../../client/src/record/timeline.ts";

let counter = 0;
const fresh = () => `deckhand-recordings-${Date.now()}-${counter++}`;
const opened: DeckStore[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

async function openStore(name = fresh(), now = () => 1000) {
  const store = await DeckStore.open({ name, now });
  opened.push(store);
  return store;
}

async function withDeck(store: DeckStore, sha = "c".repeat(64)) {
  return store.putDeck({ title: "Talk", filename: "talk.pdf", totalSlides: 3, sha256: sha, source: "local", data: new Uint8Array([1, 2, 3]).buffer });
}

const state = (page: number): AudienceState => ({ page, blank: "none", mode: "normal", overlays: NO_OVERLAYS, ink: [], media: {}, frozen: false });
const stroke = (points: number[]) => ({ id: "s1", color: "#e11d48", width: 4, points });
const pen = (t: number, points: number[]): TimelineEvent => ({ t, m: { type: "overlay", overlays: { ...NO_OVERLAYS, live: stroke(points) }, at: t } });

describe("RecordingStore", () => {
  test("a recording is created only while its deck exists, and listed by deck, newest first", async () => {
    let now = 1000;
    const store = await openStore(fresh(), () => now);
    const deck = await withDeck(store);
    const recordings = store.recordings;
    expect(await recordings.createRecording({ deckId: "nope", kind: "talk", title: "x", audio: null, labels: [] })).toBeNull();
    const first = (await recordings.createRecording({ deckId: deck.id, kind: "talk", title: "First", audio: { mimeType: "audio/webm;codecs=opus" }, labels: ["1", "2"] }))!;
    now = 2000;
    const second = (await recordings.createRecording({ deckId: deck.id, kind: "rehearsal", title: "Second", audio: null, labels: ["1", "2"] }))!;
    expect(first).toMatchObject({ deckId: deck.id, state: "recording", durationMs: 0, bytes: 0, segments: 1, createdAt: 1000 });
    expect((await recordings.listRecordings(deck.id)).map((r) => r.title)).toEqual(["Second", "First"]);
    expect([...(await recordings.recordingsByDeck()).get(deck.id)!].map((r) => r.id)).toEqual([second.id, first.id]);
    expect(await recordings.getRecording(first.id)).toEqual(first);
  });

  test("each piece grows the recording's length and size in its own transaction; sound comes back as a Blob of the recording's type", async () => {
    const store = await openStore();
    const deck = await withDeck(store);
    const recordings = store.recordings;
    const r = (await recordings.createRecording({ deckId: deck.id, kind: "talk", title: "T", audio: { mimeType: "audio/webm;codecs=opus" }, labels: [] }))!;
    const events: TimelineEvent[] = [{ t: 0, m: { type: "state", state: state(1) } }];
    expect(await recordings.putPiece({ key: "", recordingId: r.id, seq: 0, segment: 0, startMs: 0, endMs: 1000, audio: new Blob([new Uint8Array(300)]), events })).toBe(true);
    expect(await recordings.putPiece({ key: "", recordingId: r.id, seq: 1, segment: 0, startMs: 1000, endMs: 2100, audio: new Blob([new Uint8Array(200)]), events: [] })).toBe(true);
    const kept = (await recordings.getRecording(r.id))!;
    expect(kept.durationMs).toBe(2100);
    expect(kept.bytes).toBeGreaterThanOrEqual(500);
    const pieces = await recordings.pieces(r.id);
    expect(pieces.map((p) => [p.seq, p.key])).toEqual([
      [0, pieceKey(r.id, 0)],
      [1, pieceKey(r.id, 1)],
    ]);
    expect(pieces[0]!.audio).toBeInstanceOf(Blob);
    expect(pieces[0]!.audio!.type).toBe("audio/webm;codecs=opus");
    expect(pieces[0]!.audio!.size).toBe(300);
    expect(pieces[0]!.events).toEqual(events);
    expect((await recordings.lastPiece(r.id))!.seq).toBe(1);
  });

  test("pieces sort by number past 9, 99, 999 (keys are padded)", async () => {
    const store = await openStore();
    const deck = await withDeck(store);
    const r = (await store.recordings.createRecording({ deckId: deck.id, kind: "talk", title: "T", audio: null, labels: [] }))!;
    for (const seq of [1000, 9, 10, 100, 0]) await store.recordings.putPiece({ key: "", recordingId: r.id, seq, segment: 0, startMs: seq * 1000, endMs: seq * 1000 + 1000, events: [] });
    expect((await store.recordings.pieces(r.id)).map((p) => p.seq)).toEqual([0, 9, 10, 100, 1000]);
    expect((await store.recordings.lastPiece(r.id))!.seq).toBe(1000);
  });

  test("the timeline reads back exactly as it was written, a pen stroke's samples included", async () => {
    const store = await openStore();
    const deck = await withDeck(store);
    const r = (await store.recordings.createRecording({ deckId: deck.id, kind: "talk", title: "T", audio: null, labels: [] }))!;
    const first: TimelineEvent[] = [{ t: 0, m: { type: "state", state: state(2) } }, pen(10, [1, 2, 0.5]), pen(26, [1, 2, 0.5, 3, 4, 0.5]), pen(42, [1, 2, 0.5, 3, 4, 0.5, 5, 6, 0.5])];
    const second: TimelineEvent[] = [pen(1010, [1, 2, 0.5, 3, 4, 0.5, 5, 6, 0.5, 7, 8, 0.5]), { t: 1020, m: { type: "talk-reactions", counts: { "👏": 2 } as never } }];
    await store.recordings.putPiece({ key: "", recordingId: r.id, seq: 0, segment: 0, startMs: 0, endMs: 1000, events: first });
    await store.recordings.putPiece({ key: "", recordingId: r.id, seq: 1, segment: 0, startMs: 1000, endMs: 2000, events: second });
    expect(await store.recordings.timeline(r.id)).toEqual([...first, ...second]);
  });

  test("the sound of each segment is its pieces' sound in order, with the segment's place on the clock", async () => {
    const store = await openStore();
    const deck = await withDeck(store);
    const r = (await store.recordings.createRecording({ deckId: deck.id, kind: "talk", title: "T", audio: { mimeType: "audio/webm" }, labels: [] }))!;
    const bytes = (...v: number[]) => new Blob([new Uint8Array(v)]);
    await store.recordings.putPiece({ key: "", recordingId: r.id, seq: 0, segment: 0, startMs: 0, endMs: 1000, audio: bytes(1, 2), events: [] });
    await store.recordings.putPiece({ key: "", recordingId: r.id, seq: 1, segment: 0, startMs: 1000, endMs: 1900, audio: bytes(3), events: [] });
    await store.recordings.putPiece({ key: "", recordingId: r.id, seq: 2, segment: 1, startMs: 1900, endMs: 2900, audio: bytes(4, 5), events: [] });
    await store.recordings.putPiece({ key: "", recordingId: r.id, seq: 3, segment: 1, startMs: 2900, endMs: 3000, events: [] });
    const segments = await store.recordings.segmentAudio(r.id);
    expect(segments.map((s) => [s.segment, s.startMs, s.endMs])).toEqual([
      [0, 0, 1900],
      [1, 1900, 3000],
    ]);
    expect([...new Uint8Array(await segments[0]!.audio.arrayBuffer())]).toEqual([1, 2, 3]);
    expect([...new Uint8Array(await segments[1]!.audio.arrayBuffer())]).toEqual([4, 5]);
    expect(segments[1]!.audio.type).toBe("audio/webm");
    expect((await store.recordings.getRecording(r.id))!.segments).toBe(2);
  });

  test("read for an export in one pass: the events left compacted and expanded as a walk goes (twice the same), each segment's sound whole", async () => {
    const store = await openStore();
    const deck = await withDeck(store);
    const r = (await store.recordings.createRecording({ deckId: deck.id, kind: "talk", title: "T", audio: { mimeType: "audio/webm" }, labels: [] }))!;
    const first: TimelineEvent[] = [{ t: 0, m: { type: "state", state: state(2) } }, pen(10, [1, 2, 0.5]), pen(26, [1, 2, 0.5, 3, 4, 0.5]), pen(42, [1, 2, 0.5, 3, 4, 0.5, 5, 6, 0.5])];
    const second: TimelineEvent[] = [pen(1010, [1, 2, 0.5, 3, 4, 0.5, 5, 6, 0.5, 7, 8, 0.5]), pen(1026, [1, 2, 0.5, 3, 4, 0.5, 5, 6, 0.5, 7, 8, 0.5, 9, 9, 0.5])];
    // Sound of 1.5 MB a piece: past the 4 MB a Blob is gathered to, so the segment is made of several.
    const sound = (seq: number) => new Blob([new Uint8Array(1_500_000).fill(seq + 1)]);
    await store.recordings.putPiece({ key: "", recordingId: r.id, seq: 0, segment: 0, startMs: 0, endMs: 1000, audio: sound(0), events: first });
    await store.recordings.putPiece({ key: "", recordingId: r.id, seq: 1, segment: 0, startMs: 1000, endMs: 2000, audio: sound(1), events: second });
    for (let seq = 2; seq < 5; seq++) await store.recordings.putPiece({ key: "", recordingId: r.id, seq, segment: 0, startMs: seq * 1000, endMs: (seq + 1) * 1000, audio: sound(seq), events: [] });
    await store.recordings.putPiece({ key: "", recordingId: r.id, seq: 5, segment: 1, startMs: 5000, endMs: 6000, events: [] });
    await store.recordings.putPiece({ key: "", recordingId: r.id, seq: 6, segment: 1, startMs: 6000, endMs: 7000, audio: new Blob([new Uint8Array([7, 7])]), events: [] });
    const track = await store.recordings.track(r.id);
    // Kept as stored: the stroke's later samples are the points they added.
    expect(track.pieces).toHaveLength(7);
    expect(track.pieces[0]![2]).toEqual({ t: 26, grown: { keep: 3, add: [3, 4, 0.5], pointer: null, at: 26 } });
    const events = expandedTrack(track.pieces);
    expect([...events]).toEqual([...first, ...second]);
    expect([...events]).toEqual(await store.recordings.timeline(r.id));
    expect(track.segments.map((s) => [s.segment, s.startMs, s.audio.size, s.audio.type])).toEqual([
      [0, 0, 7_500_000, "audio/webm"],
      // The segment starts at its first piece with sound.
      [1, 6000, 2, "audio/webm"],
    ]);
    const whole = new Uint8Array(await track.segments[0]!.audio.arrayBuffer());
    for (let seq = 0; seq < 5; seq++) expect([whole[seq * 1_500_000], whole[seq * 1_500_000 + 1_499_999]]).toEqual([seq + 1, seq + 1]);
  });

  test("a piece for a recording deleted meanwhile writes nothing and says so", async () => {
    const store = await openStore();
    const deck = await withDeck(store);
    const r = (await store.recordings.createRecording({ deckId: deck.id, kind: "talk", title: "T", audio: null, labels: [] }))!;
    await store.recordings.deleteRecording(r.id);
    expect(await store.recordings.putPiece({ key: "", recordingId: r.id, seq: 0, segment: 0, startMs: 0, endMs: 1000, events: [] })).toBe(false);
    expect(await store.recordings.pieces(r.id)).toEqual([]);
  });

  test("a refused write (a full disk) is a StorageError of kind quota, and the pieces before it stay", async () => {
    const store = await openStore();
    const deck = await withDeck(store);
    const r = (await store.recordings.createRecording({ deckId: deck.id, kind: "talk", title: "T", audio: null, labels: [] }))!;
    await store.recordings.putPiece({ key: "", recordingId: r.id, seq: 0, segment: 0, startMs: 0, endMs: 1000, events: [] });
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (this.name === "recordingPieces") throw new DOMException("Quota exceeded", "QuotaExceededError");
      return put.call(this, value, key);
    };
    try {
      const refused = await store.recordings.putPiece({ key: "", recordingId: r.id, seq: 1, segment: 0, startMs: 1000, endMs: 2000, events: [] }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(StorageError);
      expect((refused as StorageError).kind).toBe("quota");
    } finally {
      IDBObjectStore.prototype.put = put;
    }
    expect((await store.recordings.pieces(r.id)).map((p) => p.seq)).toEqual([0]);
    expect((await store.recordings.getRecording(r.id))!.durationMs).toBe(1000);
  });

  test("deleting a recording deletes its pieces and nothing of another recording", async () => {
    const store = await openStore();
    const deck = await withDeck(store);
    const a = (await store.recordings.createRecording({ deckId: deck.id, kind: "talk", title: "A", audio: null, labels: [] }))!;
    const b = (await store.recordings.createRecording({ deckId: deck.id, kind: "talk", title: "B", audio: null, labels: [] }))!;
    for (const r of [a, b]) await store.recordings.putPiece({ key: "", recordingId: r.id, seq: 0, segment: 0, startMs: 0, endMs: 1000, events: [] });
    await store.recordings.deleteRecording(a.id);
    expect(await store.recordings.getRecording(a.id)).toBeUndefined();
    expect(await store.recordings.pieces(a.id)).toEqual([]);
    expect((await store.recordings.pieces(b.id)).length).toBe(1);
  });

  test("deleting a deck deletes its recordings and their pieces, not another deck's", async () => {
    const store = await openStore();
    const deck = await withDeck(store);
    const other = await withDeck(store, "d".repeat(64));
    const mine = (await store.recordings.createRecording({ deckId: deck.id, kind: "talk", title: "Mine", audio: null, labels: [] }))!;
    const theirs = (await store.recordings.createRecording({ deckId: other.id, kind: "talk", title: "Theirs", audio: null, labels: [] }))!;
    for (const r of [mine, theirs]) await store.recordings.putPiece({ key: "", recordingId: r.id, seq: 0, segment: 0, startMs: 0, endMs: 1000, events: [] });
    await store.deleteDeck(deck.id);
    expect(await store.recordings.listRecordings(deck.id)).toEqual([]);
    expect(await store.recordings.pieces(mine.id)).toEqual([]);
    expect((await store.recordings.listRecordings(other.id)).map((r) => r.id)).toEqual([theirs.id]);
    expect((await store.recordings.pieces(theirs.id)).length).toBe(1);
  });

  test("the new stores come by a migration that keeps every deck stored before it", async () => {
    const name = fresh();
    const old = await openDB(name, MIGRATIONS.length - 1, {
      upgrade(db, oldVersion, _new, tx) {
        for (let v = oldVersion; v < MIGRATIONS.length - 1; v++) MIGRATIONS[v]!(db as never, tx as never);
      },
    });
    await old.put("decks" as never, { id: "0123456789abcdef", title: "Old", filename: "old.pdf", totalSlides: 1, bytes: 1, sha256: "0".repeat(64), addedAt: 1, source: "local" } as never);
    old.close();
    const store = await openStore(name);
    expect((await store.getDeck("0123456789abcdef"))?.title).toBe("Old");
    expect(await store.recordings.createRecording({ deckId: "0123456789abcdef", kind: "talk", title: "T", audio: null, labels: [] })).not.toBeNull();
  });

  test("recording ids are random hex, made without crypto.randomUUID (an insecure context has none)", () => {
    const id = newRecordingId();
    expect(id).toMatch(/^[0-9a-f]{20}$/);
    expect(newRecordingId()).not.toBe(id);
    expect(newRecordingId((b) => b.fill(171))).toBe("ab".repeat(10));
  });
});
