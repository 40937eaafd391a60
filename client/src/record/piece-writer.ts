/**
 * @module client/record/piece-writer
 * Writes a recording as it comes, in pieces of about a second: the sound the capture handed
 * over and the timeline's events since the last piece go to IndexedDB together, one
 * transaction per piece (RecordingStore.putPiece), one piece after the other. What a crash,
 * a reload or a closed tab can take is only what is not yet written: the capture's last
 * slice (one second) and the piece being written — about two seconds at most.
 *
 * A refusal (a full disk, storage turned off, the recording deleted in another window) stops
 * the writing for good and is reported once; the pieces written before it stay.
 */
import type { RecordingPiece } from "../storage/schema.ts";
import { StorageError } from "../storage/storage-error.ts";
import type { TimelineEvent } from "./timeline.ts";

/** Where pieces go: RecordingStore in the browser, a stand-in in the tests. */
export interface PieceSink {
  /** False when the recording is gone; throws when storage refuses. */
  putPiece(piece: RecordingPiece): Promise<boolean>;
}

/** Why the writing stopped: storage refused it, or the recording was deleted meanwhile. */
export type WriteFailure = { kind: "refused"; error: StorageError } | { kind: "gone" };

export interface PieceWriterStart {
  recordingId: string;
  segment: number;
  /** The next piece's sequence number (0 for a new recording; after the last kept one when continued). */
  seq: number;
  /** Where on the recording's clock the first piece begins. */
  startMs: number;
}

export class PieceWriter {
  private events: TimelineEvent[] = [];
  private audio: Blob[] = [];
  private seq: number;
  private startMs: number;
  private queue: Promise<void> = Promise.resolve();
  private failure: WriteFailure | null = null;
  /** The clock time up to which everything is on disk. */
  private kept: number;

  constructor(
    private readonly sink: PieceSink,
    private readonly start: PieceWriterStart,
    private readonly onFailure: (failure: WriteFailure) => void,
  ) {
    this.seq = start.seq;
    this.startMs = start.startMs;
    this.kept = start.startMs;
  }

  /** An event for the piece being gathered. */
  event(event: TimelineEvent): void {
    if (!this.failure) this.events.push(event);
  }

  /** A slice of the segment's sound (the capture's data, in order). */
  sound(data: Blob): void {
    if (!this.failure && data.size) this.audio.push(data);
  }

  /** Where the piece being gathered began on the clock. */
  get pieceStartMs(): number {
    return this.startMs;
  }

  /** The clock time up to which everything is written. */
  get keptMs(): number {
    return this.kept;
  }

  get failed(): WriteFailure | null {
    return this.failure;
  }

  /**
   * Close the piece being gathered at clock time `endMs` and write it after the pieces before
   * it. Nothing is written for an empty stretch (no time, no sound, no events).
   */
  flush(endMs: number): Promise<void> {
    if (this.failure) return this.queue;
    const end = Math.max(endMs, this.startMs);
    if (end === this.startMs && !this.audio.length && !this.events.length) return this.queue;
    const piece: RecordingPiece = {
      key: "",
      recordingId: this.start.recordingId,
      seq: this.seq++,
      segment: this.start.segment,
      startMs: this.startMs,
      endMs: end,
      events: this.events,
      ...(this.audio.length ? { audio: new Blob(this.audio, { type: this.audio[0]!.type }) } : {}),
    };
    this.events = [];
    this.audio = [];
    this.startMs = end;
    this.queue = this.queue.then(() => this.write(piece));
    return this.queue;
  }

  /** Every piece handed over so far is written (or the writing failed). */
  settled(): Promise<void> {
    return this.queue;
  }

  private async write(piece: RecordingPiece): Promise<void> {
    if (this.failure) return;
    try {
      if (await this.sink.putPiece(piece)) {
        this.kept = piece.endMs;
        return;
      }
      this.fail({ kind: "gone" });
    } catch (error) {
      this.fail({ kind: "refused", error: error instanceof StorageError ? error : new StorageError("unknown", "This browser refused to keep the recording.", { cause: error }) });
    }
  }

  private fail(failure: WriteFailure): void {
    if (this.failure) return;
    this.failure = failure;
    this.events = [];
    this.audio = [];
    this.onFailure(failure);
  }
}
