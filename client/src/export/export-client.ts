/**
 * @module client/export/export-client
 * The page's side of an export: a worker of its own per export (client/export/export-worker)
 * and the render worker it reaches over a port, the job handed over, each step before the
 * file, then the file's progress with the time left, the file or a problem at the end, and
 * cancel — which ends both workers at once, the half-written file with them.
 */
import type { ServeMessage } from "../worker/protocol.ts";
import type { ExportJob, ExportKind, ExportMessage, ExportProblemCode, ExportStart, ExportStep } from "./export-protocol.ts";

export type ExportDone = Extract<ExportMessage, { type: "done" }>;

/** An export that stopped with a problem the user can act on. */
export class ExportProblem extends Error {
  constructor(readonly code: ExportProblemCode | "CANCELLED", message: string) {
    super(message);
    this.name = "ExportProblem";
  }
}

export interface ExportProgress {
  /** A step before the file's first second (client/export/export-protocol), then the file itself. */
  step: ExportStep | "saving";
  /** 0–1 of the step; null where the step cannot tell (reading the recording, opening the deck). */
  fraction: number | null;
  /** Milliseconds left to save the file, by the pace of saving so far; null until there is a pace to go by. */
  leftMs: number | null;
}

/** Before this share of the work, or this long, a pace says little: no time left is shown yet. */
const MIN_FRACTION = 0.02;
const MIN_ELAPSED_MS = 1500;

/** The time left at the pace so far (null while too early to say). */
export function timeLeft(doneMs: number, totalMs: number, elapsedMs: number): number | null {
  if (totalMs <= 0 || doneMs <= 0 || doneMs / totalMs < MIN_FRACTION || elapsedMs < MIN_ELAPSED_MS) return null;
  return Math.max(0, (elapsedMs * (totalMs - doneMs)) / doneMs);
}

/** "about 3 min left", in words a progress bar can carry. */
export function formatLeft(ms: number): string {
  const s = ms / 1000;
  if (s < 10) return "a few seconds left";
  if (s < 60) return `about ${Math.round(s / 5) * 5} s left`;
  const min = Math.round(s / 60);
  if (min < 60) return `about ${min} min left`;
  return `about ${Math.floor(min / 60)} h ${min % 60} min left`;
}

const DOING: Record<ExportKind, string> = { video: "Saving the video", audio: "Saving the audio" };
const STEP: Record<ExportStep, string> = { reading: "Reading the recording", converting: "Converting the sound to Opus", opening: "Opening the deck" };

/**
 * What the progress bar and its line show: the share of the step in whole percent (null where
 * the step cannot tell), and the line — "Converting the sound to Opus… 40 %", then "Saving the
 * video… 12 % · about 3 min left".
 */
export function exportStatus(kind: ExportKind, progress: ExportProgress): { percent: number | null; text: string } {
  const percent = progress.fraction === null ? null : Math.floor(Math.min(1, Math.max(0, progress.fraction)) * 100);
  const doing = progress.step === "saving" ? DOING[kind] : STEP[progress.step];
  const left = progress.step === "saving" && progress.leftMs !== null ? ` · ${formatLeft(progress.leftMs)}` : "";
  return { percent, text: `${doing}…${percent === null ? "" : ` ${percent} %`}${left}` };
}

export interface RunningExport {
  done: Promise<ExportDone>;
  cancel(): void;
}

export function startExport(job: ExportJob, onProgress: (progress: ExportProgress) => void): RunningExport {
  const worker = new Worker(__DH_EXPORT_WORKER_URL__, { type: "module", name: "deckhand-export" });
  // The export's render worker is started here and reached over a port: a worker that starts
  // one itself sometimes hung in Firefox (ExportStart).
  const render = new Worker(__DH_WORKER_URL__, { type: "module", name: "deckhand-render" });
  const channel = new MessageChannel();
  const serve: ServeMessage = { type: "serve", port: channel.port1 };
  render.postMessage(serve, [channel.port1]);
  /** When the file's first second began: the pace counts from there, not from the steps before it. */
  let savingSince: number | null = null;
  let settle: { resolve: (done: ExportDone) => void; reject: (error: Error) => void };
  const done = new Promise<ExportDone>((resolve, reject) => (settle = { resolve, reject }));
  const end = () => {
    worker.terminate();
    render.terminate();
  };
  worker.onmessage = (event: MessageEvent<ExportMessage>) => {
    const message = event.data;
    if (message.type === "step") onProgress({ step: message.step, fraction: message.fraction, leftMs: null });
    else if (message.type === "progress") {
      savingSince ??= performance.now();
      onProgress({ step: "saving", fraction: message.totalMs > 0 ? message.doneMs / message.totalMs : 0, leftMs: timeLeft(message.doneMs, message.totalMs, performance.now() - savingSince) });
    } else if (message.type === "done") {
      end();
      settle.resolve(message);
    } else {
      end();
      settle.reject(new ExportProblem(message.code, message.message));
    }
  };
  worker.onerror = render.onerror = (event) => {
    end();
    settle.reject(new ExportProblem("EXPORT_FAILED", `The export could not start (${event.message || "the worker failed"}). Reload the page and try again.`));
  };
  // The deck's bytes are handed over (the caller gives a copy it no longer needs); Blobs go by reference.
  const start: ExportStart = { type: "start", job, render: channel.port2 };
  worker.postMessage(start, [job.deck.bytes, channel.port2]);
  return {
    done,
    cancel: () => {
      end();
      settle.reject(new ExportProblem("CANCELLED", "Export cancelled."));
    },
  };
}
