/**
 * A recording's sound as one file (client/record/recording-sound): each segment's packets are
 * copied, untouched, to their place on the recording's clock; the moments a reload lost
 * between two segments are filled with Opus silence so the voice stays with the picture after
 * them; a packet never lands before the end of the one before it. Real WebM files, written and
 * read with mediabunny.
 */
import { describe, expect, test } from "bun:test";
import { ALL_FORMATS, BlobSource, BufferTarget, EncodedAudioPacketSource, EncodedPacket, EncodedPacketSink, Input, Output, WebMOutputFormat } from "mediabunny";
import { opusPacketDuration, opusSilence, recordingSound, SoundCursor } from "../../client/src/record/recording-sound.ts";

const FRAME = 0.02;

/** A WebM/Opus file of `seconds` of 20 ms packets (silent frames marked by a 4th byte = index). */
async function opusWebm(seconds: number, firstTimestamp = 0): Promise<Blob> {
  const target = new BufferTarget();
  const output = new Output({ format: new WebMOutputFormat(), target });
  const source = new EncodedAudioPacketSource("opus");
  output.addAudioTrack(source);
  await output.start();
  const n = Math.round(seconds / FRAME);
  for (let i = 0; i < n; i++) {
    const data = new Uint8Array([0xf8, 0xff, 0xfe, i % 256]);
    await source.add(new EncodedPacket(data, "key", firstTimestamp + i * FRAME, FRAME), i === 0 ? { decoderConfig: { codec: "opus", sampleRate: 48_000, numberOfChannels: 1 } } : undefined);
  }
  await output.finalize();
  return new Blob([target.buffer!], { type: "audio/webm" });
}

async function packetsOf(blob: Blob) {
  const input = new Input({ source: new BlobSource(blob), formats: ALL_FORMATS });
  const track = (await input.getPrimaryAudioTrack())!;
  const out: { t: number; d: number; bytes: number[] }[] = [];
  for await (const p of new EncodedPacketSink(track).packets()) out.push({ t: p.timestamp, d: p.duration, bytes: [...p.data] });
  return { codec: track.codec, out };
}

describe("the placing of packets", () => {
  test("a segment starts at its place; packets follow as recorded", () => {
    const cursor = new SoundCursor();
    cursor.segment(0, 0.5);
    expect(cursor.place(0.5, FRAME, true)).toEqual({ timestamp: 0, silence: [] });
    expect(cursor.place(0.52, FRAME, true).timestamp).toBeCloseTo(0.02, 9);
  });

  test("a gap before a continued segment is filled with 20 ms of silence at a time", () => {
    const cursor = new SoundCursor();
    cursor.segment(0, 0);
    cursor.place(0, FRAME, true);
    cursor.place(0.02, FRAME, true); // ends at 0.04
    cursor.segment(0.14, 0);
    const placed = cursor.place(0, FRAME, true);
    expect(placed.silence.map((t) => Math.round(t * 1000))).toEqual([40, 60, 80, 100, 120]);
    expect(placed.timestamp).toBeCloseTo(0.14, 9);
  });

  test("an overlap never puts a packet before the end of the one before it; without filling, a gap stays", () => {
    const cursor = new SoundCursor();
    cursor.segment(0, 0);
    cursor.place(0, 1, false); // ends at 1
    cursor.segment(0.5, 0);
    expect(cursor.place(0, FRAME, false)).toEqual({ timestamp: 1, silence: [] });
    cursor.segment(3, 0);
    expect(cursor.place(0, FRAME, false)).toEqual({ timestamp: 3, silence: [] });
  });

  test("the silent frame is Opus: configuration 31 (CELT, 20 ms), the channels in its TOC byte", () => {
    expect([...opusSilence(1)]).toEqual([0xf8, 0xff, 0xfe]);
    expect([...opusSilence(2)]).toEqual([0xfc, 0xff, 0xfe]);
  });
});

