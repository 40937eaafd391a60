/**
 * @module client/export/export-run
 * One export, from the job to the file, in the export worker: read the recording (a stored
 * one from this browser's storage: client/export/stored-track), convert its sound to Opus where
 * it was recorded in another format (each step told to the page), open the deck in the render
 * worker the page started for it (mupdf: the slides, their labels and the outline for the
 * chapter titles), cut the recording into chapters, demux the recorded Opus packets, and —
 * for a video — replay the picture track, drawing and encoding a frame only at the instants the
 * schedule names, while the muxer interleaves both tracks by time and streams the file to the sink.
 * Audio and video are fed in step (each frame after the sound up to its time), so the muxer
 * never holds more than a few seconds of either.
 */
import type { EncodedPacket } from "mediabunny";
import { Renderer } from "../lib/renderer.ts";
import { layoutFromLabels, openedLayout } from "../model/deck-layout.ts";
import { AudioNotConvertible, recordedAudio, type RecordedAudio } from "./audio-packets.ts";
import { recordingChapters } from "./chapter-titles.ts";
import type { ExportJob, ExportMessage } from "./export-protocol.ts";
import { BlobFile, fileSink, type ByteSink } from "./file-sink.ts";
import { floatsAt, floatTrack } from "./float-track.ts";
import { frameSchedule } from "./frame-schedule.ts";
import { WebmMuxer } from "./mux.ts";
import { PicturePainter } from "./picture-paint.ts";
import { Replay } from "./replay.ts";
import { SlideSource } from "./slide-source.ts";
import { readTrack } from "./stored-track.ts";
import { chooseVideoCodec, type VideoChoice } from "./video-codec.ts";
import { VideoTrack } from "./video-track.ts";

/** Progress is reported at most this often: a bar moves smoothly at 4 updates a second. */
const PROGRESS_MS = 250;

type Post = (message: ExportMessage) => void;

/** A problem the page explains: its code and sentence travel as they are. */
class Stop extends Error {
  constructor(readonly code: Extract<ExportMessage, { type: "failed" }>["code"], message: string) {
    super(message);
  }
}

/** The muxer's audio side: packets moved in up to a time, the first with the decoder config. */
class AudioFeed {
  private pending: EncodedPacket | null = null;
  private first = true;
  private done = false;
  count = 0;

  /** `end`: the recording's length in seconds; sound after it (a session stopped late) is left out. */
  constructor(private readonly audio: RecordedAudio | null, private readonly muxer: WebmMuxer | null, private readonly end: number) {}

  /** Every packet starting before `until` seconds (all, up to the end, when Infinity). */
  async until(until: number): Promise<void> {
    if (!this.audio || this.done) return;
    for (;;) {
      if (!this.pending) {
        const next = await this.audio.packets.next();
        if (next.done) {
          this.done = true;
          return;
        }
        this.pending = next.value;
        if (this.pending.timestamp >= this.end) {
          this.done = true;
          return;
        }
      }
      if (this.pending.timestamp >= until) return;
      await this.muxer?.addAudio(this.pending, this.first ? { decoderConfig: this.audio.config } : undefined);
      this.first = false;
      this.count++;
      this.pending = null;
    }
  }
}

async function sinkFor(job: ExportJob, type: string): Promise<ByteSink> {
  if (!job.file) return new BlobFile(type);
  try {
    return fileSink(await job.file.createWritable());
  } catch {
    throw new Stop("WRITE_FAILED", "The chosen file could not be written. Choose another place to save it, or free some disk space.");
  }
}

/** `render`: the port to the render worker the page started for this export. */
export async function runExport(job: ExportJob, render: MessagePort, post: Post): Promise<void> {
  try {
    await exportFile(job, render, post);
  } catch (error) {
    if (error instanceof Stop) post({ type: "failed", code: error.code, message: error.message });
    else if (error instanceof AudioNotConvertible) post({ type: "failed", code: "AUDIO_NOT_CONVERTIBLE", message: `This recording's sound is ${error.codec ? error.codec.toUpperCase() : "in a format this browser cannot read"}, and this browser cannot convert it to Opus, the sound of a WebM file. The recording still plays in deckhand.` });
    else post({ type: "failed", code: "EXPORT_FAILED", message: `The export stopped: ${error instanceof Error ? error.message : String(error)}. Try again; if it fails again, the recording still plays in deckhand.` });
  }
}

