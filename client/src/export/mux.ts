/**
 * @module client/export/mux
 * The exported file: WebM written by mediabunny (a well-kept muxer: SeekHead, Cues, cluster
 * sizes and the duration filled in when it finishes), fed packets that are already encoded —
 * the recorded Opus packets as they are, and video frames from the export's own encoder — with
 * one chapter per slide span and the file's title put in the slot it leaves before the first
 * cluster (./chapter-slot.ts). The bytes stream to a ByteSink as they are written.
 */
import { EncodedAudioPacketSource, EncodedVideoPacketSource, Output, StreamTarget, WebMOutputFormat, type EncodedPacket, type StreamTargetChunk } from "mediabunny";
import type { Chapter } from "../record/timeline.ts";
import { chaptersElement, titleTags } from "./chapters.ts";
import { PatchSet, slotPatches, slotTags } from "./chapter-slot.ts";
import type { ByteSink } from "./file-sink.ts";

/** The muxer's writes are gathered to this size before they go to the sink (few, large writes). */
const WRITE_CHUNK_BYTES = 1024 * 1024;

/**
 * A new cluster at most every this many seconds when a keyframe allows: short clusters let a
 * player seek near any time without reading far (mediabunny's default is 1 s; an audio-only
 * talk would have 3,600 clusters an hour — 2 s halves the Cues and costs nothing in seeking).
 */
const CLUSTER_SECONDS = 2;

export interface MuxOptions {
  sink: ByteSink;
  /** The video track's codec ("vp9" or "vp8"); null for a file of sound only. */
  video: "vp9" | "vp8" | null;
  /** Whether there is a sound track (Opus). */
  audio: boolean;
  chapters: readonly Chapter[];
  title: string;
}

export class WebmMuxer {
  private constructor(
    private readonly output: Output,
    private readonly videoSource: EncodedVideoPacketSource | null,
    private readonly audioSource: EncodedAudioPacketSource | null,
    private readonly sink: ByteSink,
    private readonly patches: PatchSet,
  ) {}

  static async start(options: MuxOptions): Promise<WebmMuxer> {
    const patches = new PatchSet();
    const content = new Uint8Array([...(options.chapters.length ? chaptersElement(options.chapters) : []), ...titleTags(options.title)]);
    const sink = options.sink;
    const writable = new WritableStream<StreamTargetChunk>({
      write: (chunk) => sink.write(patches.apply(chunk.data, chunk.position), chunk.position),
    });
    const format = new WebMOutputFormat({
      minimumClusterDuration: CLUSTER_SECONDS,
      onSegmentHeader: (data, position) => patches.add(slotPatches(data, position, content)),
    });
    const output = new Output({ format, target: new StreamTarget(writable, { chunked: true, chunkSize: WRITE_CHUNK_BYTES }) });
    const videoSource = options.video ? new EncodedVideoPacketSource(options.video) : null;
    const audioSource = options.audio ? new EncodedAudioPacketSource("opus") : null;
    if (videoSource) output.addVideoTrack(videoSource);
    if (audioSource) output.addAudioTrack(audioSource);
    output.setMetadataTags({ raw: slotTags(content) });
    await output.start();
    return new WebmMuxer(output, videoSource, audioSource, sink, patches);
  }

  /** A video packet (decode order); the first carries the encoder's decoder config in `meta`. */
  addVideo(packet: EncodedPacket, meta?: EncodedVideoChunkMetadata): Promise<void> {
    return this.videoSource!.add(packet, meta);
  }

  /** An Opus packet; the first carries the decoder config (with the OpusHead) in `meta`. */
  addAudio(packet: EncodedPacket, meta?: EncodedAudioChunkMetadata): Promise<void> {
    return this.audioSource!.add(packet, meta);
  }

  /** Finish the file: the muxer's last writes, then the sink's file (null when it is on disk already). */
  async finish(): Promise<Blob | null> {
    await this.output.finalize();
    if (!this.patches.complete()) {
      await this.sink.abort();
      throw new Error("The chapters were not written into the file's header.");
    }
    return this.sink.close();
  }

  async cancel(): Promise<void> {
    await this.output.cancel().catch(() => {});
    await this.sink.abort();
  }
}
