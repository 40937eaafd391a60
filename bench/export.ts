/**
 * Export of a recorded talk (Save video): a synthetic 60-minute talk — 80 slides (a change
 * every 45 s), 200 pen strokes (each drawn over 1.5 s, the presenter's overlay messages at
 * 60 Hz, then kept), 60 minutes of Opus at Chromium's MediaRecorder default of 128 kbit/s —
 * exported in Chromium against the compiled binary, from the library, as a user does.
 *
 * Baseline in the same run: the same export with nothing encoded or written — every frame
 * replayed, drawn and handed to a VideoFrame (the work no export can skip). Reported: the time
 * of each as a fraction of the talk's length (goal: the export ≤ 0.1×), the frames and
 * keyframes, the file's size per minute (video and sound), and the peak memory of the page —
 * its renderer process (the page, its export worker and that worker's render worker), counted
 * as Chromium counts a page's memory (its private footprint: anonymous memory and swap; goal
 * ≤ 500 MB), beside that process's RSS (which adds Chromium's own code pages) — and of the
 * browser process (where Chromium keeps Blobs). Asserts nothing.
 *
 * The talk is written into this browser's IndexedDB through the recordings store, a piece a
 * second, as the presenter's Record control writes it (in the page that imported the deck,
 * which then closes); the export runs from the recording's row in a library page of its own,
 * as after the talk: Save video, written to a file in place (`__deckhand.saveTo("private-file")`,
 * the writable a save dialog gives). The baseline runs before and after the export, from the
 * same row (`__deckhand.dryRun(true)`; the load of a shared machine moves); the ratio is
 * against their mean.
 *
 *   bun run scripts/build.ts && bun run bench/export.ts
 *   EXPORT_MINUTES=10 bun run bench/export.ts      (a shorter talk, same density)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchBrowser } from "../test/helpers/browser.ts";
import { startBinary } from "../test/helpers/server.ts";
import { speechWav } from "../test/fixtures/recording.ts";
import { privateFootprint, readMemory } from "./lib/rss.ts";
import { makeTalkDeck, talkEvents } from "./lib/talk.ts";

/** The page's memory is read from its own browser's processes: a shared browser (DECKHAND_REUSE_BROWSER) has none to read. */
function ownProfile(dir: string | null): string {
  if (!dir) throw new Error("bench/export.ts measures a browser of its own: run it without DECKHAND_REUSE_BROWSER");
  return dir;
}

const MINUTES = Number(process.env.EXPORT_MINUTES ?? 60);
const DURATION_MS = MINUTES * 60_000;
/** The budget's talk (docs/development/design.md#performance-budget): 80 slides and 200 strokes in an hour; a shorter run keeps the density. */
const SLIDES = Math.max(2, Math.round((80 * MINUTES) / 60));
const STROKES = Math.round((200 * MINUTES) / 60);
/** Chromium's MediaRecorder writes audio-only Opus at 128 kbit/s unless told otherwise (measured). */
const AUDIO_KBPS = Number(process.env.EXPORT_AUDIO_KBPS ?? 128);
/** The goals. */
const GOAL_RATIO = 0.1;
const GOAL_PAGE_MB = 500;

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;

/** Every process of the browser started with `userDataDir`, by /proc: its pid and kind. */
function browserProcesses(userDataDir: string): { pid: number; kind: string }[] {
  const all = readdirSync("/proc").filter((n) => /^\d+$/.test(n)).map(Number);
  const info = new Map<number, { ppid: number; cmd: string }>();
  for (const pid of all) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      const ppid = Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
      info.set(pid, { ppid, cmd });
    } catch {
      // Gone meanwhile.
    }
  }
  const root = [...info].find(([, v]) => v.cmd.includes(`--user-data-dir=${userDataDir}`) && !v.cmd.includes("--type="))?.[0];
  if (root === undefined) return [];
  const out: { pid: number; kind: string }[] = [{ pid: root, kind: "browser" }];
  for (let i = 0; i < out.length; i++) for (const [pid, v] of info) if (v.ppid === out[i]!.pid) out.push({ pid, kind: v.cmd.includes("--top-chrome-webui") ? "browser-ui" : (/--type=(\S+)/.exec(v.cmd)?.[1] ?? "other") });
  // Pages' renderers are "renderer"; Chromium's own UI (headless too) has one of its own, left out.
  return out;
}

