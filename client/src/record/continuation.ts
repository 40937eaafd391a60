/**
 * @module client/record/continuation
 * After a crash, a reload or a closed tab: which of a deck's recordings were interrupted
 * (their record says "recording" and no window holds their lock — ./recording-lock.ts), and
 * where one picks up when the speaker continues it: a new segment (a new container file, as a
 * new MediaRecorder session needs) starting at the length kept, its pieces numbered on after
 * the last one written.
 */
import type { RecordingPiece, RecordingRecord } from "../storage/schema.ts";
import type { RecordingStore } from "../storage/recording-store.ts";
import type { PieceWriterStart } from "./piece-writer.ts";
import { recordingsInProgress, stillRecording } from "./recording-lock.ts";

/** Where a continued recording's writing starts. Pure. */
export function continuation(record: RecordingRecord, last: RecordingPiece | undefined): PieceWriterStart {
  return {
    recordingId: record.id,
    segment: Math.max(record.segments, last ? last.segment + 1 : 0),
    seq: last ? last.seq + 1 : 0,
    startMs: Math.max(record.durationMs, last?.endMs ?? 0),
  };
}

/**
 * The deck's recordings left unfinished by a window that is gone, newest first; each one still
 * marked "recording" is marked "interrupted" (so the library says so too).
 */
export async function interruptedRecordings(store: RecordingStore, deckId: string, now = Date.now()): Promise<RecordingRecord[]> {
  const inProgress = await recordingsInProgress();
  const out: RecordingRecord[] = [];
  for (const record of await store.listRecordings(deckId)) {
    if (record.state === "stopped" || stillRecording(record, inProgress, now)) continue;
    if (record.state === "recording") await store.updateRecording(record.id, { state: "interrupted" });
    out.push({ ...record, state: "interrupted" });
  }
  return out;
}
