/**
 * @module client/export/stored-track
 * The recording as the export worker reads it: a stored one straight from this browser's
 * storage (the recordings store's one pass of a cursor), so an hour's picture track is neither
 * in the page nor copied across to the worker, and stays compacted (client/record/compact:
 * a stroke being drawn is kept as the points each message added) — each pass over it (the
 * chapters, the floats, the frame schedule, the replay while encoding) expands one piece at a
 * time as it walks. A recording handed whole is taken as it is.
 */
import { expandEvents, type StoredEvent } from "../record/compact.ts";
import type { TimelineEvent } from "../record/timeline.ts";
import { DeckStore } from "../storage/deck-store.ts";
import type { RecordingRef } from "./export-protocol.ts";

export interface ExportTrack {
  /** The picture track in time order; walked once per pass, as often as needed. */
  events: Iterable<TimelineEvent>;
  /** Each segment's sound and where it starts on the recording's clock. */
  segments: { startMs: number; blob: Blob }[];
}

/** Stored pieces' events as one track, each piece expanded only while a walk is in it. */
export function expandedTrack(pieces: readonly (readonly StoredEvent[])[]): Iterable<TimelineEvent> {
  return {
    *[Symbol.iterator]() {
      for (const piece of pieces) yield* expandEvents(piece);
    },
  };
}

export async function readTrack(source: RecordingRef): Promise<ExportTrack> {
  if (source.from === "given") return { events: source.events, segments: source.segments };
  const store = await DeckStore.open();
  try {
    const track = await store.recordings.track(source.id);
    return { events: expandedTrack(track.pieces), segments: track.segments.map((s) => ({ startMs: s.startMs, blob: s.audio })) };
  } finally {
    store.close();
  }
}
