/**
 * The recorded voice as an export writes it (client/export/audio-packets): each segment (a
 * MediaRecorder session — WebM from Chromium, Ogg or WebM from Firefox) demuxed and its Opus
 * packets moved to where the segment starts on the recording's clock, copied as they are; a
 * segment cut short by a crash gives what came before the cut; no sound is no sound; sound that
 * is not Opus, where nothing can convert it (Bun has no WebCodecs), is said so.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AudioNotConvertible, recordedAudio } from "../../client/src/export/audio-packets.ts";
import { BlobFile } from "../../client/src/export/file-sink.ts";
import { WebmMuxer } from "../../client/src/export/mux.ts";

// ffmpeg encodes four short clips (about 1 s on the loaded 2-core machine); ten times that.
setDefaultTimeout(30_000);

let dir = "";
const blobOf = (name: string) => new Blob([readFileSync(join(dir, name))]);

function run(argv: string[]): string {
  const result = Bun.spawnSync(argv, { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`${argv[0]} failed: ${result.stderr.toString()}`);
  return result.stdout.toString() + result.stderr.toString();
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "deckhand-audio-"));
  const tone = (freq: number, seconds: number) => ["-f", "lavfi", "-i", `sine=frequency=${freq}:duration=${seconds}`, "-ac", "1", "-ar", "48000"];
  // As MediaRecorder writes WebM: a live stream (sizes unknown, no cues), clusters of about a second.
  run(["ffmpeg", "-v", "error", ...tone(440, 3), "-c:a", "libopus", "-b:a", "32k", "-f", "webm", "-live", "1", "-cluster_time_limit", "1000", join(dir, "a.webm")]);
  run(["ffmpeg", "-v", "error", ...tone(660, 2), "-c:a", "libopus", "-b:a", "32k", join(dir, "b.ogg")]);
  run(["ffmpeg", "-v", "error", ...tone(550, 2), "-c:a", "aac", join(dir, "c.m4a")]);
  run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=5:duration=1", "-c:v", "libvpx", join(dir, "silent.webm")]);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function collect(audio: NonNullable<Awaited<ReturnType<typeof recordedAudio>>>) {
  const packets = [];
  for await (const packet of audio.packets) packets.push(packet);
  return packets;
}

describe("the recorded voice", () => {
  test("two segments, WebM then Ogg, each at its start on the recording's clock, in order, copied as they are", async () => {
    const audio = (await recordedAudio([
      { startMs: 3000, blob: blobOf("b.ogg") },
      { startMs: 0, blob: blobOf("a.webm") },
    ]))!;
    expect(audio.config.codec).toBe("opus");
    expect(audio.converted).toBe(false);
    const packets = await collect(audio);
    const first = packets.findIndex((p) => p.timestamp >= 3);
    expect(packets[0]!.timestamp).toBeLessThan(0.05);
    expect(first).toBeGreaterThan(100);
    expect(packets[first]!.timestamp).toBeLessThan(3.05);
    for (let i = 1; i < packets.length; i++) expect(packets[i]!.timestamp).toBeGreaterThanOrEqual(packets[i - 1]!.timestamp);
    expect(packets.at(-1)!.timestamp).toBeGreaterThan(4.9);

    // Muxed as the export muxes them: one stream of 5 s that decodes without an error.
    const sink = new BlobFile("audio/webm");
    const muxer = await WebmMuxer.start({ sink, video: null, audio: true, chapters: [{ startMs: 0, endMs: 5000, title: "All" }], title: "voice" });
    for (const [i, packet] of packets.entries()) await muxer.addAudio(packet, i === 0 ? { decoderConfig: audio.config } : undefined);
    const path = join(dir, "voice.webm");
    writeFileSync(path, new Uint8Array(await (await muxer.finish())!.arrayBuffer()));
    const info = JSON.parse(run(["ffprobe", "-v", "error", "-show_format", "-of", "json", path])) as { format: { duration: string } };
    expect(Number(info.format.duration)).toBeCloseTo(5, 1);
    expect(run(["ffmpeg", "-v", "error", "-i", path, "-f", "null", "-"]).trim()).toBe("");
  });

  test("a segment cut short (the tab closed mid-recording) gives the packets before the cut", async () => {
    const whole = readFileSync(join(dir, "a.webm"));
    const cut = new Blob([whole.subarray(0, Math.floor(whole.length * 0.6))]);
    const packets = await collect((await recordedAudio([{ startMs: 0, blob: cut }]))!);
    // The whole clusters before the cut (a second each here): the first second at least, nothing after the cut.
    expect(packets.length).toBeGreaterThanOrEqual(45);
    expect(packets.at(-1)!.timestamp).toBeLessThan(1.9);
  });

  test("no sound: a rehearsal without the microphone, or a segment without an audio track", async () => {
    expect(await recordedAudio([])).toBeNull();
    expect(await recordedAudio([{ startMs: 0, blob: blobOf("silent.webm") }])).toBeNull();
  });

  test("sound that is not Opus, where nothing can convert it, is said so with its codec", async () => {
    const error = await recordedAudio([{ startMs: 0, blob: blobOf("c.m4a") }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AudioNotConvertible);
    expect((error as AudioNotConvertible).codec).toBe("aac");
  });
});
