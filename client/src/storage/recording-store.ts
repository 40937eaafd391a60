/**
 * @module client/storage/recording-store
 * The recordings kept in this browser (client/record/): one record per recording, and its
 * pieces of about a second — sound and timeline together — each written in one transaction
 * with the record's length and size, so whatever a crash interrupts, what was written is
 * whole and the record says how long it is. The presenter writes through it, the library
 * lists and deletes through it, and the player, the export and the pace read through it.
 * Opened from a DeckStore (`store.recordings`): one database, and a deck's deletion takes its
 * recordings in the same transaction (`deleteRecordingsOfDeck`).
 */
import type { IDBPTransaction, StoreNames } from "idb";
import { compactEvents, expandEvents, type StoredEvent } from "../record/compact.ts";
import type { TimelineEvent } from "../record/timeline.ts";
import { classifyStorageError, StorageError } from "./storage-error.ts";
import type { AnyDB, DeckhandDB, RecordingPiece, RecordingRecord, StoredRecordingPiece } from "./schema.ts";

export type { RecordingPiece, RecordingRecord } from "./schema.ts";

/** Digits of a piece's sequence number in its key: ten years of one-second pieces. */
const SEQ_DIGITS = 9;

/** The key of piece `seq` of recording `id`: keys sort in the recording's order. */
export function pieceKey(id: string, seq: number): string {
  return `${id}:${String(seq).padStart(SEQ_DIGITS, "0")}`;
}

/** Every key of a recording's pieces (":" < ";" and ids hold neither). */
function piecesOf(id: string): IDBKeyRange {
  return IDBKeyRange.bound(`${id}:`, `${id};`, false, true);
}