/**
 * Peak RSS per process while `run` runs, sampled every 100 ms; the renderers' peak private
 * footprint (Chromium's measure of a page's memory); and the largest renderer's RSS at each
 * tenth of the run (flat: fixed costs; rising: something accumulates).
 */
async function peakMemory<T>(userDataDir: string, run: () => Promise<T>): Promise<{ value: T; peaks: Map<string, number>; footprint: number; course: number[]; top: { at: number; anon: number; file: number; shmem: number } }> {
  const peaks = new Map<number, { kind: string; rss: number }>();
  let footprint = 0;
  const timeline: { at: number; rss: number }[] = [];
  const started = performance.now();
  // The renderer's highest sample: when (a fraction of the run) and of what (anonymous, file-backed, shared).
  let top = { rss: 0, at: 0, anon: 0, file: 0, shmem: 0 };
  const sample = () => {
    let renderer = 0;
    const at = performance.now() - started;
    for (const p of browserProcesses(userDataDir)) {
      const memory = readMemory(p.pid);
      const rss = memory?.rss ?? 0;
      if (p.kind === "renderer") renderer = Math.max(renderer, rss);
      if (p.kind === "renderer" && memory) footprint = Math.max(footprint, privateFootprint(memory));
      if (p.kind === "renderer" && memory && rss > top.rss) top = { rss, at, anon: memory.anon, file: memory.file, shmem: memory.shmem };
      const seen = peaks.get(p.pid);
      if (!seen || rss > seen.rss) peaks.set(p.pid, { kind: p.kind, rss });
    }
    timeline.push({ at, rss: renderer });
  };
  sample();
  const timer = setInterval(sample, 100);
  try {
    const value = await run();
    sample();
    const byKind = new Map<string, number>();
    for (const { kind, rss } of peaks.values()) byKind.set(kind, Math.max(byKind.get(kind) ?? 0, rss));
    const total = performance.now() - started;
    const course = Array.from({ length: 11 }, (_, k) => timeline.findLast((s) => s.at <= (total * k) / 10)?.rss ?? 0);
    return { value, peaks: byKind, footprint, course, top: { at: top.at / total, anon: top.anon, file: top.file, shmem: top.shmem } };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Chromium's own VP9 encoder at 1920×1080, alone: an empty page on 127.0.0.1 whose worker
 * encodes 200 frames of a canvas as the export does (realtime, constant quality). The growth of
 * its renderer's RSS is what the encoder itself holds — the part of the page's peak no code of
 * deckhand's can shrink.
 */
async function encoderAlone(): Promise<{ idle: number; peak: number }> {
  const worker = `onmessage = async () => {
    const canvas = new OffscreenCanvas(1920, 1080);
    const ctx = canvas.getContext("2d", { alpha: false });
    const encoder = new VideoEncoder({ output: () => {}, error: (e) => postMessage(String(e)) });
    encoder.configure({ codec: "vp09.00.40.08", width: 1920, height: 1080, latencyMode: "realtime", bitrateMode: "quantizer" });
    for (let i = 0; i < 200; i++) {
      ctx.fillStyle = "#f5f5f0"; ctx.fillRect(0, 0, 1920, 1080); ctx.fillStyle = "#111"; ctx.font = "64px sans-serif"; ctx.fillText("Slide " + i, 100 + i, 300);
      const frame = new VideoFrame(canvas, { timestamp: i * 33333 });
      while (encoder.encodeQueueSize > 1) await new Promise((r) => encoder.addEventListener("dequeue", r, { once: true }));
      encoder.encode(frame, { keyFrame: i % 100 === 0, vp9: { quantizer: 32 } });
      frame.close();
    }
    await encoder.flush();
    postMessage("done");
  };`;
  const html = `<!doctype html><title>encoder</title><script>window.encode = () => new Promise((resolve) => { const w = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(worker)}], { type: "text/javascript" }))); w.onmessage = (e) => resolve(e.data); w.postMessage(0); });</script>`;
  const site = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(html, { headers: { "content-type": "text/html" } }) });
  const session = await launchBrowser();
  try {
    await session.page.goto(`http://127.0.0.1:${site.port}/`);
    const renderer = () => Math.max(...browserProcesses(ownProfile(session.userDataDir)).filter((p) => p.kind === "renderer").map((p) => readMemory(p.pid)?.rss ?? 0));
    const idle = renderer();
    const { value, peaks } = await peakMemory(ownProfile(session.userDataDir), () => session.page.evaluate(() => (window as unknown as { encode(): Promise<string> }).encode()));
    if (value !== "done") throw new Error(`the encoder alone failed: ${value}`);
    return { idle, peak: peaks.get("renderer") ?? Number.NaN };
  } finally {
    await session.close();
    site.stop();
  }
}

