/**
 * After a crash, a reload or a closed tab (client/record/continuation, recording-lock): a
 * recording left "recording" with no window writing it is interrupted — marked so, and offered;
 * one another window is writing (its lock is held) is left alone; continuing it opens a new
 * segment at the length kept, numbered on after the last piece written.
 */
import "fake-indexeddb/auto";
import { afterEach, describe, expect, test } from "bun:test";
import { continuation, interruptedRecordings } from "../../client/src/record/continuation.ts";
import { stillRecording } from "../../client/src/record/recording-lock.ts";
import { DeckStore } from "../../client/src/storage/deck-store.ts";
import type { RecordingRecord } from "../../client/src/storage/schema.ts";

const opened: DeckStore[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

const record = (over: Partial<RecordingRecord> = {}): RecordingRecord => ({ id: "r1", deckId: "d", kind: "talk", title: "T", createdAt: 0, updatedAt: 0, state: "interrupted", durationMs: 61_234, bytes: 9, audio: { mimeType: "audio/webm" }, segments: 1, labels: [], ...over });

describe("continuing a recording", () => {
  test("picks up at the length kept, in a new segment, after the last piece", () => {
    expect(continuation(record(), { key: "", recordingId: "r1", seq: 61, segment: 0, startMs: 60_000, endMs: 61_234, events: [] })).toEqual({ recordingId: "r1", segment: 1, seq: 62, startMs: 61_234 });
    // Continued twice: the third segment.
    expect(continuation(record({ segments: 2 }), { key: "", recordingId: "r1", seq: 80, segment: 1, startMs: 70_000, endMs: 71_000, events: [] })).toEqual({ recordingId: "r1", segment: 2, seq: 81, startMs: 71_000 });
    // Nothing was written before the window went: from the start.
    expect(continuation(record({ durationMs: 0 }), undefined)).toEqual({ recordingId: "r1", segment: 1, seq: 0, startMs: 0 });
  });

  test("a recording is still being written while its lock is held; without Web Locks, while its record is fresh", () => {
    const rec = { id: "r1", state: "recording", updatedAt: 10_000 };
    expect(stillRecording(rec, new Set(["r1"]), 99_999)).toBe(true);
    expect(stillRecording(rec, new Set(["other"]), 10_001)).toBe(false);
    expect(stillRecording(rec, null, 15_000)).toBe(true);
    expect(stillRecording(rec, null, 30_000)).toBe(false);
    expect(stillRecording({ ...rec, state: "stopped" }, new Set(["r1"]), 10_001)).toBe(false);
  });

  test("a deck's unfinished recordings are found and marked interrupted; stopped ones and other decks' are not", async () => {
    const store = await DeckStore.open({ name: `deckhand-continue-${Date.now()}`, now: () => 1_000 });
    opened.push(store);
    const deck = await store.putDeck({ title: "T", filename: "t.pdf", totalSlides: 1, sha256: "e".repeat(64), source: "local", data: new Uint8Array([1]).buffer });
    const other = await store.putDeck({ title: "U", filename: "u.pdf", totalSlides: 1, sha256: "f".repeat(64), source: "local", data: new Uint8Array([2]).buffer });
    const left = (await store.recordings.createRecording({ deckId: deck.id, kind: "talk", title: "Left", audio: null, labels: [] }))!;
    const done = (await store.recordings.createRecording({ deckId: deck.id, kind: "talk", title: "Done", audio: null, labels: [] }))!;
    await store.recordings.updateRecording(done.id, { state: "stopped" });
    await store.recordings.createRecording({ deckId: other.id, kind: "talk", title: "Other", audio: null, labels: [] });
    // Bun has no Web Locks: a record not written for 10 s counts as left behind.
    const found = await interruptedRecordings(store.recordings, deck.id, 1_000 + 60_000);
    expect(found.map((r) => [r.id, r.state])).toEqual([[left.id, "interrupted"]]);
    expect((await store.recordings.getRecording(left.id))!.state).toBe("interrupted");
    expect((await store.recordings.getRecording(done.id))!.state).toBe("stopped");
    // A fresh one is someone's recording in progress: left alone.
    expect(await interruptedRecordings(store.recordings, other.id, 1_500)).toEqual([]);
  });
});