/** A new recording's id: random, readable in a URL, made without a secure context too. */
export function newRecordingId(random: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  return Array.from(random(new Uint8Array(10)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export interface NewRecording {
  deckId: string;
  kind: RecordingRecord["kind"];
  title: string;
  audio: RecordingRecord["audio"];
  labels: string[];
}

/** The sound of one segment: its pieces' audio in order, as one file. */
export interface SegmentAudio {
  segment: number;
  /** Where the segment begins on the recording's clock. */
  startMs: number;
  endMs: number;
  audio: Blob;
}

/**
 * A recording read once for an export (`RecordingStore.track`): its events as stored (each
 * piece's compacted list, expanded only as a pass walks them: client/export/stored-track), and
 * its sound as one Blob per segment.
 */
export interface StoredTrack {
  /** Each piece's events as stored, in the recording's order. */
  pieces: StoredEvent[][];
  /** Each segment's sound, in order; empty for a silent recording. */
  segments: { segment: number; startMs: number; audio: Blob }[];
}

/**
 * Sound bytes gathered before they go into a Blob: an hour at 128 kbit/s (57 MB) becomes ~15
 * Blobs, and no more than this is held as ArrayBuffers at once.
 */
const TRACK_BLOB_BYTES = 4 * 1024 * 1024;

/** What a piece adds to a recording's size: its sound and (about) its events. */
function pieceBytes(piece: StoredRecordingPiece): number {
  return (piece.audio?.byteLength ?? 0) + (piece.events.length ? JSON.stringify(piece.events).length : 0);
}

/** A stored piece as the app reads it: its sound as a Blob of the recording's type, its events expanded. */
function readPiece(stored: StoredRecordingPiece, type: string): RecordingPiece {
  const { audio, events, ...rest } = stored;
  return { ...rest, events: expandEvents(events), ...(audio ? { audio: new Blob([audio], { type }) } : {}) };
}

type AnyTx = IDBPTransaction<DeckhandDB, StoreNames<DeckhandDB>[], "readwrite">;

/** Delete every recording of a deck inside `tx` (which must include both recording stores). */
export async function deleteRecordingsOfDeck(tx: AnyTx, deckId: string): Promise<void> {
  const recordings = tx.objectStore("recordings");
  const ids = await recordings.index("byDeck").getAllKeys(deckId);
  await Promise.all(ids.flatMap((id) => [recordings.delete(id), tx.objectStore("recordingPieces").delete(piecesOf(id))]));
}

export class RecordingStore {
  constructor(
    private readonly db: AnyDB,
    private readonly now: () => number = Date.now,
  ) {}

  /** Start a recording of a deck; null when the deck is gone (checked in the same transaction). */
  async createRecording(input: NewRecording, id = newRecordingId()): Promise<RecordingRecord | null> {
    try {
      const tx = this.db.transaction(["decks", "recordings"], "readwrite");
      const deck = await tx.objectStore("decks").get(input.deckId);
      const at = this.now();
      const record: RecordingRecord = { id, deckId: input.deckId, kind: input.kind, title: input.title, createdAt: at, updatedAt: at, state: "recording", durationMs: 0, bytes: 0, audio: input.audio, segments: 1, labels: input.labels.slice() };
      if (deck) await tx.objectStore("recordings").put(record);
      await tx.done;
      return deck ? record : null;
    } catch (cause) {
      throw new StorageError(classifyStorageError(cause), "The recording could not be started in this browser's storage.", { cause });
    }
  }

  getRecording(id: string): Promise<RecordingRecord | undefined> {
    return this.db.get("recordings", id);
  }

  /** A deck's recordings, newest first. */
  async listRecordings(deckId: string): Promise<RecordingRecord[]> {
    const all = await this.db.getAllFromIndex("recordings", "byDeck", deckId);
    return all.sort((a, b) => b.createdAt - a.createdAt);
  }

  /** Every recording by deck id, newest first (the library lists them all at once). */
  async recordingsByDeck(): Promise<Map<string, RecordingRecord[]>> {
    const out = new Map<string, RecordingRecord[]>();
    for (const r of (await this.db.getAll("recordings")).sort((a, b) => b.createdAt - a.createdAt)) {
      const list = out.get(r.deckId) ?? [];
      list.push(r);
      out.set(r.deckId, list);
    }
    return out;
  }

  /**
   * Keep one piece and grow its recording (length to the piece's end, size by the piece), in
   * one transaction. False when the recording is gone (deleted meanwhile: nothing is written).
   * A refusal (a full disk, storage turned off) is a StorageError: the caller ends cleanly.
   */
  async putPiece(piece: RecordingPiece): Promise<boolean> {
    const { audio, events, ...rest } = piece;
    // Read before the transaction: it would commit while a Blob is read.
    const bytes = audio?.size ? await audio.arrayBuffer() : undefined;
    const stored: StoredRecordingPiece = { ...rest, key: pieceKey(piece.recordingId, piece.seq), events: compactEvents(events), ...(bytes ? { audio: bytes } : {}) };
    try {
      const tx = this.db.transaction(["recordings", "recordingPieces"], "readwrite");
      const recordings = tx.objectStore("recordings");
      const record = await recordings.get(piece.recordingId);
      if (record) {
        const grown: RecordingRecord = { ...record, durationMs: Math.max(record.durationMs, piece.endMs), bytes: record.bytes + pieceBytes(stored), updatedAt: this.now(), segments: Math.max(record.segments, piece.segment + 1) };
        await Promise.all([tx.objectStore("recordingPieces").put(stored), recordings.put(grown)]);
      }
      await tx.done;
      return Boolean(record);
    } catch (cause) {
      throw new StorageError(classifyStorageError(cause), "This browser refused to keep the recording.", { cause });
    }
  }

  /** Change a recording's record (its state, its title…); false when it is gone. */
  async updateRecording(id: string, change: Partial<Pick<RecordingRecord, "state" | "title" | "audio" | "kind">>): Promise<boolean> {
    const tx = this.db.transaction("recordings", "readwrite");
    const record = await tx.store.get(id);
    if (record) await tx.store.put({ ...record, ...change, updatedAt: this.now() });
    await tx.done;
    return Boolean(record);
  }

  /** A recording's pieces in order: their sound as Blobs of the recording's type, their events as they came. */
  async pieces(id: string): Promise<RecordingPiece[]> {
    const type = (await this.getRecording(id))?.audio?.mimeType ?? "";
    const stored = await this.db.getAll("recordingPieces", piecesOf(id));
    return stored.map((p) => readPiece(p, type));
  }

  /** The last piece written, if any (where a continued recording picks up). */
  async lastPiece(id: string): Promise<RecordingPiece | undefined> {
    const cursor = await this.db.transaction("recordingPieces").store.openCursor(piecesOf(id), "prev");
    return cursor ? readPiece(cursor.value, "") : undefined;
  }

  /** The recording's picture track: every piece's events, in order. */
  async timeline(id: string): Promise<TimelineEvent[]> {
    return (await this.db.getAll("recordingPieces", piecesOf(id))).flatMap((p) => expandEvents(p.events));
  }

  /**
   * The recording as an export reads it, in one pass of a cursor: the events left compacted,
   * the sound gathered a few MB at a time into Blobs (the bytes leave the JS heap as they go).
   * Nothing of it passes through a page: the export worker reads it itself.
   */
  async track(id: string): Promise<StoredTrack> {
    const type = (await this.getRecording(id))?.audio?.mimeType ?? "";
    const pieces: StoredEvent[][] = [];
    const bySegment = new Map<number, { startMs: number; blobs: Blob[]; buffers: ArrayBuffer[]; bytes: number }>();
    const seal = (entry: { blobs: Blob[]; buffers: ArrayBuffer[]; bytes: number }) => {
      if (entry.buffers.length) entry.blobs.push(new Blob(entry.buffers));
      entry.buffers = [];
      entry.bytes = 0;
    };
    for await (const cursor of this.db.transaction("recordingPieces").store.iterate(piecesOf(id))) {
      const piece = cursor.value;
      pieces.push(piece.events);
      if (!piece.audio?.byteLength) continue;
      let entry = bySegment.get(piece.segment);
      if (!entry) bySegment.set(piece.segment, (entry = { startMs: piece.startMs, blobs: [], buffers: [], bytes: 0 }));
      entry.buffers.push(piece.audio);
      entry.bytes += piece.audio.byteLength;
      if (entry.bytes >= TRACK_BLOB_BYTES) seal(entry);
    }
    return {
      pieces,
      segments: [...bySegment]
        .sort(([a], [b]) => a - b)
        .map(([segment, entry]) => {
          seal(entry);
          return { segment, startMs: entry.startMs, audio: new Blob(entry.blobs, { type }) };
        }),
    };
  }

  /** The recording's sound, segment by segment (each one container file); empty for a silent one. */
  async segmentAudio(id: string): Promise<SegmentAudio[]> {
    const record = await this.getRecording(id);
    const type = record?.audio?.mimeType ?? "";
    const bySegment = new Map<number, { parts: ArrayBuffer[]; startMs: number; endMs: number }>();
    for (const piece of await this.db.getAll("recordingPieces", piecesOf(id))) {
      const entry = bySegment.get(piece.segment) ?? { parts: [], startMs: piece.startMs, endMs: piece.endMs };
      if (piece.audio) entry.parts.push(piece.audio);
      entry.endMs = Math.max(entry.endMs, piece.endMs);
      bySegment.set(piece.segment, entry);
    }
    return [...bySegment]
      .filter(([, s]) => s.parts.length)
      .sort(([a], [b]) => a - b)
      .map(([segment, s]) => ({ segment, startMs: s.startMs, endMs: s.endMs, audio: new Blob(s.parts, { type }) }));
  }

  /** Delete a recording and all its pieces. */
  async deleteRecording(id: string): Promise<void> {
    const tx = this.db.transaction(["recordings", "recordingPieces"], "readwrite");
    await Promise.all([tx.objectStore("recordings").delete(id), tx.objectStore("recordingPieces").delete(piecesOf(id)), tx.done]);
  }
}
