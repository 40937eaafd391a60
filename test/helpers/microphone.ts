/**
 * A microphone for the browser suites that record: a spoken WAV made by espeak-ng, and how each
 * engine is told to use a fake capture device without asking (`LaunchOptions.microphone` in
 * ./engine.ts). Chromium plays the WAV in a loop; Firefox's fake stream and WebKit's mock
 * capture device give a tone of their own (neither takes a file). A missing espeak-ng is a
 * failure naming the package, never a skip.
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";

/** Chromium: grant the prompt, fake the devices, and capture from the file. */
export function chromiumMicrophoneArgs(wav: string): string[] {
  return ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", `--use-file-for-fake-audio-capture=${wav}`];
}

/** Firefox: its fake media stream (a tone), with no permission prompt. */
export const FIREFOX_MICROPHONE_PREFS = { "media.navigator.streams.fake": true, "media.navigator.permission.disabled": true, "media.cubeb.force_null_context": true } as const;

/**
 * WebKitGTK's MiniBrowser: its settings as command-line switches — MediaStream on, the mock
 * capture devices (a microphone giving a tone) exposed.
 */
export const WEBKIT_MICROPHONE_ARGS: readonly string[] = ["--enable-media-stream=true", "--enable-mock-capture-devices=true"];

/**
 * Speak `text` into a WAV at `path` with espeak-ng (22 kHz mono), made once per path: the fake
 * microphone's voice, so a recording can be told from silence afterwards.
 */
export function speechWav(path: string, text = "Good morning. This talk is recorded by deckhand: the slides, the pen and this voice."): string {
  if (existsSync(path)) return path;
  mkdirSync(dirname(path), { recursive: true });
  let result;
  try {
    result = Bun.spawnSync(["espeak-ng", "-w", path, text], { stdout: "pipe", stderr: "pipe" });
  } catch (error) {
    throw new Error(`espeak-ng is missing: install it with \`apt-get install -y espeak-ng\` (scripts/system-packages.txt lists it). ${String(error)}`);
  }
  if (result.exitCode !== 0 || !existsSync(path)) throw new Error(`espeak-ng could not write ${path}: ${result.stderr.toString()}`);
  return path;
}
