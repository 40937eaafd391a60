/**
 * @module client/record/recording-sound
 * A recording's sound as one file that plays and seeks from start to end: each segment's
 * packets (./capture.ts writes one container file per segment) are read with mediabunny and
 * written again, untouched, into one WebM (Opus) at their place on the recording's clock — a
 * segment continued after a reload starts where the recording was when it was interrupted,
 * and the second or so its capture lost before the reload is filled with Opus silence, so the
 * picture and the voice stay together after it. Remuxed, never decoded: an hour of sound is
 * about 180,000 packets copied.
 *
 * Why not play the stored pieces as they are: MediaRecorder's WebM has no duration and no cue
 * points — Chromium seeks in it, Firefox cannot (measured: `seekable` is empty and a seek
 * stays at 0) — and a continued recording is several files. Sound that is not Opus (AAC from
 * an older Safari) goes into MP4 the same way.
 */
import { ALL_FORMATS, BlobSource, BufferTarget, EncodedAudioPacketSource, EncodedPacket, EncodedPacketSink, Input, Mp4OutputFormat, Output, WebMOutputFormat } from "mediabunny";
import type { SegmentAudio } from "../storage/recording-store.ts";

/** Opus packets are 20 ms here: the silence added in a gap comes in frames of that length. */
const SILENCE_FRAME_S = 0.02;
/** A gap shorter than this is left alone (a frame's rounding, not a lost second). */
const GAP_S = 0.03;

/**
 * An Opus packet of 20 ms of silence (RFC 6716: TOC byte of configuration 31 — CELT, full
 * band, 20 ms — one frame, then the frame's two bytes of digital silence), mono or stereo.
 */
export function opusSilence(channels: number): Uint8Array {
  return new Uint8Array([channels > 1 ? 0xfc : 0xf8, 0xff, 0xfe]);
}

/** Milliseconds of one frame for each of the 32 Opus configurations (RFC 6716, table 2). */
const OPUS_FRAME_MS = [10, 20, 40, 60, 10, 20, 40, 60, 10, 20, 40, 60, 10, 20, 10, 20, 2.5, 5, 10, 20, 2.5, 5, 10, 20, 2.5, 5, 10, 20, 2.5, 5, 10, 20];

/**
 * An Opus packet's length in seconds, from its own TOC byte (RFC 6716, section 3.1): the frame
 * size of its configuration times its number of frames. The container's timing is not trusted
 * for it: WebKit's encoder gives every packet of one encoded buffer the same timestamp, so a
 * duration read from the gaps between timestamps is 0 for all but the last. Null for an empty packet.
 */
export function opusPacketDuration(data: Uint8Array): number | null {
  if (!data.length) return null;
  const toc = data[0]!;
  const code = toc & 0x03;
  const frames = code === 0 ? 1 : code === 3 ? (data.length > 1 ? data[1]! & 0x3f : 0) : 2;
  return frames ? (OPUS_FRAME_MS[toc >> 3]! * frames) / 1000 : null;
}

/**
 * Where a segment's packets go on the recording's clock (seconds): the first at the segment's
 * start, the rest as recorded after it, never before the end of what was placed already.
 * `silence` lists the starts of the silent frames that fill a gap before a packet. Pure.
 */
export class SoundCursor {
  /** The end of what was placed so far. */
  end = 0;
  private offset = 0;

  /** A new segment starts at `startS`; its first packet's own timestamp is `firstTimestamp`. */
  segment(startS: number, firstTimestamp: number): void {
    this.offset = startS - firstTimestamp;
  }

  place(timestamp: number, duration: number, fillGaps: boolean): { timestamp: number; silence: number[] } {
    const wanted = timestamp + this.offset;
    const silence: number[] = [];
    if (fillGaps && wanted - this.end >= GAP_S) {
      for (let t = this.end; t + SILENCE_FRAME_S <= wanted + 1e-9; t += SILENCE_FRAME_S) silence.push(t);
      if (silence.length) this.end = silence[silence.length - 1]! + SILENCE_FRAME_S;
    }
    const at = Math.max(wanted, this.end);
    this.end = at + duration;
    return { timestamp: at, silence };
  }
}

/** The recording's sound as one file (null when it has none). */
export async function recordingSound(segments: readonly SegmentAudio[]): Promise<Blob | null> {
  if (!segments.length) return null;
  const inputs = segments.map((s) => ({ segment: s, input: new Input({ source: new BlobSource(s.audio), formats: ALL_FORMATS }) }));
  try {
    const firstTrack = await inputs[0]!.input.getPrimaryAudioTrack();
    const codec = firstTrack?.codec;
    if (!firstTrack || !codec) return segments.length === 1 ? segments[0]!.audio : null;
    const config = await firstTrack.getDecoderConfig();
    const format = codec === "opus" || codec === "vorbis" ? new WebMOutputFormat() : new Mp4OutputFormat({ fastStart: "in-memory" });
    const target = new BufferTarget();
    const output = new Output({ format, target });
    const source = new EncodedAudioPacketSource(codec);
    output.addAudioTrack(source);
    await output.start();
    const cursor = new SoundCursor();
    const channels = config?.numberOfChannels ?? 1;
    // A WebM's last packet reads with no duration (nothing follows it): it lasts as long as the one before.
    let lastDuration = SILENCE_FRAME_S;
    let meta: { decoderConfig: AudioDecoderConfig } | undefined = config ? { decoderConfig: config } : undefined;
    for (const { segment, input } of inputs) {
      const track = await input.getPrimaryAudioTrack();
      if (!track || track.codec !== codec) continue;
      let first = true;
      for await (const packet of new EncodedPacketSink(track).packets()) {
        if (first) cursor.segment(segment.startMs / 1000, packet.timestamp);
        first = false;
        const duration = (codec === "opus" ? opusPacketDuration(packet.data) : null) ?? (packet.duration > 0 ? packet.duration : lastDuration);
        lastDuration = duration;
        const placed = cursor.place(packet.timestamp, duration, codec === "opus");
        for (const t of placed.silence) {
          await source.add(new EncodedPacket(opusSilence(channels), "key", t, SILENCE_FRAME_S), meta);
          meta = undefined;
        }
        await source.add(packet.clone({ timestamp: placed.timestamp, duration }), meta);
        meta = undefined;
      }
    }
    await output.finalize();
    return target.buffer ? new Blob([target.buffer], { type: format.mimeType }) : null;
  } finally {
    for (const { input } of inputs) input.dispose();
  }
}