async function exportFile(job: ExportJob, render: MessagePort, post: Post): Promise<void> {
  const { recording } = job;
  const total = recording.durationMs;
  let video: VideoChoice | null = null;
  if (job.kind === "video") {
    video = await chooseVideoCodec();
    if (!video) throw new Stop("VIDEO_ENCODER_MISSING", "This browser cannot encode video (it has no VP9 or VP8 encoder), so Save video is not available here. Save audio works, and the recording plays in deckhand.");
  }
  post({ type: "step", step: "reading", fraction: null });
  const track = await readTrack(recording.source);
  // Not 0: a worker's clock starts with the worker, and its first report must not wait.
  let lastConvert = -Infinity;
  const audio = await recordedAudio(track.segments, (fraction) => {
    const now = performance.now();
    if (now - lastConvert < PROGRESS_MS) return;
    lastConvert = now;
    post({ type: "step", step: "converting", fraction });
  });
  if (job.kind === "audio" && !audio) throw new Stop("NO_AUDIO", "This recording has no sound (it was made without a microphone): there is nothing to save as audio. Save video gives the slides and the ink.");

  post({ type: "step", step: "opening", fraction: null });
  const renderer = new Renderer(render);
  try {
    const opened = await renderer.open(job.deck.bytes, { transfer: true, ...(job.deck.notesPosition ? { notesPosition: job.deck.notesPosition } : {}), ...(job.deck.notesFile ? { notesFile: job.deck.notesFile } : {}) }).catch(() => {
      throw new Stop("DECK_UNREADABLE", "The deck of this recording cannot be read any more. Open it in the library once to check it, then export again.");
    });
    const layout = recording.labels.length === opened.pageCount ? layoutFromLabels(recording.labels) : openedLayout(opened);
    const outline = await renderer.outline().catch(() => []);
    const chapters = recordingChapters(track.events, layout, outline, total);
    const floats = video ? floatTrack(track.events) : [];
    const schedule = video ? frameSchedule(track.events, floats, total, layout) : [];

    const sink = job.dryRun ? null : await sinkFor(job, video ? "video/webm" : "audio/webm");
    const muxer = sink ? await WebmMuxer.start({ sink, video: video?.codec ?? null, audio: !!audio, chapters, title: job.title }) : null;
    // The baseline renders frames only: no sound read either.
    const feed = new AudioFeed(job.dryRun ? null : audio, muxer, total / 1000);
    let lastProgress = -Infinity;
    const progress = (doneMs: number) => {
      const now = performance.now();
      if (now - lastProgress < PROGRESS_MS) return;
      lastProgress = now;
      post({ type: "progress", doneMs: Math.min(doneMs, total), totalMs: total });
    };
    let frames = 0;
    let keyframes = 0;
    let repeats = 0;
    try {
      if (video) {
        const { width, height } = video.config;
        const painter = new PicturePainter(width, height);
        const slides = new SlideSource(renderer, layout, opened.firstPage, width, height);
        const replay = new Replay(track.events);
        const durations = new Map(schedule.map((f, i) => [f.t, (schedule[i + 1]?.t ?? total) - f.t]));
        const encoded = new VideoTrack(video, muxer, durations);
        try {
          for (const frame of schedule) {
            await feed.until(frame.t / 1000);
            if (!frame.repeat) {
              // A repeat shows the canvas as it is: nothing changed since the frame before.
              const picture = replay.at(frame.t);
              painter.paint(picture, await slides.pixels(picture), floatsAt(floats, frame.t), frame.t);
            }
            await encoded.add(frame, painter.canvas);
            progress(frame.t);
          }
          await encoded.finish();
          frames = encoded.frames;
          keyframes = encoded.keyframes;
          repeats = encoded.repeats;
        } finally {
          encoded.close();
          slides.close();
        }
      }
      // A file of sound only: the packets in steps, with progress; then whatever is left after the last frame.
      if (!video) {
        for (let t = 0; t < total; t += 10_000) {
          await feed.until(t / 1000);
          progress(t);
        }
      }
      await feed.until(Infinity);
      const file = muxer ? await muxer.finish() : null;
      post({
        type: "done",
        file,
        bytes: sink?.size ?? 0,
        frames,
        keyframes,
        repeats,
        chapters: chapters.length,
        audioPackets: feed.count,
        video: video ? { codec: video.config.codec, width: video.config.width, height: video.config.height } : null,
        audioConverted: audio?.converted ?? false,
      });
    } catch (error) {
      await muxer?.cancel();
      throw error;
    }
  } finally {
    renderer.terminate();
  }
}
