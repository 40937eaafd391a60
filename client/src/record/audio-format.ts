/**
 * @module client/record/audio-format
 * How this browser records sound, chosen once per recording: Opus in a container, so the
 * export re-uses the recorded packets as they are (never decoded and encoded again).
 * 1. MediaRecorder in WebM/Opus, else Ogg/Opus (Chromium, Firefox, Safari 18.4+): the
 *    browser's own recorder, whose encoding never waits for the page's main thread.
 * 2. WebCodecs' Opus encoder, muxed into WebM as it comes (./webcodecs-capture.ts): where
 *    MediaRecorder is missing or has no Opus (WebKitGTK with GStreamer before 1.24.9 has no
 *    MediaRecorder at all; older Safari records AAC only).
 * 3. MediaRecorder in whatever it offers (AAC in MP4 on an older Safari): recorded and
 *    played back; the export says in plain words what it cannot do with it.
 * None of these: no sound can be recorded here; a silent recording (the timeline) still can.
 */

/** MediaRecorder types tried first, best first. */
export const OPUS_TYPES = ["audio/webm;codecs=opus", "audio/ogg;codecs=opus"] as const;
/** What MediaRecorder may give instead when it has no Opus. */
const OTHER_TYPES = ["audio/mp4", "audio/webm", "audio/ogg"] as const;

/** The container the WebCodecs capture writes. */
export const WEBCODECS_TYPE = "audio/webm;codecs=opus";

/** Bits per second of the recorded voice: Opus at 48 kb/s is transparent for speech (about 22 MB an hour). */
export const AUDIO_BITS_PER_SECOND = 48_000;

export type CaptureChoice = { kind: "media-recorder"; mimeType: string } | { kind: "webcodecs"; mimeType: string };

export interface EngineAudio {
  /** MediaRecorder exists here. */
  recorder: boolean;
  /** MediaRecorder.isTypeSupported. */
  supports(type: string): boolean;
  /** WebCodecs can encode Opus here. */
  webCodecsOpus: boolean;
}

/** The capture this engine records with, or null when it cannot record sound at all. */
export function chooseCapture(engine: EngineAudio): CaptureChoice | null {
  if (engine.recorder) {
    const opus = OPUS_TYPES.find((t) => engine.supports(t));
    if (opus) return { kind: "media-recorder", mimeType: opus };
  }
  if (engine.webCodecsOpus) return { kind: "webcodecs", mimeType: WEBCODECS_TYPE };
  if (engine.recorder) {
    const other = OTHER_TYPES.find((t) => engine.supports(t));
    if (other) return { kind: "media-recorder", mimeType: other };
  }
  return null;
}

/** What this browser offers, asked of the browser itself. */
export async function engineAudio(): Promise<EngineAudio> {
  const recorder = typeof MediaRecorder !== "undefined";
  let webCodecsOpus = false;
  if (typeof AudioEncoder !== "undefined") {
    try {
      webCodecsOpus = (await AudioEncoder.isConfigSupported({ codec: "opus", sampleRate: 48_000, numberOfChannels: 1, bitrate: AUDIO_BITS_PER_SECOND })).supported === true;
    } catch {
      webCodecsOpus = false;
    }
  }
  return { recorder, supports: (t) => recorder && MediaRecorder.isTypeSupported(t), webCodecsOpus };
}
