/**
 * The e2e suites judge exported videos with test/helpers/video-probe: its "decodes cleanly" must
 * pass a valid variable-rate WebM, as the export writes (a frame when the picture changes, whole
 * milliseconds apart), and still fail a damaged one.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodesCleanly } from "../helpers/video-probe.ts";

// The timeout of each test here: ffmpeg encodes nine 160×120 frames in 0.2 s; 30 s covers a loaded machine.
setDefaultTimeout(30_000);

const dir = mkdtempSync(join(tmpdir(), "video-probe-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A VP9 WebM whose frames stand at `times` (ms), as the export writes one: frames a few ms
 * apart, like a slide change just after a pen frame. The frames are timed in ms from the filter
 * (settb, then setpts picks each frame's time) to the encoder (enc_time_base).
 */
function variableRate(times: number[]): string {
  const path = join(dir, "vfr.webm");
  const at = times.reduceRight((rest, t, i) => `if(eq(N\\,${i})\\,${t}\\,${rest})`, "0");
  const argv = ["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-frames:v", String(times.length)];
  argv.push("-vf", `settb=1/1000,setpts='${at}'`, "-fps_mode", "passthrough", "-enc_time_base", "1:1000");
  argv.push("-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", path);
  const made = Bun.spawnSync(argv, { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  if (made.exitCode !== 0) throw new Error(made.stderr.toString());
  return path;
}

test("a variable-rate WebM with frames 4 ms apart decodes cleanly (ffmpeg's guessed frame rate would call its times out of order)", () => {
  const path = variableRate([0, 30, 63, 1000, 1004, 2000, 2033, 2037, 3000]);
  // The times as written: the check is about a file that really has frames closer than a frame-rate step.
  const probe = Bun.spawnSync(["ffprobe", "-v", "error", "-show_entries", "packet=pts_time", "-of", "csv=p=0", path], { stdout: "pipe" });
  expect(probe.stdout.toString().trim().split("\n").map(Number)).toEqual([0, 0.03, 0.063, 1, 1.004, 2, 2.033, 2.037, 3]);
  expect(decodesCleanly(path)).toBe("");
});

/** What decoding said: its errors, or why ffmpeg gave up (the helper throws when ffmpeg exits with an error). */
function verdict(path: string): string {
  try {
    return decodesCleanly(path);
  } catch (error) {
    return String(error);
  }
}

test("a damaged or cut WebM does not decode cleanly", () => {
  const whole = readFileSync(variableRate([0, 500, 1000, 1500, 2000, 2500, 3000]));
  const cut = join(dir, "cut.webm");
  writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
  expect(verdict(cut)).not.toBe("");
  const damaged = Uint8Array.from(whole);
  // The first cluster's header zeroed (bytes changed inside a frame's payload may decode without a word).
  const cluster = Buffer.from(damaged).indexOf(Buffer.from([0x1f, 0x43, 0xb6, 0x75]));
  expect(cluster).toBeGreaterThan(0);
  damaged.fill(0, cluster, cluster + 12);
  const broken = join(dir, "broken.webm");
  writeFileSync(broken, damaged);
  expect(verdict(broken)).not.toBe("");
});
