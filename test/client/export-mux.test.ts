/**
 * The exported file's container (client/export/mux, file-sink): packets that are already
 * encoded — VP9 frames and Opus packets made by ffmpeg here, read back with mediabunny — muxed
 * into WebM with chapters, written through the Blob sink, and read by ffprobe and ffmpeg as a
 * player would: two streams, the duration, one chapter per span with its title, the file's
 * title, and every packet decodable. The sink alone: writes at any position, sealed parts
 * split, against a plain array.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from "mediabunny";
import { BlobFile } from "../../client/src/export/file-sink.ts";
import { WebmMuxer } from "../../client/src/export/mux.ts";

// ffmpeg encodes two short clips (about 1 s on the loaded 2-core machine); the sink's test took
// 34 s once beside three browsers at load 40: 120 s.
setDefaultTimeout(120_000);

let dir = "";

function run(argv: string[]): string {
  const result = Bun.spawnSync(argv, { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`${argv[0]} failed: ${result.stderr.toString()}`);
  return result.stdout.toString() + result.stderr.toString();
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "deckhand-mux-"));
  // Four seconds of a moving test picture (VP9) and of a tone (Opus), as separate files.
  run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=5:duration=4", "-c:v", "libvpx-vp9", "-g", "10", "-b:v", "200k", join(dir, "video.webm")]);
  run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=4", "-c:a", "libopus", "-b:a", "32k", join(dir, "audio.webm")]);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function packetsOf(file: string) {
  const input = new Input({ source: new BufferSource(readFileSync(file)), formats: ALL_FORMATS });
  const packets = async (track: ConstructorParameters<typeof EncodedPacketSink>[0]) => {
    const out = [];
    for await (const packet of new EncodedPacketSink(track).packets()) out.push(packet);
    return out;
  };
  return { input, packets };
}

async function videoOf(file: string) {
  const { input, packets } = await packetsOf(file);
  const track = (await input.getPrimaryVideoTrack())!;
  return { config: (await track.getDecoderConfig())!, packets: await packets(track) };
}

async function audioOf(file: string) {
  const { input, packets } = await packetsOf(file);
  const track = (await input.getPrimaryAudioTrack())!;
  return { config: (await track.getDecoderConfig())!, packets: await packets(track) };
}

function probe(file: string) {
  return JSON.parse(run(["ffprobe", "-v", "error", "-show_chapters", "-show_streams", "-show_format", "-of", "json", file])) as {
    chapters: { start_time: string; end_time: string; tags: { title: string } }[];
    streams: { codec_type: string; codec_name: string; width?: number }[];
    format: { duration: string; tags?: Record<string, string> };
  };
}

describe("a WebM file with chapters", () => {
  test("two streams, the duration, one chapter per span with its title, and every packet decodes", async () => {
    const video = await videoOf(join(dir, "video.webm"));
    const audio = await audioOf(join(dir, "audio.webm"));
    const sink = new BlobFile("video/webm");
    const chapters = [
      { startMs: 0, endMs: 1500, title: "Introduction" },
      { startMs: 1500, endMs: 2750, title: "Slide 2 — ünïcödé" },
      { startMs: 2750, endMs: 4000, title: "Slide 3" },
    ];
    const muxer = await WebmMuxer.start({ sink, video: "vp9", audio: true, chapters, title: "A talk" });
    // Interleaved by time, as the export feeds them.
    let v = 0;
    let a = 0;
    while (v < video.packets.length || a < audio.packets.length) {
      const nextVideo = video.packets[v];
      const nextAudio = audio.packets[a];
      if (nextVideo && (!nextAudio || nextVideo.timestamp <= nextAudio.timestamp)) await muxer.addVideo(nextVideo, v++ === 0 ? { decoderConfig: video.config } : undefined);
      else await muxer.addAudio(nextAudio!, a++ === 0 ? { decoderConfig: audio.config } : undefined);
    }
    const file = await muxer.finish();
    expect(file).toBeInstanceOf(Blob);
    const path = join(dir, "out.webm");
    writeFileSync(path, new Uint8Array(await file!.arrayBuffer()));

    const info = probe(path);
    expect(info.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort()).toEqual(["audio:opus", "video:vp9"]);
    expect(Number(info.format.duration)).toBeCloseTo(4, 0);
    expect(info.format.tags?.title ?? info.format.tags?.TITLE).toBe("A talk");
    expect(info.chapters.map((c) => [Number(c.start_time), Number(c.end_time), c.tags.title])).toEqual([
      [0, 1.5, "Introduction"],
      [1.5, 2.75, "Slide 2 — ünïcödé"],
      [2.75, 4, "Slide 3"],
    ]);
    // Every packet of both streams decodes, and seeking uses the Cues (no errors either way).
    expect(run(["ffmpeg", "-v", "error", "-i", path, "-f", "null", "-"]).trim()).toBe("");
    expect(run(["ffmpeg", "-v", "error", "-ss", "3", "-i", path, "-frames:v", "1", "-f", "null", "-"]).trim()).toBe("");
  });

  test("a file of sound only, with the same chapters", async () => {
    const audio = await audioOf(join(dir, "audio.webm"));
    const sink = new BlobFile("audio/webm");
    const muxer = await WebmMuxer.start({ sink, video: null, audio: true, chapters: [{ startMs: 0, endMs: 2000, title: "One" }, { startMs: 2000, endMs: 4000, title: "Two" }], title: "Sound" });
    for (const [i, packet] of audio.packets.entries()) await muxer.addAudio(packet, i === 0 ? { decoderConfig: audio.config } : undefined);
    const path = join(dir, "sound.webm");
    writeFileSync(path, new Uint8Array(await (await muxer.finish())!.arrayBuffer()));
    const info = probe(path);
    expect(info.streams.map((s) => s.codec_name)).toEqual(["opus"]);
    expect(info.chapters.map((c) => c.tags.title)).toEqual(["One", "Two"]);
  });
});

describe("the Blob sink", () => {
  test("writes at any position, appends past the end, and splits sealed parts, as a plain array would", async () => {
    const sink = new BlobFile("application/octet-stream");
    const reference: number[] = [];
    const write = async (bytes: number[], position: number) => {
      await sink.write(Uint8Array.from(bytes), position);
      while (reference.length < position) reference.push(0);
      bytes.forEach((b, i) => (reference[position + i] = b));
    };
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    // Big appends seal parts into Blobs (8 MiB of arrays); small writes land before, across and after.
    for (let round = 0; round < 6; round++) {
      const big = Array.from({ length: 3 * 1024 * 1024 }, (_, i) => (i + round) & 0xff);
      await write(big, reference.length);
      for (let k = 0; k < 20; k++) {
        const at = Math.floor(random() * (reference.length + 10));
        await write(Array.from({ length: 1 + Math.floor(random() * 300) }, () => Math.floor(random() * 256)), at);
      }
    }
    // A gap: zeros in between, as the muxer's padding would be.
    await write([9, 9], reference.length + 5);
    const blob = await sink.close();
    expect(blob.size).toBe(reference.length);
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(Uint8Array.from(reference));
  });
});
