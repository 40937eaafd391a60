/**
 * @module client/export/audio-packets
 * The recorded voice as the Opus packets the export writes, re-used as they were recorded:
 * each segment (one MediaRecorder session, WebM or Ogg) is demuxed by mediabunny and its
 * packets are moved to where the segment starts on the recording's clock — never decoded and
 * encoded again. A segment whose sound is not Opus (an engine that records AAC in MP4) is
 * converted to Opus first where the browser can decode it and encode Opus (WebCodecs), and
 * reported as converted; where it cannot, the export says so. A segment cut short by a crash
 * gives the packets of its whole clusters before the cut (a cluster is a second or a few).
 */
import { BlobSource, BufferSource, BufferTarget, Conversion, EncodedPacketSink, Input, MATROSKA, MP4, OGG, Output, WEBM, WebMOutputFormat, type EncodedPacket, type InputAudioTrack } from "mediabunny";

/** What MediaRecorder writes: WebM (Chromium, Firefox), Ogg (Firefox), MP4 (Safari); no other reader is bundled. */
const RECORDED = [WEBM, MATROSKA, OGG, MP4];

/** The voice's bitrate when it has to be converted: clear speech, 29 MB an hour. */
const CONVERTED_BITS_PER_SECOND = 64_000;

export class AudioNotConvertible extends Error {
  /** `codec`: mediabunny's name of the recorded sound's codec ("aac", …), null when not known. */
  constructor(readonly codec: string | null) {
    super(`The recorded sound (${codec ?? "an unknown codec"}) cannot be converted to Opus here.`);
  }
}

export interface RecordedAudio {
  /** The Opus decoder configuration (its OpusHead), from the first segment. */
  config: AudioDecoderConfig;
  /** Every packet, in time order, timestamped on the recording's clock (seconds). */
  packets: AsyncGenerator<EncodedPacket>;
  /** Some sound was not Opus and was converted. */
  converted: boolean;
}

interface OpenSegment {
  startMs: number;
  track: InputAudioTrack;
  input: Input;
}

/** Told how much of the conversion to Opus is done (0–1). */
export type ConvertProgress = (fraction: number) => void;

/** Convert a segment's sound to Opus in memory (an hour is ~29 MB at the bitrate above). */
async function toOpus(blob: Blob, codec: string | null, onProgress: ConvertProgress): Promise<Input> {
  const input = new Input({ source: new BlobSource(blob), formats: RECORDED });
  const output = new Output({ format: new WebMOutputFormat(), target: new BufferTarget() });
  const conversion = await Conversion.init({ input, output, video: { discard: true }, audio: { codec: "opus", bitrate: CONVERTED_BITS_PER_SECOND }, showWarnings: false });
  if (!conversion.isValid) throw new AudioNotConvertible(codec);
  conversion.onProgress = (fraction) => onProgress(fraction);
  await conversion.execute();
  return new Input({ source: new BufferSource(output.target.buffer!), formats: RECORDED });
}

async function openSegment(segment: { startMs: number; blob: Blob }, onConvert: ConvertProgress): Promise<{ open: OpenSegment | null; converted: boolean }> {
  let input = new Input({ source: new BlobSource(segment.blob), formats: RECORDED });
  let track = await input.getPrimaryAudioTrack().catch(() => null);
  if (!track) return { open: null, converted: false };
  let converted = false;
  if (track.codec !== "opus") {
    const codec = track.codec;
    input = await toOpus(segment.blob, codec, onConvert).catch((error: unknown) => {
      throw error instanceof AudioNotConvertible ? error : new AudioNotConvertible(codec);
    });
    track = await input.getPrimaryAudioTrack();
    if (!track) throw new AudioNotConvertible(codec);
    converted = true;
  }
  return { open: { startMs: segment.startMs, track, input }, converted };
}

/**
 * The recording's sound, or null when it has none (a rehearsal without the microphone, or
 * segments with no audio track). Throws AudioNotConvertible for sound this browser cannot turn into Opus.
 * `onConvert` hears how far a conversion has got, as a share of all the segments (a segment
 * copied as it is counts as done at once).
 */
export async function recordedAudio(segments: readonly { startMs: number; blob: Blob }[], onConvert: ConvertProgress = () => {}): Promise<RecordedAudio | null> {
  const opened: OpenSegment[] = [];
  let converted = false;
  const sorted = [...segments].sort((a, b) => a.startMs - b.startMs);
  for (const [i, segment] of sorted.entries()) {
    const result = await openSegment(segment, (fraction) => onConvert((i + Math.min(1, Math.max(0, fraction))) / sorted.length));
    if (result.open) opened.push(result.open);
    converted ||= result.converted;
  }
  const first = opened[0];
  if (!first) return null;
  const config = await first.track.getDecoderConfig();
  if (!config) return null;
  async function* packets(): AsyncGenerator<EncodedPacket> {
    let end = 0;
    for (const [i, segment] of opened.entries()) {
      const offset = segment.startMs / 1000;
      // A segment's sound never runs into the next one's (a session stopped late by a crash).
      const limit = (opened[i + 1]?.startMs ?? Infinity) / 1000;
      try {
        for await (const packet of new EncodedPacketSink(segment.track).packets()) {
          const timestamp = offset + Math.max(0, packet.timestamp);
          if (timestamp + 1e-6 < end) continue;
          if (timestamp >= limit) break;
          end = timestamp + packet.duration;
          yield packet.clone({ timestamp });
        }
      } catch {
        // The segment's bytes end mid-cluster (the tab closed while recording): keep what came before.
      }
    }
  }
  return { config, packets: packets(), converted };
}
