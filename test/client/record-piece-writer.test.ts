/**
 * Writing a recording as it comes (client/record/piece-writer): pieces go to storage one after
 * the other, in order, each with the sound and events gathered since the one before; what is
 * not on disk at any moment — what a crash, a reload or a closed tab would take — is at most
 * about two seconds (one capture slice and one write); a refusal stops the writing once, keeps
 * what was written and drops nothing silently.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { PieceWriter, type PieceSink } from "../../client/src/record/piece-writer.ts";
import { StorageError } from "../../client/src/storage/storage-error.ts";
import type { RecordingPiece } from "../../client/src/storage/schema.ts";
import { NO_OVERLAYS } from "../../client/src/presenter/state.ts";
import type { TimelineEvent } from "../../client/src/record/timeline.ts";

const event = (t: number): TimelineEvent => ({ t, m: { type: "overlay", overlays: NO_OVERLAYS, at: t } });
const start = { recordingId: "r", segment: 0, seq: 0, startMs: 0 };
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A sink that keeps what it is given, after `delay` of the test's own time. */
function memorySink() {
  const written: RecordingPiece[] = [];
  const pending: { due: number; piece: RecordingPiece; resolve: (ok: boolean) => void }[] = [];
  let now = 0;
  let delay = 0;
  let concurrent = 0;
  let maxConcurrent = 0;
  const sink: PieceSink = {
    putPiece: (piece) =>
      new Promise<boolean>((resolve) => {
        concurrent++;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        pending.push({ due: now + delay, piece, resolve });
      }),
  };
  return {
    sink,
    written,
    setDelay: (ms: number) => (delay = ms),
    maxConcurrent: () => maxConcurrent,
    /** Move the test's time on; writes that are due complete. */
    async advance(to: number) {
      now = to;
      for (;;) {
        const i = pending.findIndex((p) => p.due <= now);
        if (i < 0) break;
        const [done] = pending.splice(i, 1);
        written.push(done!.piece);
        concurrent--;
        done!.resolve(true);
        await settle();
      }
    },
  };
}

describe("PieceWriter", () => {
  test("each flush writes one piece with what was gathered since the last, in order, one write at a time", async () => {
    const mem = memorySink();
    mem.setDelay(50);
    const writer = new PieceWriter(mem.sink, start, () => {});
    writer.event(event(10));
    writer.sound(new Blob([new Uint8Array(5)], { type: "audio/webm" }));
    void writer.flush(1000);
    writer.event(event(1200));
    void writer.flush(2000);
    void writer.flush(2000); // nothing new: no piece
    await mem.advance(10);
    expect(mem.written).toEqual([]);
    await mem.advance(60);
    await mem.advance(200);
    await writer.settled();
    expect(mem.written.map((p) => [p.seq, p.startMs, p.endMs, p.events.map((e) => e.t), p.audio?.size ?? 0])).toEqual([
      [0, 0, 1000, [10], 5],
      [1, 1000, 2000, [1200], 0],
    ]);
    expect(mem.written[0]!.audio!.type).toBe("audio/webm");
    expect(mem.maxConcurrent()).toBe(1);
    expect(writer.keptMs).toBe(2000);
  });

  test("a continued recording's pieces go on from the number and the time given", async () => {
    const mem = memorySink();
    const writer = new PieceWriter(mem.sink, { recordingId: "r", segment: 1, seq: 17, startMs: 42_000 }, () => {});
    void writer.flush(43_000);
    await settle();
    await mem.advance(0);
    await writer.settled();
    expect(mem.written.map((p) => [p.segment, p.seq, p.startMs, p.endMs])).toEqual([[1, 17, 42_000, 43_000]]);
  });

  test("at any moment at most about two seconds are not on disk (a slice a second, writes up to 0.9 s each)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 900 }), fc.integer({ min: 3_000, max: 20_000 }), async (latency, crashAt) => {
        const mem = memorySink();
        mem.setDelay(latency);
        const writer = new PieceWriter(mem.sink, start, () => {});
        let worst = 0;
        for (let t = 10; t <= crashAt; t += 10) {
          await mem.advance(t);
          // The capture hands over a slice every second; the recorder writes it at once.
          if (t % 1000 === 0) {
            writer.sound(new Blob([new Uint8Array(10)]));
            void writer.flush(t);
          }
          if (t % 160 === 0) writer.event(event(t));
          worst = Math.max(worst, t - writer.keptMs);
        }
        // A crash now keeps what storage confirmed: everything up to keptMs.
        expect(worst).toBeLessThanOrEqual(2000);
        const kept = mem.written.filter((p) => p.endMs <= writer.keptMs);
        expect(kept.flatMap((p) => p.events).length).toBeGreaterThan(0);
      }),
      { numRuns: 25 },
    );
  });

  test("a refusal stops the writing once: it is told, later pieces are dropped, earlier ones stay", async () => {
    const written: number[] = [];
    let refuse = false;
    const sink: PieceSink = {
      putPiece: async (piece) => {
        if (refuse) throw new DOMException("Quota exceeded", "QuotaExceededError");
        written.push(piece.seq);
        return true;
      },
    };
    const failures: unknown[] = [];
    const writer = new PieceWriter(sink, start, (f) => failures.push(f));
    await writer.flush(1000);
    refuse = true;
    await writer.flush(2000);
    await writer.flush(3000);
    writer.event(event(3100));
    await writer.flush(4000);
    expect(written).toEqual([0]);
    expect(failures.length).toBe(1);
    const failure = failures[0] as { kind: string; error: StorageError };
    expect(failure.kind).toBe("refused");
    expect(failure.error).toBeInstanceOf(StorageError);
    expect(writer.failed).toBe(failure as never);
    expect(writer.keptMs).toBe(1000);
  });

  test("a recording deleted meanwhile stops the writing as gone", async () => {
    const failures: { kind: string }[] = [];
    const writer = new PieceWriter({ putPiece: async () => false }, start, (f) => failures.push(f));
    await writer.flush(1000);
    await writer.flush(2000);
    expect(failures).toEqual([{ kind: "gone" }]);
  });

  test("a StorageError from the store keeps its kind", async () => {
    const failures: { kind: string; error?: StorageError }[] = [];
    const writer = new PieceWriter({ putPiece: async () => Promise.reject(new StorageError("unavailable", "refused")) }, start, (f) => failures.push(f as never));
    await writer.flush(1000);
    expect(failures[0]!.error!.kind).toBe("unavailable");
  });
});
