/**
 * @module client/export/export-protocol
 * Messages between a page and the export worker. The page hands over everything the export
 * needs in one message — the deck's bytes, which recording (a stored one by its id: the worker
 * reads it from this browser's storage itself, so an hour's picture track never sits in the
 * page nor crosses to the worker; or one handed whole, its audio as Blobs), and the file the
 * user picked if any — and hears progress, then the file or a problem. Cancelling is ending
 * the worker.
 */
import type { NotesPosition } from "../../../src/deck/notes-layout.ts";
import type { TimelineEvent } from "../record/timeline.ts";

export type ExportKind = "video" | "audio";

/**
 * Where the export reads the recording: from the recordings store by id (the library's rows,
 * the player), or handed whole — its picture track in time order and each MediaRecorder
 * session's bytes with where it starts on the recording's clock (`__deckhand.exportRecording`).
 */
export type RecordingRef = { from: "store"; id: string } | { from: "given"; events: TimelineEvent[]; segments: { startMs: number; blob: Blob }[] };

export interface ExportJob {
  kind: ExportKind;
  /** The file's title (its metadata; the file name is the page's business). */
  title: string;
  deck: {
    bytes: ArrayBuffer;
    notesPosition?: NotesPosition;
    /** The normalised .pdfpc stored with the deck (its grouping of pages into slides). */
    notesFile?: string;
  };
  recording: {
    durationMs: number;
    /** The slide label of every page when it was recorded (the chapters' grouping); empty: the deck's own. */
    labels: string[];
    source: RecordingRef;
  };
  /** The file the user picked (written in place); null: the file is assembled as a Blob. */
  file: FileSystemFileHandle | null;
  /**
   * The benchmark's baseline: every frame rendered and handed to a VideoFrame, nothing encoded
   * or written (bench/export.ts).
   */
  dryRun?: boolean;
}

/**
 * The page's one message to the export worker: the job, and a port to a render worker the page
 * started for it (client/worker/protocol's ServeMessage) — in Firefox, a Worker constructed
 * inside a worker sometimes never returned, and the export stood at "Opening the deck" for good.
 */
export interface ExportStart {
  type: "start";
  job: ExportJob;
  render: MessagePort;
}

/** Why an export stopped: a stable code and a sentence that says what to do. */
export type ExportProblemCode = "VIDEO_ENCODER_MISSING" | "AUDIO_NOT_CONVERTIBLE" | "NO_AUDIO" | "DECK_UNREADABLE" | "WRITE_FAILED" | "EXPORT_FAILED";

/**
 * What an export does before its file's first second: read the recording, convert its sound to
 * Opus (only sound recorded in another format: ten minutes of AAC took 6 s in Chromium on a
 * quiet two-core machine), open the deck. The page says which, so a wait there reads as work, not as a stuck 0 %.
 */
export type ExportStep = "reading" | "converting" | "opening";

export type ExportMessage =
  | {
      type: "step";
      step: ExportStep;
      /** How much of the step is done (0–1) where it can tell (converting), else null. */
      fraction: number | null;
    }
  | { type: "progress"; doneMs: number; totalMs: number }
  | {
      type: "done";
      /** The file, when it was assembled here; null when it was written to the picked file. */
      file: Blob | null;
      bytes: number;
      /** What went in: the video's frames, keyframes among them, repeats of a still picture among them, chapters, audio packets. */
      frames: number;
      keyframes: number;
      repeats: number;
      chapters: number;
      audioPackets: number;
      /** The video's size and codec ("" for sound only). */
      video: { codec: string; width: number; height: number } | null;
      /** Sound that was not Opus, converted (decoded and encoded again) rather than copied. */
      audioConverted: boolean;
    }
  | { type: "failed"; code: ExportProblemCode; message: string };
