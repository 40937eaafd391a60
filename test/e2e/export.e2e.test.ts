/**
 * Save video and Save audio of a recording, against the compiled binary, read back with
 * ffprobe and ffmpeg as a player reads them (test/helpers/video-probe.ts).
 *
 * In Chromium with a fake microphone playing speech (espeak-ng): a recording made in the page
 * by MediaRecorder across three slides with a pen stroke, exported from the library — an audio
 * and a video track, the right length, one chapter per slide with the outline's titles, frames
 * that show the right slide and the ink at the right times (against mupdf's render of the
 * slide), a voice that is not silence; Save audio with the recorded Opus packets themselves and
 * the same chapters; a file written in place (the writable a save dialog gives); progress with
 * the time left, the presenter presenting while an export runs, and cancel; sound recorded as
 * AAC converted to Opus.
 *
 * Then per engine (Chromium, Firefox, WebKit), from a recording kept in the library's recordings
 * store (the export worker reads it from IndexedDB itself): Save audio works; Save video gives a
 * file or says plainly why not; the files play, seek and show the right picture in the engine's own
 * <video> and <audio> elements, and so does the file Chromium exported. Files and frames go to
 * test-output/export/.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { seriousViolations } from "../helpers/axe.ts";
import { launchBrowser, newWindow, type BrowserSession } from "../helpers/browser.ts";
import { engineSuite, stopSuite } from "../helpers/e2e-suite.ts";
import { ENGINES, type EnginePage } from "../helpers/engine.ts";
import { startBinary, type BinaryServer } from "../helpers/server.ts";
import { openLibrary } from "../helpers/stage.ts";
import { chapterList, countColour, decodesCleanly, difference, frameAt, loudness, meanColour, pngAt, probe, type Frame } from "../helpers/video-probe.ts";
import { LASER, longTalkEvents, makeColourDeck, PEN, PROJECTOR, projectorEvents, SCRIPT, SLIDES, speechAac, speechOpus, speechWav, STROKE_POINTS, talkEvents } from "../fixtures/recording.ts";
import { loadMupdf } from "../../src/pdf/mupdf.ts";
import { OUTPUT } from "./fixtures.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

const OUT = join(OUTPUT, "export");
const DECK = join(OUT, "colours.pdf");
const SIZE = { width: 1920, height: 1080 };
/** PDF points to video pixels: a 720 pt wide page fills 1920 px. */
const PX = 1920 / 720;

let deck: Uint8Array;
/** When this run started: files older than it are another run's. */
const started = Date.now();
/** mupdf's render of each page at the video's size: what the slide must look like. */
const reference: Frame[] = [];

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  deck = await makeColourDeck();
  writeFileSync(DECK, deck);
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(deck, "application/pdf");
  for (let i = 0; i < SLIDES.length; i++) {
    const page = doc.loadPage(i);
    const pixmap = page.toPixmap(mupdf.Matrix.scale(PX, PX), mupdf.ColorSpace.DeviceRGB, false);
    reference.push({ width: pixmap.getWidth(), height: pixmap.getHeight(), rgb: new Uint8Array(pixmap.getPixels()) });
    pixmap.destroy();
    page.destroy();
  }
  doc.destroy();
});

/** What the page hands the library hook: a recording with its pieces, audio given as base64. */
interface HandedRecording {
  record: { id: string; deckId: string; title: string; durationMs: number; audio: { mimeType: string } | null; labels: string[] };
  pieces: { seq: number; segment: number; startMs: number; audio?: string; events: unknown[] }[];
  save: "download" | "private-file";
}

/**
 * Hand a recording to the library (`__deckhand.exportRecording`), its audio turned into Blobs in
 * the page; wait for its row (`recordingRow`). Handed over after the script returns: WebKitWebDriver
 * cannot read a script's result when the panel's encoder check (VideoEncoder.isConfigSupported)
 * starts within it ("Could not parse script result").
 */
function handRecording(input: HandedRecording): boolean {
  const pieces = input.pieces.map((p) => ({ ...p, audio: p.audio ? new Blob([Uint8Array.from(atob(p.audio), (c) => c.charCodeAt(0))]) : undefined }));
  setTimeout(() => (window as unknown as { __deckhand: { exportRecording(i: unknown): boolean } }).__deckhand.exportRecording({ ...input, pieces }));
  return true;
}

/**
 * Keep a recording in the library's recordings store, as the presenter's Record control writes
 * it (`__deckhand.recordings()`: createRecording, a piece, stopped), its audio from base64; the
 * library lists it on its deck's card after a reload, and an export from that row reads it in
 * the export worker, from IndexedDB.
 */
async function storeRecording(input: HandedRecording): Promise<boolean> {
  type Store = { createRecording(r: unknown, id: string): Promise<{ id: string } | null>; putPiece(p: unknown): Promise<boolean>; updateRecording(id: string, change: unknown): Promise<boolean> };
  const store = (window as unknown as { __deckhand: { recordings(): Store } }).__deckhand.recordings();
  const { record } = input;
  const made = await store.createRecording({ deckId: record.deckId, kind: "talk", title: record.title, audio: record.audio, labels: record.labels }, record.id);
  if (!made) return false;
  for (const [i, p] of input.pieces.entries()) {
    const audio = p.audio ? new Blob([Uint8Array.from(atob(p.audio), (c) => c.charCodeAt(0))]) : undefined;
    const endMs = input.pieces[i + 1]?.startMs ?? record.durationMs;
    if (!(await store.putPiece({ key: "", recordingId: made.id, seq: p.seq, segment: p.segment, startMs: p.startMs, endMs, audio, events: p.events }))) return false;
  }
  return store.updateRecording(made.id, { state: "stopped" });
}

