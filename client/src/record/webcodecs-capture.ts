/**
 * @module client/record/webcodecs-capture
 * Sound recorded without MediaRecorder: the microphone's samples encoded to Opus by WebCodecs
 * and muxed into WebM as they come, append-only (mediabunny), so the slices of one capture
 * concatenate into one file exactly as MediaRecorder's do. For engines whose MediaRecorder is
 * missing or has no Opus (./audio-format.ts). Loaded only when such an engine records.
 */
import { MediaStreamAudioTrackSource, Output, StreamTarget, WebMOutputFormat, type StreamTargetChunk } from "mediabunny";
import { AUDIO_BITS_PER_SECOND, WEBCODECS_TYPE } from "./audio-format.ts";
import { SLICE_MS, type AudioCapture } from "./capture.ts";

export function webCodecsCapture(stream: MediaStream, failed: (message: string) => void): AudioCapture {
  const track = stream.getAudioTracks()[0];
  if (!track) throw new Error("The microphone gave no sound track.");
  let handOver: (slice: Blob) => void = () => {};
  let ended = false;
  const target = new StreamTarget(
    new WritableStream<StreamTargetChunk>({
      write: (chunk) => handOver(new Blob([chunk.data.slice()], { type: WEBCODECS_TYPE })),
    }),
  );
  // Clusters of one slice: each is written whole as soon as it is complete.
  const output = new Output({ format: new WebMOutputFormat({ appendOnly: true, minimumClusterDuration: SLICE_MS / 1000 }), target });
  const source = new MediaStreamAudioTrackSource(track as MediaStreamAudioTrack, { codec: "opus", bitrate: AUDIO_BITS_PER_SECOND });
  output.addAudioTrack(source);
  source.errorPromise.catch(() => {
    if (!ended) failed("The browser's sound encoder stopped with an error.");
  });
  return {
    mimeType: WEBCODECS_TYPE,
    start: async (data) => {
      handOver = data;
      await output.start();
    },
    pause: () => source.pause(),
    resume: () => source.resume(),
    stop: async () => {
      ended = true;
      if (output.state === "started") await output.finalize();
    },
  };
}
