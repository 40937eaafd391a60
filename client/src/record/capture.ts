/**
 * @module client/record/capture
 * The microphone's sound as a container stream, in slices of about a second, whichever way
 * this browser records it (./audio-format.ts): the browser's MediaRecorder here, WebCodecs
 * in ./webcodecs-capture.ts. The slices of one capture, in order, are one playable file: a
 * recording's segment. Pausing leaves no gap in the file (the recording's clock stops too).
 */
import { AUDIO_BITS_PER_SECOND, type CaptureChoice } from "./audio-format.ts";

/** How often the capture hands over its data: the most a crash can take, before writing. */
export const SLICE_MS = 1000;

export interface AudioCapture {
  readonly mimeType: string;
  /** Start; `data` then gets the container's bytes in order, about every SLICE_MS. */
  start(data: (slice: Blob) => void): Promise<void>;
  pause(): void;
  resume(): void;
  /** Stop; resolves after the last bytes were handed over. */
  stop(): Promise<void>;
}

/** A capture of `stream` as chosen; `failed` is told once if the capture breaks mid-way. */
export async function openCapture(choice: CaptureChoice, stream: MediaStream, failed: (message: string) => void): Promise<AudioCapture> {
  if (choice.kind === "webcodecs") return (await import("./webcodecs-capture.ts")).webCodecsCapture(stream, failed);
  return mediaRecorderCapture(stream, choice.mimeType, failed);
}

function mediaRecorderCapture(stream: MediaStream, mimeType: string, failed: (message: string) => void): AudioCapture {
  const recorder = new MediaRecorder(stream, { mimeType, audioBitsPerSecond: AUDIO_BITS_PER_SECOND });
  let stopping = false;
  recorder.addEventListener("error", () => {
    if (!stopping) failed("The browser's recorder stopped with an error.");
  });
  return {
    // The browser may add to the type (e.g. the codec): the recorder's own word is kept.
    get mimeType() {
      return recorder.mimeType || mimeType;
    },
    start: async (data) => {
      recorder.addEventListener("dataavailable", (event) => data(event.data));
      recorder.start(SLICE_MS);
    },
    pause: () => {
      if (recorder.state === "recording") recorder.pause();
    },
    resume: () => {
      if (recorder.state === "paused") recorder.resume();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        if (recorder.state === "inactive") return resolve();
        // "stop" comes after the last "dataavailable".
        recorder.addEventListener("stop", () => resolve(), { once: true });
        recorder.stop();
      }),
  };
}
