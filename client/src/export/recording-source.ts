/**
 * @module client/export/recording-source
 * What a page knows of a recording it exports: its title and length, and where the export
 * worker reads the rest. A stored recording (the recordings store keeps a record and pieces of
 * about a second, each with the audio and the events of that second) is read by the worker
 * itself, by id (client/export/stored-track); a test can hand a recording it made itself, whole,
 * in the same shape of pieces (`givenRecording`).
 */
import type { TimelineEvent } from "../record/timeline.ts";
import type { RecordingRef } from "./export-protocol.ts";

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
  /** Where the export worker reads the recording, at the moment an export starts. */
  take(): Promise<RecordingRef>;
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

/** One piece of a recording handed whole: about a second of a segment's audio and the events of that second. */
export interface StoredPiece {
  seq: number;
  segment: number;
  startMs: number;
  audio?: Blob;
  events: TimelineEvent[];
}

function metaOf(record: StoredRecording): RecordingMeta {
  return { id: record.id, deckId: record.deckId, title: record.title, durationMs: record.durationMs, audioMime: record.audio?.mimeType ?? null, labels: record.labels };
}

/**
 * A recording of the recordings store: the export worker reads it there itself (by id), so
 * nothing of it is read into the page.
 */
export function storedRecording(record: StoredRecording): RecordingSource {
  return { meta: metaOf(record), take: async () => ({ from: "store", id: record.id }) };
}

/**
 * A recording handed whole (a test's): `pieces` is read when an export starts (in any order;
 * put in `seq` order here), and the page hands the worker the picture track and one Blob per
 * segment.
 */
export function givenRecording(record: StoredRecording, pieces: () => Promise<readonly StoredPiece[]>): RecordingSource {
  return {
    meta: metaOf(record),
    async take() {
      const ordered = [...(await pieces())].sort((a, b) => a.seq - b.seq);
      const bySegment = new Map<number, StoredPiece[]>();
      for (const piece of ordered) if (piece.audio) bySegment.set(piece.segment, [...(bySegment.get(piece.segment) ?? []), piece]);
      const segments = [...bySegment].sort((a, b) => a[0] - b[0]).map(([, list]) => ({ startMs: list[0]!.startMs, blob: new Blob(list.map((p) => p.audio!), { type: record.audio?.mimeType ?? "" }) }));
      // Stable: events of one instant keep the order they were recorded in.
      const events = ordered.flatMap((p) => p.events).sort((a, b) => a.t - b.t);
      return { from: "given", events, segments };
    },
  };
}