const dir = mkdtempSync(join(tmpdir(), "deckhand-bench-export-"));
const server = await startBinary();
const browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
try {
  const deckPath = join(dir, "talk.pdf");
  writeFileSync(deckPath, await makeTalkDeck(SLIDES));
  const audioPath = join(dir, "talk.webm");
  const made = Bun.spawnSync(["ffmpeg", "-v", "error", "-y", "-stream_loop", "-1", "-i", speechWav(), "-t", String(DURATION_MS / 1000), "-ac", "1", "-ar", "48000", "-c:a", "libopus", "-b:a", `${AUDIO_KBPS}k`, "-vbr", "constrained", audioPath], { stderr: "pipe" });
  if (made.exitCode !== 0) throw new Error(`ffmpeg: ${made.stderr.toString()}`);
  const events = talkEvents({ durationMs: DURATION_MS, slides: SLIDES, strokes: STROKES });
  writeFileSync(join(dir, "events.json"), JSON.stringify(events));
  const audioBytes = readFileSync(audioPath).byteLength;
  console.log(`talk: ${MINUTES} min, ${SLIDES} slides, ${STROKES} strokes, ${events.length} picture events (${mb(readFileSync(join(dir, "events.json")).byteLength)} as JSON), Opus ${AUDIO_KBPS} kbit/s (${mb(audioBytes)})`);

  const importer = browser.page;
  await importer.goto(`${server.url}/`);
  await importer.waitForSelector("body[data-ready='true']");
  await importer.setInputFiles("#file-input", deckPath);
  await importer.waitForSelector(".deck-card");
  const deckId = (await importer.getAttribute(".deck-card", "data-deck"))!;
  await importer.waitForSelector(`body[data-thumbnails='done']`);
  // The talk into the recordings store, a piece a second (its second of sound and of events), as
  // the Record control writes it; the files are read by the browser itself (a file input: nothing
  // goes through the driver's protocol).
  await importer.evaluate(() => {
    const input = document.createElement("input");
    input.type = "file";
    input.id = "bench-recording";
    input.multiple = true;
    input.hidden = true;
    document.body.append(input);
  });
  await importer.setInputFiles("#bench-recording", [audioPath, join(dir, "events.json")]);
  const stored = performance.now();
  const recordingId = await importer.evaluate(
    async ({ deckId, durationMs }) => {
      type Piece = { key: string; recordingId: string; seq: number; segment: number; startMs: number; endMs: number; audio?: Blob; events: { t: number }[] };
      type Store = { createRecording(r: unknown): Promise<{ id: string } | null>; putPiece(p: Piece): Promise<boolean>; updateRecording(id: string, change: unknown): Promise<boolean> };
      const [audio, eventsFile] = [...document.querySelector<HTMLInputElement>("#bench-recording")!.files!];
      const events = JSON.parse(await eventsFile!.text()) as { t: number }[];
      const store = (window as unknown as { __deckhand: { recordings(): Store } }).__deckhand.recordings();
      const record = await store.createRecording({ deckId, kind: "talk", title: "talk", audio: { mimeType: "audio/webm;codecs=opus" }, labels: [] });
      if (!record) throw new Error("the deck is not stored");
      const count = Math.ceil(durationMs / 1000);
      const perPiece = Math.ceil(audio!.size / count);
      let next = 0;
      for (let seq = 0; seq < count; seq++) {
        const endMs = Math.min(durationMs, (seq + 1) * 1000);
        const from = next;
        while (next < events.length && (events[next]!.t < endMs || seq === count - 1)) next++;
        await store.putPiece({ key: "", recordingId: record.id, seq, segment: 0, startMs: seq * 1000, endMs, audio: audio!.slice(seq * perPiece, (seq + 1) * perPiece), events: events.slice(from, next) });
      }
      await store.updateRecording(record.id, { state: "stopped" });
      return record.id;
    },
    { deckId, durationMs: DURATION_MS },
  );
  console.log(`stored through the recordings store in ${((performance.now() - stored) / 1000).toFixed(1)} s`);
  // A recording is exported from the library some time after it was made: a library page of
  // its own (a renderer process of its own), not the one that imported the deck and stored the talk.
  const page = await browser.context.newPage();
  await importer.close();
  await page.goto(`${server.url}/`);
  await page.waitForSelector("body[data-ready='true']");
  await page.waitForSelector(`body[data-thumbnails='done']`);
  const row = `.deck-recording[data-recording="${recordingId}"]`;
  await page.waitForSelector(`${row} .export-panel[data-video-codec]`);
  await page.evaluate(() => (window as unknown as { __deckhand: { saveTo(where: string): void } }).__deckhand.saveTo("private-file"));
  const idle = browserProcesses(ownProfile(browser.userDataDir))
    .filter((p) => p.kind === "renderer")
    .map((p) => readMemory(p.pid))
    .reduce((a, b) => ((b?.rss ?? 0) > (a?.rss ?? 0) ? b : a), null);
  const idleRenderer = idle?.rss ?? 0;

  /** One Save video from the recording's row; its wall time in ms and what the worker reported. */
  const exportOnce = async (dryRun: boolean) => {
    await page.evaluate((on) => {
      const hook = (window as unknown as { __deckhand: { dryRun(on: boolean): void; saved: unknown[] } }).__deckhand;
      hook.dryRun(on);
      hook.saved.length = 0;
    }, dryRun);
    const started = performance.now();
    await page.click(`${row} [data-export-kind='video']`);
    await page.waitForFunction((r) => (window as unknown as { __deckhand: { saved: unknown[] } }).__deckhand.saved.length > 0 || document.querySelector(`${r} .export-panel`)?.getAttribute("data-export") === "failed", row, { timeout: 0, polling: 250 });
    const ms = performance.now() - started;
    const text = await page.textContent(`${row} .export-result`);
    if ((await page.getAttribute(`${row} .export-panel`, "data-export")) !== "done") throw new Error(`export failed: ${text}`);
    const result = await page.evaluate(() => {
      const saved = (window as unknown as { __deckhand: { saved: { result: { bytes: number; frames: number; keyframes: number; repeats: number; audioPackets: number; video: { codec: string } } }[] } }).__deckhand.saved;
      return saved[saved.length - 1]!.result;
    });
    return { ms, result };
  };

  // The baseline before and after the export: on a shared machine the load moves, and the
  // export is compared with the mean of the two around it.
  const before = await peakMemory(ownProfile(browser.userDataDir), () => exportOnce(true));
  const exported = await peakMemory(ownProfile(browser.userDataDir), () => exportOnce(false));
  const after = await peakMemory(ownProfile(browser.userDataDir), () => exportOnce(true));
  const baseline = { value: { ms: (before.value.ms + after.value.ms) / 2 }, peaks: new Map([...before.peaks].map(([k, v]) => [k, Math.max(v, after.peaks.get(k) ?? 0)])), footprint: Math.max(before.footprint, after.footprint), course: before.course, top: before.top };
  const minutes = DURATION_MS / 60_000;
  const { result } = exported.value;
  const videoBytes = result.bytes - audioBytes;
  const ratio = exported.value.ms / DURATION_MS;
  console.log(`\nSave video, ${minutes}-minute talk (Chromium, ${result.video.codec}, 1920×1080):`);
  console.log(`  export:   ${(exported.value.ms / 1000).toFixed(1)} s = ${ratio.toFixed(3)}× the talk (goal ≤ ${GOAL_RATIO}×: ${ratio <= GOAL_RATIO ? "met" : "missed"}); ${result.frames} frames (${result.keyframes} keyframes; ${result.repeats} repeats of a still picture)`);
  console.log(`  baseline: ${(baseline.value.ms / 1000).toFixed(1)} s = ${(baseline.value.ms / DURATION_MS).toFixed(3)}× the talk (before ${(before.value.ms / 1000).toFixed(1)} s, after ${(after.value.ms / 1000).toFixed(1)} s): the same frames drawn, nothing encoded or written`);
  console.log(`  export / baseline: ${(exported.value.ms / baseline.value.ms).toFixed(2)}×`);
  console.log(`  file: ${mb(result.bytes)} = ${mb(result.bytes / minutes)} a minute (video ${mb(videoBytes / minutes)}, sound ${mb(audioBytes / minutes)} a minute)`);
  const page_ = exported.footprint;
  console.log(`  page's renderer before: ${mb(idleRenderer)} RSS (the library with the deck; ${mb(idle?.anon ?? 0)} anonymous, ${mb(idle?.file ?? 0)} file-backed)`);
  console.log(`  peak memory of the page, export: ${mb(page_)} private footprint — Chromium's measure of a page, its renderer's anonymous memory and swap (goal ≤ ${GOAL_PAGE_MB} MB: ${page_ <= GOAL_PAGE_MB * 1048576 ? "met" : "missed"}); baseline ${mb(baseline.footprint)}`);
  console.log(`  peak RSS, export: page's renderer ${mb(exported.peaks.get("renderer") ?? Number.NaN)} (with Chromium's own code, file-backed and shared with its other processes), browser process ${mb(exported.peaks.get("browser") ?? Number.NaN)}, GPU ${mb(exported.peaks.get("gpu-process") ?? 0)}`);
  console.log(`  peak RSS, baseline: page's renderer ${mb(baseline.peaks.get("renderer") ?? Number.NaN)}, browser process ${mb(baseline.peaks.get("browser") ?? Number.NaN)}`);
  const topOf = (top: typeof exported.top) => `at ${(top.at * 100).toFixed(0)} % of the run: ${mb(top.anon)} anonymous, ${mb(top.file)} file-backed (code), ${mb(top.shmem)} shared`;
  console.log(`  the page's renderer at its peak, export ${topOf(exported.top)}; baseline ${topOf(baseline.top)}`);
  console.log(`  the page's renderer at each tenth of the export: ${exported.course.map((b) => (b / 1048576).toFixed(0)).join(" ")} MB; of the baseline: ${baseline.course.map((b) => (b / 1048576).toFixed(0)).join(" ")} MB`);
  const alone = await encoderAlone();
  console.log(`  Chromium's VP9 encoder alone at 1920×1080 (an empty page encoding 200 frames): renderer ${mb(alone.idle)} → ${mb(alone.peak)}, +${mb(alone.peak - alone.idle)}`);
} finally {
  await browser.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