/** The recording's row is in the library with its panel, which has asked WebCodecs what it can encode. */
const recordingRow = (id: string) => !!document.querySelector(`.deck-recording[data-recording="${id}"] .export-panel[data-video-codec]`);

/** The last file saved under `name`, as base64 with what the export reported (null while there is none). */
function savedFile(name: string): Promise<string | null> | null {
  const all = (window as unknown as { __deckhand: { saved: { file: Blob | null; name: string; result: Record<string, unknown> }[] } }).__deckhand.saved;
  const saved = all.findLast((s) => s.name === name);
  if (!saved) return null;
  return (async () => {
    const bytes = saved.file ? new Uint8Array(await saved.file.arrayBuffer()) : new Uint8Array(await (await (await (await navigator.storage.getDirectory()).getFileHandle(saved.name)).getFile()).arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return JSON.stringify({ base64: btoa(binary), name: saved.name, inPlace: saved.file === null, result: { ...saved.result, file: null } });
  })();
}

/**
 * In the page: keep every line the export panel in `sel` shows under its bar, in order, from now
 * on (`exportLines` reads them). A worker's message is a task of its own, so no step is missed.
 */
function watchExportLines(sel: string): void {
  const status = document.querySelector(`${sel} .export-status`)!;
  const lines: string[] = [];
  (window as unknown as { __exportLines: string[] }).__exportLines = lines;
  new MutationObserver(() => {
    const line = status.textContent ?? "";
    if (lines.at(-1) !== line) lines.push(line);
  }).observe(status, { childList: true, characterData: true, subtree: true });
}

function exportLines(): string[] {
  return (window as unknown as { __exportLines: string[] }).__exportLines;
}

/**
 * The steps an export showed before its file, in order, with what they end with: reading the
 * recording, converting its sound (only when `converted`), opening the deck, then saving.
 */
function expectSteps(lines: string[], kind: "video" | "audio", converted: boolean): void {
  const step = (line: string) => line.replace(/… .*$|…$/, "");
  const steps = lines.map(step).filter((s, i, all) => all[i - 1] !== s);
  expect(steps).toEqual(["Reading the recording", ...(converted ? ["Converting the sound to Opus"] : []), "Opening the deck", kind === "video" ? "Saving the video" : "Saving the audio"]);
  if (converted) expect(lines.filter((l) => l.startsWith("Converting")).every((l) => /^Converting the sound to Opus… \d{1,3} %$/.test(l))).toBe(true);
}

/** The file name the panel gives a recording's export. */
const fileName = (title: string, kind: "video" | "audio") => `${title}${kind === "audio" ? " (audio)" : ""}.webm`;

interface Saved {
  path: string;
  inPlace: boolean;
  /** The lines the panel showed under its bar, in order. */
  lines: string[];
  result: { frames: number; keyframes: number; repeats: number; chapters: number; audioPackets: number; audioConverted: boolean; video: { codec: string } | null };
}

/** One piece per recording, all events in it: the shape the recordings store keeps, at its simplest. */
function onePiece(deckId: string, title: string, durationMs: number, audio: { base64: string; mime: string } | null, events: unknown[], save: HandedRecording["save"] = "download"): HandedRecording {
  return {
    record: { id: `r-${title}`, deckId, title, durationMs, audio: audio ? { mimeType: audio.mime } : null, labels: [] },
    pieces: [{ seq: 0, segment: 0, startMs: 0, ...(audio ? { audio: audio.base64 } : {}), events }],
    save,
  };
}

const base64Of = (path: string) => Buffer.from(readFileSync(path)).toString("base64");

/** Pixels of the pen's colour within a few pixels of a point of the stroke (PDF points). */
function penNear(frame: Frame, point: { x: number; y: number }): number {
  const x = Math.round(point.x * PX);
  const y = Math.round(point.y * PX);
  return countColour(frame, [...PEN.colour], 45, { x: x - 6, y: y - 6, w: 12, h: 12 });
}

/** Mean difference from the slide's render outside a band around the stroke (the stroke itself is the ink). */
function differenceOffStroke(frame: Frame, slide: Frame): number {
  const masked = (f: Frame) => {
    const copy = new Uint8Array(f.rgb);
    for (const p of STROKE_POINTS) {
      for (let dy = -24; dy <= 24; dy++) {
        for (let dx = -24; dx <= 24; dx++) {
          const x = Math.round(p.x * PX) + dx;
          const y = Math.round(p.y * PX) + dy;
          if (x >= 0 && y >= 0 && x < f.width && y < f.height) copy.fill(0, (y * f.width + x) * 3, (y * f.width + x) * 3 + 3);
        }
      }
    }
    return { ...f, rgb: copy };
  };
  return difference(masked(frame), masked(slide));
}

/**
 * Mean difference (0–255 a channel) a frame may have from the slide's render: the codec's loss.
 * Chromium's encoder stays under 3; Firefox's is about 8 off, all in colour — it converts to
 * YUV by BT.601 but declares BT.709 in its decoder config, so every player shows its colours a
 * few levels off (a Firefox bug: decoded as BT.601 its frames match Chromium's). A wrong slide,
 * or a missing or extra stroke, is 40 or more.
 */
const CODEC_LOSS = 10;

/** The file's picture at the script's moments: right slide, ink only once drawn, the laser on slide 3. */
function expectPictures(path: string, engine: string): void {
  const at = (t: number) => frameAt(path, t, SIZE);
  for (const t of [1, 2.2, 3, 4, 5.5]) pngAt(path, t, join(OUT, `${engine}-frame-${t}s.png`));
  // Slide 1 before anything else: the slide's own render, within the codec's loss.
  const one = at(1);
  expect(difference(one, reference[0]!)).toBeLessThan(CODEC_LOSS);
  expect(STROKE_POINTS.every((p) => penNear(one, p) === 0)).toBe(true);
  // Slide 2 before the pen: no ink yet.
  const two = at(2.2);
  expect(difference(two, reference[1]!)).toBeLessThan(CODEC_LOSS);
  expect(STROKE_POINTS.every((p) => penNear(two, p) === 0)).toBe(true);
  // Halfway through the stroke (drawn 2.4–3.4 s): its first half is there, its last part not yet.
  const drawing = at(3);
  expect(penNear(drawing, STROKE_POINTS[5]!)).toBeGreaterThan(20);
  expect(penNear(drawing, STROKE_POINTS[30]!)).toBeGreaterThan(20);
  expect(penNear(drawing, STROKE_POINTS[50]!)).toBe(0);
  expect(penNear(drawing, STROKE_POINTS[60]!)).toBe(0);
  // The stroke kept: ink all along it, and the slide unchanged around it.
  const kept = at(4);
  for (const i of [0, 15, 30, 45, 60]) expect(penNear(kept, STROKE_POINTS[i]!)).toBeGreaterThan(20);
  expect(differenceOffStroke(kept, reference[1]!)).toBeLessThan(CODEC_LOSS);
  // A second after the stroke was kept, the still picture is repeated: the same picture, ink and all.
  const repeated = at((SCRIPT.committed + 1000 + 10) / 1000);
  expect(difference(repeated, kept)).toBeLessThan(1);
  // Slide 3 with the laser dot (white core, red ring) where the presenter pointed; no ink from slide 2.
  const three = at(5.5);
  expect(difference(three, reference[2]!)).toBeLessThan(CODEC_LOSS);
  const [r, g, b] = meanColour(three, Math.round(LASER.x * PX) - 2, Math.round(LASER.y * PX) - 2, 5, 5);
  expect(r).toBeGreaterThan(200);
  expect(g).toBeGreaterThan(150);
  expect(b).toBeGreaterThan(150);
  expect(countColour(three, [255, 45, 45], 60, { x: Math.round(LASER.x * PX) - 20, y: Math.round(LASER.y * PX) - 20, w: 40, h: 40 })).toBeGreaterThan(10);
}

/** The chapters the script makes: one per slide, the outline's titles, the last to the end. */
function expectChapters(path: string, durationMs: number): void {
  expect(chapterList(path)).toEqual([
    [0, SCRIPT.slide2 / 1000, "Opening"],
    [SCRIPT.slide2 / 1000, SCRIPT.slide3 / 1000, "Slide 2"],
    [SCRIPT.slide3 / 1000, Math.ceil(durationMs) / 1000, "Results"],
  ]);
}

// ---- Chromium, with a fake microphone ------------------------------------------------------

if (ENGINES.includes("chromium")) {
  describe("export in Chromium, from a recording made with the microphone", () => {
    let server: BinaryServer;
    let session: BrowserSession;
    let page: Page;
    let deckId = "";
    let recorded: { durationMs: number; mime: string; segment: string } = { durationMs: 0, mime: "", segment: "" };
    let video: Saved;

    beforeAll(async () => {
      server = await startBinary();
      // The fake microphone plays the speech in a loop (Chromium's own capture pipeline, as a real one).
      session = await launchBrowser({ args: ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", `--use-file-for-fake-audio-capture=${speechWav()}`] });
      page = session.page;
      await page.goto(`${server.url}/`);
      await page.waitForSelector("body[data-ready='true']");
      await page.setInputFiles("#file-input", DECK);
      await page.waitForSelector(".deck-card");
      deckId = (await page.getAttribute(".deck-card", "data-deck"))!;
    });

    afterAll(() => stopSuite(server, [session]));

    /** Save a file from the panel of recording `title` and read it back to disk. */
    async function save(title: string, kind: "video" | "audio"): Promise<Saved> {
      const panel = `.deck-recording[data-recording="r-${title}"]`;
      await page.evaluate(watchExportLines, panel);
      await page.click(`${panel} [data-export-kind='${kind}']`);
      await page.waitForSelector(`${panel} .export-panel[data-export='done'], ${panel} .export-panel[data-export='failed']`, { timeout: 110_000 });
      expect(await page.getAttribute(`${panel} .export-panel`, "data-export"), (await page.textContent(`${panel} .export-result`)) ?? "").toBe("done");
      const json = await page.evaluate(savedFile, fileName(title, kind));
      const saved = JSON.parse(json!) as { base64: string; inPlace: boolean; result: Saved["result"] };
      const path = join(OUT, `chromium-${title}-${kind}.webm`);
      writeFileSync(path, Buffer.from(saved.base64, "base64"));
      return { path, inPlace: saved.inPlace, result: saved.result, lines: await page.evaluate(exportLines) };
    }

    test("records across three slides with a pen stroke; the video has both tracks, its length, a chapter per slide, the right pictures and a voice", async () => {
      // Recorded as the presenter records: MediaRecorder on the microphone, a piece a second.
      recorded = await page.evaluate(async (seconds: number) => {
        const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
        const recorder = new MediaRecorder(stream, { mimeType: "audio/webm;codecs=opus" });
        const chunks: Blob[] = [];
        recorder.ondataavailable = (e) => chunks.push(e.data);
        const stopped = new Promise((resolve) => (recorder.onstop = resolve));
        let started = 0;
        recorder.onstart = () => (started = performance.now());
        recorder.start(1000);
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
        const durationMs = performance.now() - started;
        recorder.stop();
        await stopped;
        for (const track of stream.getTracks()) track.stop();
        const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
        let binary = "";
        for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        (window as unknown as { __chunks: Blob[] }).__chunks = chunks;
        return { durationMs, mime: recorder.mimeType, segment: btoa(binary) };
      }, 6.5);
      expect(recorded.mime).toContain("opus");
      writeFileSync(join(OUT, "chromium-recorded.webm"), Buffer.from(recorded.segment, "base64"));
      // The pieces as the store keeps them: each second's audio with that second's events.
      const events = talkEvents();
      const handed = await page.evaluate(
        ({ deckId, durationMs, mime, events }) => {
          const chunks = (window as unknown as { __chunks: Blob[] }).__chunks;
          const pieces = chunks.map((audio, seq) => ({ seq, segment: 0, startMs: seq * 1000, audio, events: events.filter((e) => e.t >= seq * 1000 && (e.t < (seq + 1) * 1000 || seq === chunks.length - 1)) }));
          const record = { id: "r-talk", deckId, title: "talk", durationMs, audio: { mimeType: mime }, labels: [] };
          return (window as unknown as { __deckhand: { exportRecording(i: unknown): boolean } }).__deckhand.exportRecording({ record, pieces, save: "download" });
        },
        { deckId, durationMs: recorded.durationMs, mime: recorded.mime, events },
      );
      expect(handed).toBe(true);
      await page.screenshot({ path: join(OUT, "chromium-library-recording.png") });

      video = await save("talk", "video");
      expect(video.inPlace).toBe(false);
      const info = probe(video.path);
      expect(info.streams.map((s) => `${s.codec_type}:${s.codec_name}:${s.width ?? ""}x${s.height ?? ""}`).sort()).toEqual(["audio:opus:x", "video:vp9:1920x1080"]);
      expect(Number(info.format.duration) * 1000).toBeGreaterThan(recorded.durationMs - 120);
      expect(Number(info.format.duration) * 1000).toBeLessThan(recorded.durationMs + 120);
      expect(info.format.tags?.title ?? info.format.tags?.TITLE).toBe("talk");
      expectChapters(video.path, recorded.durationMs);
      expect(decodesCleanly(video.path)).toBe("");
      expectPictures(video.path, "chromium");
      // A frame only where the picture changes — the stroke's 30-fps frames, slide changes, the laser —
      // and the still picture repeated once a second: about 40, where 30 fps throughout would be 195.
      expect(video.result.frames).toBeGreaterThan(30);
      expect(video.result.frames).toBeLessThan(50);
      expect(video.result.keyframes).toBe(3);
      // The still stretches' repeats, about one a second.
      expect(video.result.repeats).toBeGreaterThanOrEqual(3);
      // The speech is there, not silence (silence reads about −91 dB).
      const level = loudness(video.path);
      expect(level.meanDb).toBeGreaterThan(-45);
      expect(level.maxDb).toBeGreaterThan(-20);
    });

    test("Save audio: the recorded Opus packets themselves, with the same chapters", async () => {
      const audio = await save("talk", "audio");
      const info = probe(audio.path);
      expect(info.streams.map((s) => s.codec_name)).toEqual(["opus"]);
      expectChapters(audio.path, recorded.durationMs);
      expect(audio.result.audioConverted).toBe(false);
      // Packet for packet the recording's own (sizes and bytes), not decoded and encoded again.
      const packets = (file: string) => {
        return Bun.spawnSync(["ffprobe", "-v", "error", "-select_streams", "a", "-show_data_hash", "sha256", "-show_entries", "packet=size,data_hash", "-of", "csv=p=0", file], { stdout: "pipe" }).stdout.toString().trim().split("\n");
      };
      const exported = packets(audio.path);
      const original = packets(join(OUT, "chromium-recorded.webm"));
      // Chromium writes 60 ms Opus frames: about 17 a second.
      expect(exported.length).toBeGreaterThan(80);
      expect(exported).toEqual(original.slice(0, exported.length));
      expect(original.length - exported.length).toBeLessThan(20);
      expect(loudness(audio.path).meanDb).toBeGreaterThan(-45);
    });

    test("a file written in place, as a save dialog's file is, reads back the same", async () => {
      const opus = { base64: base64Of(speechOpus(7)), mime: "audio/webm;codecs=opus" };
      expect(await page.evaluate(handRecording, onePiece(deckId, "in-place", 6500, opus, talkEvents(), "private-file"))).toBe(true);
      await page.waitForFunction(recordingRow, "r-in-place");
      const saved = await save("in-place", "video");
      expect(saved.inPlace).toBe(true);
      // Opus is copied as recorded: no conversion step.
      expectSteps(saved.lines, "video", false);
      expect(probe(saved.path).streams).toHaveLength(2);
      expectChapters(saved.path, 6500);
      expect(decodesCleanly(saved.path)).toBe("");
    });

    test("a long export shows progress with the time left, the presenter presents meanwhile, and Cancel stops it", async () => {
      const durationMs = 150_000;
      const opus = { base64: base64Of(speechOpus(150)), mime: "audio/webm;codecs=opus" };
      expect(await page.evaluate(handRecording, onePiece(deckId, "long", durationMs, opus, longTalkEvents(durationMs)))).toBe(true);
      await page.waitForFunction(recordingRow, "r-long");
      const panel = `.deck-recording[data-recording="r-long"]`;
      await page.click(`${panel} [data-export-kind='video']`);
      await page.waitForFunction((sel) => /\d+ % · (about|a few)/.test(document.querySelector(`${sel} .export-status`)?.textContent ?? ""), panel, { timeout: 60_000 });
      const first = Number(await page.getAttribute(`${panel} [role='progressbar']`, "aria-valuenow"));
      await page.screenshot({ path: join(OUT, "chromium-export-progress.png") });

      // A talk presented while the export runs: the presenter and its audience window follow every step.
      const presenter = await newWindow(session.context);
      await presenter.goto(`${server.url}/present/${deckId}`);
      await presenter.waitForSelector("body[data-ready='true']", { timeout: 30_000 });
      for (const slide of ["2", "3"]) {
        const t0 = Date.now();
        await presenter.keyboard.press("ArrowRight");
        await presenter.waitForSelector(`body[data-slide='${slide}']`, { timeout: 5000 });
        expect(Date.now() - t0).toBeLessThan(5000);
      }
      expect(await page.getAttribute(`${panel} .export-panel`, "data-export")).toBe("running");
      await presenter.close();

      await page.waitForFunction(([sel, before]) => Number(document.querySelector(`${sel} [role='progressbar']`)?.getAttribute("aria-valuenow")) > (before as number), [panel, first] as const, { timeout: 60_000 });
      const savedBefore = await page.evaluate(() => (window as unknown as { __deckhand: { saved: unknown[] } }).__deckhand.saved.length);
      await page.click(`${panel} [data-export-cancel]`);
      await page.waitForSelector(`${panel} .export-panel[data-export='idle']`);
      expect(await page.textContent(`${panel} .export-result`)).toBe("Export cancelled.");
      expect(await page.isHidden(`${panel} .export-progress`)).toBe(true);
      expect(await page.isEnabled(`${panel} [data-export-kind='video']`)).toBe(true);
      // No file came of it, and no worker is left running.
      await Bun.sleep(500);
      expect(await page.evaluate(() => (window as unknown as { __deckhand: { saved: unknown[] } }).__deckhand.saved.length)).toBe(savedBefore);
    });

    test("the projector's other pictures: zoom, spotlight, black and white, a question, a poll, the join card, reactions", async () => {
      const opus = { base64: base64Of(speechOpus(11)), mime: "audio/webm;codecs=opus" };
      expect(await page.evaluate(handRecording, onePiece(deckId, "projector", PROJECTOR.end, opus, projectorEvents()))).toBe(true);
      await page.waitForFunction(recordingRow, "r-projector");
      const saved = await save("projector", "video");
      const at = (ms: number, name: string) => {
        pngAt(saved.path, ms / 1000, join(OUT, `chromium-projector-${name}.png`));
        return frameAt(saved.path, ms / 1000, SIZE);
      };
      const near = (colour: number[], expected: number[], tolerance = 12) => colour.every((c, k) => Math.abs(c - expected[k]!) <= tolerance);
      const orange = [...SLIDES[0]!.colour];
      const blue = [...SLIDES[2]!.colour];

      // The zoom: the bottom-left quarter of slide 1 at twice the size, rendered sharp (mupdf's render of that region).
      const z = PROJECTOR.zoomRect;
      const scale = 1920 / z.w;
      const mupdf = await loadMupdf();
      const doc = mupdf.Document.openDocument(deck, "application/pdf");
      const zoomPage = doc.loadPage(0);
      const pixmap = zoomPage.toPixmap(mupdf.Matrix.concat(mupdf.Matrix.translate(-z.x, -z.y), mupdf.Matrix.scale(scale, scale)), mupdf.ColorSpace.DeviceRGB, false);
      const full = new Uint8Array(pixmap.getPixels());
      const stride = pixmap.getWidth() * 3;
      const zoomed = new Uint8Array(1920 * 1080 * 3);
      for (let row = 0; row < 1080; row++) zoomed.set(full.subarray(row * stride, row * stride + 1920 * 3), row * 1920 * 3);
      pixmap.destroy();
      zoomPage.destroy();
      doc.destroy();
      const zoomFrame = at(PROJECTOR.zoom + 300, "zoom");
      expect(difference(zoomFrame, { width: 1920, height: 1080, rgb: zoomed })).toBeLessThan(CODEC_LOSS);
      // Twice the size: the slide's "Slide 1" covers four times the pixels it covers unzoomed.
      const ink = (f: Frame) => countColour(f, [26, 26, 26], 40);
      expect(ink(zoomFrame) / ink(reference[0]!)).toBeGreaterThan(3.5);

      // The spotlight: the slide clear inside the circle, dimmed to 28 % outside it.
      const spot = at(PROJECTOR.spotlight + 300, "spotlight");
      expect(near(meanColour(spot, Math.round(PROJECTOR.spot.x * PX) - 5, Math.round(PROJECTOR.spot.y * PX) - 5, 10, 10), blue)).toBe(true);
      expect(near(meanColour(spot, 100, 100, 20, 20), blue.map((c) => c * 0.28))).toBe(true);

      // Black means black; white, white.
      expect(meanColour(at(PROJECTOR.black + 300, "black"), 0, 0, 1920, 1080).every((c) => c < 4)).toBe(true);
      expect(meanColour(at(PROJECTOR.white + 300, "white"), 0, 0, 1920, 1080).every((c) => c > 251)).toBe(true);

      // A question: a white card at the bottom centre with dark text, the slide above it untouched.
      const question = at(PROJECTOR.question + 300, "question");
      expect(near(meanColour(question, 900, 100, 100, 100), orange)).toBe(true);
      expect(near(meanColour(question, 955, 1000, 10, 6), [255, 255, 255], 6)).toBe(true);
      expect(countColour(question, [17, 24, 39], 70, { x: 400, y: 820, w: 1120, h: 220 })).toBeGreaterThan(2000);

      // A poll: the slide dimmed (60 % black), a white box, the teal bars.
      const poll = at(PROJECTOR.poll + 300, "poll");
      expect(near(meanColour(poll, 20, 20, 20, 20), orange.map((c) => c * 0.4))).toBe(true);
      expect(countColour(poll, [15, 118, 110], 30)).toBeGreaterThan(5000);

      // The join card: the slide dimmed (78 %), the QR code's black modules, the code in teal.
      const join_ = at(PROJECTOR.joinCard + 300, "join-card");
      expect(near(meanColour(join_, 20, 20, 20, 20), orange.map((c) => c * 0.22))).toBe(true);
      expect(countColour(join_, [0, 0, 0], 30, { x: 0, y: 200, w: 960, h: 680 })).toBeGreaterThan(40_000);
      expect(countColour(join_, [15, 118, 110], 40)).toBeGreaterThan(3000);

      // Reactions float up over the slide while they are on, and are gone when their rise is over.
      const floating = at(PROJECTOR.reactions + 900, "reactions");
      const notOrange = 1920 * 1080 - countColour(floating, orange as [number, number, number], 40);
      expect(notOrange).toBeGreaterThan(3000);
      expect(difference(at(PROJECTOR.end - 100, "after-reactions"), reference[0]!)).toBeLessThan(CODEC_LOSS);
    });

    test("sound recorded as AAC is converted to Opus, and the file says so", async () => {
      const aac = { base64: base64Of(speechAac(7)), mime: "audio/mp4" };
      expect(await page.evaluate(handRecording, onePiece(deckId, "aac", 6500, aac, talkEvents()))).toBe(true);
      await page.waitForFunction(recordingRow, "r-aac");
      const saved = await save("aac", "audio");
      expect(saved.result.audioConverted).toBe(true);
      expectSteps(saved.lines, "audio", true);
      expect(probe(saved.path).streams.map((s) => s.codec_name)).toEqual(["opus"]);
      expectChapters(saved.path, 6500);
      expect(loudness(saved.path).meanDb).toBeGreaterThan(-45);
      expect(await page.textContent(`.deck-recording[data-recording="r-aac"] .export-result`)).toContain("converted to Opus");
    });
  });
}

// ---- every engine: Save audio, Save video or a plain sentence, and playback ------------------

/** Play `base64` (or the file saved under a name) in a <video>/<audio> of the page: duration, seek, and the colour at a point after each seek. */
function playInPage(source: { saved: string } | { base64: string }, kind: "video" | "audio", seeks: number[], probePoint: { x: number; y: number } | null): Promise<string> {
  return (async () => {
    const blob = "saved" in source ? (window as unknown as { __deckhand: { saved: { name: string; file: Blob }[] } }).__deckhand.saved.findLast((s) => s.name === source.saved)!.file : new Blob([Uint8Array.from(atob(source.base64), (c) => c.charCodeAt(0))], { type: "video/webm" });
    const media = document.createElement(kind);
    media.muted = true;
    media.preload = "auto";
    document.body.append(media);
    const event = (name: string) => new Promise<void>((resolve, reject) => {
      media.addEventListener(name, () => resolve(), { once: true });
      media.addEventListener("error", () => reject(new Error(`media error ${media.error?.code}: ${media.error?.message}`)), { once: true });
      setTimeout(() => reject(new Error(`no ${name} within 20 s`)), 20_000);
    });
    const loaded = event("loadedmetadata");
    media.src = URL.createObjectURL(blob);
    await loaded;
    const out: { duration: number; width: number; height: number; seeks: { t: number; colour: number[] | null }[]; played: number } = { duration: media.duration, width: (media as HTMLVideoElement).videoWidth ?? 0, height: (media as HTMLVideoElement).videoHeight ?? 0, seeks: [], played: 0 };
    for (const t of seeks) {
      const seeked = event("seeked");
      media.currentTime = t;
      await seeked;
      let colour: number[] | null = null;
      if (probePoint && kind === "video") {
        // The picture a viewer sees after the seek, read back from a canvas.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const canvas = document.createElement("canvas");
        canvas.width = 192;
        canvas.height = 108;
        const ctx = canvas.getContext("2d")!;
        ctx.drawImage(media as HTMLVideoElement, 0, 0, 192, 108);
        colour = [...ctx.getImageData(probePoint.x, probePoint.y, 1, 1).data.slice(0, 3)];
      }
      out.seeks.push({ t, colour });
    }
    const from = media.currentTime;
    await media.play();
    await new Promise((resolve) => setTimeout(resolve, 800));
    out.played = media.currentTime - from;
    media.pause();
    media.remove();
    return JSON.stringify(out);
  })();
}

interface Played {
  duration: number;
  width: number;
  height: number;
  seeks: { t: number; colour: number[] | null }[];
  played: number;
}

for (const engine of ENGINES) {
  describe(`${engine}: Save audio, Save video or why not, and the files play`, () => {
    const suite = engineSuite(engine, { shots: OUT, launch: { viewport: { width: 1440, height: 900 } }, timeoutMs: 120_000 });
    const page = (): EnginePage => suite.page;
    let deckId = "";

    beforeAll(async () => {
      await openLibrary(page(), suite.server.url);
      await page().upload("#file-input", DECK);
      await page().waitFor("the deck's card", () => !!document.querySelector(".deck-card"), [], 30_000);
      // The share screen scrolls into view smoothly: a click while the page moves misses its button.
      await page().waitFor("the page to stop scrolling", () => {
        const w = window as unknown as { lastY?: number; since?: number };
        if (w.lastY !== scrollY) {
          w.lastY = scrollY;
          w.since = performance.now();
        }
        return performance.now() - w.since! > 400;
      }, [], 15_000);
      deckId = await page().evaluate(() => document.querySelector(".deck-card")!.getAttribute("data-deck")!);
      // Kept in the recordings store, as a talk recorded in this browser: the export worker reads it
      // from IndexedDB itself. Its events a piece a second, so a stroke spans pieces (compacted apart).
      const opus = { base64: base64Of(speechOpus(7)), mime: "audio/webm;codecs=opus" };
      const talk = onePiece(deckId, "talk", 6500, opus, talkEvents());
      const events = talkEvents();
      talk.pieces = [0, 1, 2, 3, 4, 5, 6].map((seq) => ({ seq, segment: 0, startMs: seq * 1000, ...(seq === 0 ? { audio: opus.base64 } : {}), events: events.filter((e) => e.t >= seq * 1000 && (e.t < (seq + 1) * 1000 || seq === 6)) }));
      expect(await page().evaluate(storeRecording, talk)).toBe(true);
      await openLibrary(page(), suite.server.url);
      await page().evaluate(() => (window as unknown as { __deckhand: { saveTo(where: string): void } }).__deckhand.saveTo("download"));
      await page().waitFor("the stored recording's row, its panel knowing the video encoder", recordingRow, ["r-talk"], 20_000);
    });

    async function save(kind: "video" | "audio"): Promise<{ path: string; result: Saved["result"] }> {
      await page().evaluate(watchExportLines, ".export-panel");
      await page().click(`[data-export-kind='${kind}']`);
      // A failed wait says how far the export got: the panel's lines, each step before the file's
      // first second (the recording read, its sound converted, the deck opened), then the share saved.
      await page().waitFor(`${kind} saved`, () => {
        const state = document.querySelector(".export-panel")?.getAttribute("data-export");
        return state === "done" || state === "failed" || `export ${state}: ${(window as unknown as { __exportLines: string[] }).__exportLines.join(" → ")}`;
      }, [], 110_000);
      const state = await page().evaluate(() => [document.querySelector(".export-panel")!.getAttribute("data-export"), document.querySelector(".export-result")!.textContent]);
      expect(state[0], state[1] ?? "").toBe("done");
      expectSteps(await page().evaluate(exportLines), kind, false);
      const json = (await page().evaluate(savedFile, fileName("talk", kind)))!;
      const saved = JSON.parse(json) as { base64: string; result: Saved["result"] };
      const path = join(OUT, `${engine}-${kind}.webm`);
      writeFileSync(path, Buffer.from(saved.base64, "base64"));
      return { path, result: saved.result };
    }

    test("Save audio gives the Opus voice with one chapter per slide, and it plays here", async () => {
      const audio = await save("audio");
      expect(probe(audio.path).streams.map((s) => s.codec_name)).toEqual(["opus"]);
      expectChapters(audio.path, 6500);
      expect(loudness(audio.path).meanDb).toBeGreaterThan(-45);
      const played = JSON.parse(await page().evaluate(playInPage, { saved: fileName("talk", "audio") }, "audio", [4], null)) as Played;
      expect(played.duration).toBeCloseTo(6.5, 1);
      expect(played.played).toBeGreaterThan(0.2);
      // The panel, with what it saved, is as accessible as the rest of the library.
      expect(await seriousViolations(page())).toEqual([]);
    });

    test("Save video gives a file that plays, seeks and shows the right slide here — or says plainly why not", async () => {
      const codec = await page().evaluate(() => document.querySelector(".export-panel")!.getAttribute("data-video-codec"));
      if (codec === "none") {
        // No encoder: the button is off and the sentence under it says so; Save audio (above) worked.
        const note = await page().evaluate(() => [document.querySelector<HTMLButtonElement>("[data-export-kind='video']")!.disabled, document.querySelector("[data-export-note='video']")!.textContent]);
        expect(note).toEqual([true, "This browser cannot encode video (it has no VP9 or VP8 encoder), so Save video is not available here. Save audio works, and the recording plays in deckhand."]);
        await page().screenshot(join(OUT, `${engine}-no-video-encoder.png`));
        return;
      }
      const video = await save("video");
      const info = probe(video.path);
      expect(info.streams.map((s) => s.codec_type).sort()).toEqual(["audio", "video"]);
      expect(Number(info.format.duration)).toBeCloseTo(6.5, 1);
      expectChapters(video.path, 6500);
      expect(decodesCleanly(video.path)).toBe("");
      expectPictures(video.path, engine);
      await page().screenshot(join(OUT, `${engine}-library-saved.png`));
    });

    test("sound recorded as AAC: converted to Opus where this browser can decode it, else the export says it cannot", async () => {
      const aac = { base64: base64Of(speechAac(7)), mime: "audio/mp4" };
      expect(await page().evaluate(handRecording, onePiece(deckId, "aac", 6500, aac, talkEvents()))).toBe(true);
      await page().waitFor("the AAC recording's row", recordingRow, ["r-aac"], 20_000);
      const row = '.deck-recording[data-recording="r-aac"]';
      await page().evaluate(watchExportLines, row);
      await page().click(`${row} [data-export-kind='audio']`);
      // Firefox's export once stayed running for the whole wait: its worker hung starting a render
      // worker of its own (the page starts that worker now). A failure says how far it got, by the
      // panel's lines — each step before the file's first second, then the share saved.
      await page().waitFor("the AAC export to end", (sel: string) => {
        const state = document.querySelector(`${sel} .export-panel`)?.getAttribute("data-export");
        return state === "done" || state === "failed" || `export ${state}: ${(window as unknown as { __exportLines: string[] }).__exportLines.join(" → ")}`;
      }, [row], 110_000);
      const [state, code, text] = await page().evaluate((sel: string) => [document.querySelector(`${sel} .export-panel`)!.getAttribute("data-export"), document.querySelector(`${sel} .export-result`)!.getAttribute("data-code"), document.querySelector(`${sel} .export-result`)!.textContent], row);
      // WebKitGTK's WebCodecs has no AAC decoder (AudioDecoder.isConfigSupported("mp4a.40.2") is false).
      if (engine === "webkit") {
        expect([state, code]).toEqual(["failed", "AUDIO_NOT_CONVERTIBLE"]);
        expect(text).toBe("This recording's sound is AAC, and this browser cannot convert it to Opus, the sound of a WebM file. The recording still plays in deckhand.");
        await page().screenshot(join(OUT, `${engine}-aac-not-convertible.png`));
        return;
      }
      expect([state, text]).toEqual(["done", expect.stringContaining("converted to Opus")]);
      expectSteps(await page().evaluate(exportLines), "audio", true);
      const json = (await page().evaluate(savedFile, fileName("aac", "audio")))!;
      const path = join(OUT, `${engine}-aac-audio.webm`);
      writeFileSync(path, Buffer.from((JSON.parse(json) as { base64: string }).base64, "base64"));
      expect(probe(path).streams.map((s) => s.codec_name)).toEqual(["opus"]);
      expectChapters(path, 6500);
    });

    test("the exported video plays in this engine's <video>: its length, and the right slide after each seek", async () => {
      // The file Chromium exported above; without Chromium in this run, this engine's own export.
      const file = [join(OUT, "chromium-in-place-video.webm"), join(OUT, `${engine}-video.webm`)].find((f) => existsSync(f) && statSync(f).mtimeMs > started);
      if (!file) throw new Error("no video was exported in this run to play: run this file with chromium in DECKHAND_ENGINES");
      const source = { base64: base64Of(file) };
      // Points on a 192×108 thumbnail: the slide's corner (its colour) at 1 s, 2.2 s, 5.5 s.
      const played = JSON.parse(await page().evaluate(playInPage, source, "video", [1, 2.2, 5.5], { x: 150, y: 20 })) as Played;
      expect(played.duration).toBeCloseTo(6.5, 1);
      expect([played.width, played.height]).toEqual([1920, 1080]);
      expect(played.played).toBeGreaterThan(0.2);
      const colours = played.seeks.map((s) => s.colour);
      // The picture after each seek is the slide of that moment (the slides' colours are 100 or more
      // apart). Within 24 levels: Firefox draws Chromium's full-range VP9 (colour_range=pc, what
      // Chromium's encoder makes of a canvas) at video levels, 242 → 255 and 217 → 229.
      SLIDES.forEach((slide, i) => {
        for (let k = 0; k < 3; k++) expect(Math.abs(colours[i]![k]! - slide.colour[k]!), JSON.stringify(colours)).toBeLessThan(24);
      });
    });
  });
}
