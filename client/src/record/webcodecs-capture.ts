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
  // The muxer writes element by element; they are handed over a slice at a time, as MediaRecorder's timeslice does.
  let gathered: Uint8Array[] = [];
  const release = () => {
    if (!gathered.length) return;
    handOver(new Blob(gathered as BlobPart[], { type: WEBCODECS_TYPE }));
    gathered = [];
  };
  const timer = setInterval(release, SLICE_MS);
  const target = new StreamTarget(
    new WritableStream<StreamTargetChunk>({
      write: (chunk) => void gathered.push(chunk.data.slice()),
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
      clearInterval(timer);
      if (output.state === "started") await output.finalize();
      release();
    },
  };
}
