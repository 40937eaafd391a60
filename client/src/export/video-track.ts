/**
 * @module client/export/video-track
 * The video side of an export: each scheduled frame handed to WebCodecs' VideoEncoder and its
 * packets to the muxer in order, with their durations. A repeat of the still picture is encoded
 * from the last frame as it is (a VideoFrame made from another shares its pixels: no canvas is
 * read again), which the encoder turns into ~60 bytes in ~9 ms at 1080p. The encoder's queue is
 * kept short, so frames are drawn no faster than they are encoded.
 *
 * VP9's one-byte "show the frame in slot n again" would cost nothing at all, and Chromium,
 * WebKit and ffmpeg show it; Firefox's player drops such frames when it seeks, and then shows
 * the next slide rather than the one of the moment — so repeats are real frames.
 */
import { EncodedPacket } from "mediabunny";
import type { FrameTime } from "./frame-schedule.ts";
import type { WebmMuxer } from "./mux.ts";
import type { VideoChoice } from "./video-codec.ts";

/**
 * Frames waiting in the encoder at most before the next is drawn: each is 8 MB at 1080p, and
 * one waiting while the next is drawn keeps the encoder busy (bench/export.ts).
 */
const ENCODE_QUEUE = 1;

/**
 * How often a wait for the encoder's queue to shrink looks at it again without a `dequeue`
 * event. The event alone is not enough: WebCodecs may update `encodeQueueSize` in a later task
 * than the one that fires the event (w3c/webcodecs#724), so an event seen while the size still
 * reads 2 can be the last one, and a wait on events alone then never ends.
 */
const DEQUEUE_RECHECK_MS = 25;

export class VideoTrack {
  frames = 0;
  keyframes = 0;
  repeats = 0;
  private readonly encoder: VideoEncoder;
  private written: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  private firstPacket = true;
  /** The last frame drawn: a repeat is made from it. */
  private last: VideoFrame | null = null;
  /** Ends the current wait for the queue to shrink: the encoder's error does not leave it waiting. */
  private wake: (() => void) | null = null;

  /**
   * `durations`: each frame's time on screen by its timestamp (ms). `muxer` null: a dry run —
   * frames are drawn and dropped, nothing is encoded (nor are repeats made).
   */
  constructor(
    private readonly choice: VideoChoice,
    private readonly muxer: WebmMuxer | null,
    private readonly durations: ReadonlyMap<number, number>,
  ) {
    this.encoder = new VideoEncoder({
      output: (chunk, meta) => this.output(chunk, meta),
      error: (error) => {
        this.failure ??= error;
        // A closed encoder sends no more dequeue events.
        this.wake?.();
      },
    });
    if (muxer) this.encoder.configure(choice.config);
  }

  private output(chunk: EncodedVideoChunk, meta?: EncodedVideoChunkMetadata): void {
    const packet = EncodedPacket.fromEncodedChunk(chunk);
    const ms = Math.round(chunk.timestamp / 1000);
    const config = this.firstPacket && meta?.decoderConfig ? { decoderConfig: meta.decoderConfig } : undefined;
    this.firstPacket = false;
    const timed = packet.clone({ duration: (this.durations.get(ms) ?? 0) / 1000 });
    this.written = this.written.then(() => this.muxer?.addVideo(timed, config)).catch((error: unknown) => {
      this.failure ??= error;
    });
  }

  /** Frame `frame`, its picture on `canvas` (drawn by the caller unless it is a repeat). */
  async add(frame: FrameTime, canvas: OffscreenCanvas): Promise<void> {
    if (this.failure) throw this.failure;
    this.frames++;
    if (frame.key) this.keyframes++;
    const init = { timestamp: frame.t * 1000, duration: (this.durations.get(frame.t) ?? 0) * 1000 };
    if (frame.repeat && this.last) {
      this.repeats++;
      if (!this.muxer) return;
      const image = new VideoFrame(this.last, init);
      try {
        await this.encode(image, frame.key);
      } finally {
        image.close();
      }
      return;
    }
    const image = new VideoFrame(canvas, init);
    this.last?.close();
    this.last = image;
    if (this.muxer) await this.encode(image, frame.key);
  }

  private async encode(image: VideoFrame, key: boolean): Promise<void> {
    while (this.encoder.encodeQueueSize > ENCODE_QUEUE && !this.failure) await this.dequeued();
    if (this.failure) throw this.failure;
    this.encoder.encode(image, this.choice.frameOptions(key));
  }

  /** The encoder's next `dequeue` event, its error or DEQUEUE_RECHECK_MS, whichever comes first. */
  private dequeued(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.encoder.removeEventListener("dequeue", done);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, DEQUEUE_RECHECK_MS);
      this.encoder.addEventListener("dequeue", done);
      this.wake = done;
    });
  }

  /** Every packet out and in the muxer. */
  async finish(): Promise<void> {
    if (this.muxer) await this.encoder.flush();
    await this.written;
    if (this.failure) throw this.failure;
  }

  close(): void {
    this.last?.close();
    this.last = null;
    if (this.encoder.state !== "closed") this.encoder.close();
  }
}
