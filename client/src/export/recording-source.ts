/**
 * @module client/export/recording-source
 * What an export reads of a recording, and nothing more: its title and length, its sound as
 * one Blob per segment (a MediaRecorder session) with the time that segment starts, and its
 * picture track. The recordings store (client/storage) keeps a recording as a record and
 * pieces of about a second, each with the audio and the events of that second; `storedRecording`
 * reads that shape, and a test or a benchmark can hand a recording it made itself.
 */
import type { TimelineEvent } from "../record/timeline.ts";

export interface RecordingMeta {
  id: string;
  deckId: string;
  title: string;
  durationMs: number;
  /** The recorded sound's container type ("audio/webm;codecs=opus", …); null without a microphone. */
  audioMime: string | null;
  /** The slide label of every page when it was recorded (the chapters' grouping); empty: the deck's own. */
  labels: string[];
}

export interface RecordingSource {
  meta: RecordingMeta;
  /** Each segment's bytes (its pieces' audio in order, one playable file) and where it starts. */
  segments(): AsyncIterable<{ startMs: number; bytes: Blob }>;
  /** The picture track in time order. */
  events(): Promise<TimelineEvent[]>;
}

/** A recording as the recordings store keeps it (the fields the export reads). */
export interface StoredRecording {
  id: string;
  deckId: string;
  title: string;
  durationMs: number;
  audio: { mimeType: string } | null;
  labels: string[];
}

/** One stored piece: about a second of a segment's audio and the events of that second. */
export interface StoredPiece {
  seq: number;
  segment: number;
  startMs: number;
  audio?: Blob;
  events: TimelineEvent[];
}

/**
 * A stored recording as a source. `pieces` reads the recording's pieces (in any order; they
 * are put in `seq` order here); it is called once per read, so nothing is kept in memory
 * between an export's two passes but the Blob handles.
 */
export function storedRecording(record: StoredRecording, pieces: () => Promise<readonly StoredPiece[]> | AsyncIterable<StoredPiece>): RecordingSource {
  const ordered = async (): Promise<StoredPiece[]> => {
    const got = pieces();
    const list: StoredPiece[] = [];
    if (Symbol.asyncIterator in got) for await (const piece of got) list.push(piece);
    else list.push(...(await got));
    return list.sort((a, b) => a.seq - b.seq);
  };
  return {
    meta: { id: record.id, deckId: record.deckId, title: record.title, durationMs: record.durationMs, audioMime: record.audio?.mimeType ?? null, labels: record.labels },
    async *segments() {
      const bySegment = new Map<number, StoredPiece[]>();
      for (const piece of await ordered()) {
        if (!piece.audio) continue;
        bySegment.set(piece.segment, [...(bySegment.get(piece.segment) ?? []), piece]);
      }
      for (const [, list] of [...bySegment].sort((a, b) => a[0] - b[0])) {
        yield { startMs: list[0]!.startMs, bytes: new Blob(list.map((p) => p.audio!), { type: record.audio?.mimeType ?? "" }) };
      }
    },
    async events() {
      // Stable: events of one instant keep the order they were recorded in.
      return (await ordered()).flatMap((p) => p.events).sort((a, b) => a.t - b.t);
    },
  };
}