describe("recordingSound", () => {
  test("two segments become one WebM: the second at its place on the clock, the gap silent, every packet's bytes as recorded", async () => {
    const first = await opusWebm(1.0);
    const second = await opusWebm(0.5);
    const sound = (await recordingSound([
      { segment: 0, startMs: 0, endMs: 1300, audio: first },
      { segment: 1, startMs: 1300, endMs: 1800, audio: second },
    ]))!;
    expect(sound.type).toContain("webm");
    const { codec, out } = await packetsOf(sound);
    expect(codec).toBe("opus");
    // 50 packets, 15 silent frames (1.0 s → 1.3 s), 25 packets.
    expect(out.length).toBe(50 + 15 + 25);
    expect(out[49]!.bytes).toEqual([0xf8, 0xff, 0xfe, 49]);
    expect(out.slice(50, 65).every((p) => p.bytes.join() === "248,255,254")).toBe(true);
    expect(out[65]!.t).toBeCloseTo(1.3, 3);
    expect(out[65]!.bytes).toEqual([0xf8, 0xff, 0xfe, 0]);
    for (let i = 1; i < out.length; i++) expect(out[i]!.t).toBeGreaterThanOrEqual(out[i - 1]!.t + out[i - 1]!.d - 1e-3);
    // The file knows its length (to the last packet's start: a WebM does not store the last one's duration).
    const input = new Input({ source: new BlobSource(sound), formats: ALL_FORMATS });
    expect(Math.abs((await input.computeDuration()) - 1.8)).toBeLessThanOrEqual(0.021);
  });

  test("a segment whose packets start late (a recorder's own start time) still begins at its place", async () => {
    const sound = (await recordingSound([{ segment: 0, startMs: 0, endMs: 400, audio: await opusWebm(0.4, 0.25) }]))!;
    const { out } = await packetsOf(sound);
    expect(out[0]!.t).toBeCloseTo(0, 6);
    expect(out.length).toBe(20);
  });

  test("no sound, no file", async () => {
    expect(await recordingSound([])).toBeNull();
  });
});

describe("an Opus packet's length, from its TOC byte", () => {
  test("frame size by configuration, times the frames the code says", () => {
    expect(opusPacketDuration(new Uint8Array([0xf8, 0xff, 0xfe]))).toBeCloseTo(0.02, 9); // config 31, one frame
    expect(opusPacketDuration(new Uint8Array([(26 << 3) | 1, 0, 0]))).toBeCloseTo(0.02, 9); // config 26 (CELT 10 ms), two frames
    expect(opusPacketDuration(new Uint8Array([(3 << 3) | 0]))).toBeCloseTo(0.06, 9); // SILK 60 ms
    expect(opusPacketDuration(new Uint8Array([(16 << 3) | 3, 0x04, 0]))).toBeCloseTo(0.01, 9); // 2.5 ms × 4 frames
    expect(opusPacketDuration(new Uint8Array([]))).toBeNull();
    expect(opusPacketDuration(new Uint8Array([(16 << 3) | 3]))).toBeNull();
  });

  test("packets that share a timestamp (WebKit's encoder) still follow each other, each at its own length", async () => {
    // Five 20 ms packets stamped with one time, then the next group: a 0.1 s group every 0.1 s.
    const target = new BufferTarget();
    const output = new Output({ format: new WebMOutputFormat(), target });
    const source = new EncodedAudioPacketSource("opus");
    output.addAudioTrack(source);
    await output.start();
    for (let i = 0; i < 20; i++) {
      const group = Math.floor(i / 5) * 0.1;
      await source.add(new EncodedPacket(new Uint8Array([0xf8, 0xff, 0xfe, i]), "key", group, 0.02), i === 0 ? { decoderConfig: { codec: "opus", sampleRate: 48_000, numberOfChannels: 1 } } : undefined);
    }
    await output.finalize();
    const sound = (await recordingSound([{ segment: 0, startMs: 0, endMs: 400, audio: new Blob([target.buffer!]) }]))!;
    const { out } = await packetsOf(sound);
    expect(out.length).toBe(20);
    expect(out.map((p) => Math.round(p.t * 1000))).toEqual(Array.from({ length: 20 }, (_, i) => i * 20));
  });
});
