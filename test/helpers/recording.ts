/**
 * Steps the recording suites share, in any engine: start a recording from the presenter's
 * Record panel (the default microphone, or none), stop it from the REC indicator (clicks with
 * the real mouse — ./stage.ts `tap` — as the presenter may be behind the audience window), and read
 * what IndexedDB holds of the recordings — the records and their pieces (sound bytes, events
 * expanded as the app's store reads them is not needed: events are counted by type here) —
 * the way any page script could.
 */
import type { EnginePage } from "./engine.ts";
import { tap } from "./stage.ts";

/** A recording's record and a summary of its pieces, as stored. */
export interface StoredRecording {
  id: string;
  deckId: string;
  kind: string;
  state: string;
  durationMs: number;
  bytes: number;
  segments: number;
  audio: { mimeType: string } | null;
  pieces: { seq: number; segment: number; startMs: number; endMs: number; audioBytes: number; events: { t: number; type: string; page?: number; ink?: number }[] }[];
}

/** Every recording this browser keeps, oldest first, with its pieces summarised. */
export function storedRecordings(page: EnginePage): Promise<StoredRecording[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open("deckhand");
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const all = <T,>(store: string) =>
      new Promise<T[]>((resolve, reject) => {
        const req = db.transaction(store).objectStore(store).getAll();
        req.onsuccess = () => resolve(req.result as T[]);
        req.onerror = () => reject(req.error);
      });
    type Piece = { recordingId: string; seq: number; segment: number; startMs: number; endMs: number; audio?: ArrayBuffer; events: { t: number; m?: { type: string; state?: { page: number; ink: unknown[] } }; grown?: unknown }[] };
    const records = await all<Omit<StoredRecording, "pieces"> & { createdAt: number }>("recordings");
    const pieces = await all<Piece>("recordingPieces");
    db.close();
    return records
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((r) => ({
        ...r,
        pieces: pieces
          .filter((p) => p.recordingId === r.id)
          .sort((a, b) => a.seq - b.seq)
          .map((p) => ({
            seq: p.seq,
            segment: p.segment,
            startMs: p.startMs,
            endMs: p.endMs,
            audioBytes: p.audio?.byteLength ?? 0,
            // A compacted pen sample (the stroke grew) is an overlay event too.
            events: p.events.map((e) => ({ t: e.t, type: e.m?.type ?? "overlay", ...(e.m?.type === "state" ? { page: e.m.state!.page, ink: e.m.state!.ink.length } : {}) })),
          })),
      }));
  });
}

/** Open the Record panel (unless open), choose the sound (`""` the default microphone, "none" no sound), and start. */
export async function startRecording(presenter: EnginePage, sound: "" | "none" = ""): Promise<void> {
  if (await presenter.evaluate(() => document.querySelector("#record-panel")!.hasAttribute("hidden"))) await tap(presenter, "#btn-record");
  await presenter.waitFor("the Record panel", () => !document.querySelector("#record-panel")!.hasAttribute("hidden") && !!document.querySelector("#record-start"));
  await presenter.evaluate((value: string) => {
    const select = document.querySelector<HTMLSelectElement>("#record-sound")!;
    select.value = value;
    select.dispatchEvent(new Event("change"));
  }, sound);
  await tap(presenter, "#record-start");
  await presenter.waitFor("recording", () => document.body.dataset.recording === "recording" || `${document.body.dataset.recording}: ${document.querySelector("#record-message")?.textContent ?? document.querySelector("#record-body")?.textContent ?? ""}`, [], 20_000);
}

/** The recorded time the REC indicator shows now (ms, as of its last draw). */
export function recordedMs(presenter: EnginePage): Promise<number> {
  return presenter.evaluate(() => Number(document.querySelector<HTMLElement>("#rec-elapsed")!.dataset.ms ?? 0));
}

/** Stop from the REC indicator and wait until the recorder is idle (everything written). */
export async function stopRecording(presenter: EnginePage): Promise<void> {
  await tap(presenter, "#rec-stop");
  await presenter.waitFor("the recording stopped", () => document.body.dataset.recording === "idle", [], 20_000);
}
