/**
 * @module store/checkpoint-worker
 * The thread behind store/checkpointer: its own connection to the server's SQLite database,
 * checkpointing the write-ahead log on request. A checkpoint writes pages back and fsyncs the
 * log and the database; here that waits on the disk instead of the event loop.
 *
 * Started by src/binary/threads.ts (the compiled binary carries it as an entrypoint of its own).
 */
import { Database } from "bun:sqlite";
import { closeSync, openSync, readSync } from "node:fs";
import { endianness } from "node:os";
import type { CheckpointReply, CheckpointRequest } from "./checkpointer.ts";

declare const self: Worker;

let db: Database | null = null;

/**
 * The write-ahead log's frames, and how many of them are copied back, read from the wal-index
 * (`-shm`) the way sqlite.org/walformat.html lays it out: the header's mxFrame at byte 16, the
 * checkpoint info's nBackfill at byte 96, both in the machine's byte order. (The log file's
 * size says nothing once the log has started over: the file is reused, not shrunk.) Zeros
 * without a log.
 */
function logFrames(path: string): { frames: number; backfilled: number } {
  let fd = -1;
  try {
    fd = openSync(`${path}-shm`, "r");
    const header = new Uint8Array(100);
    if (readSync(fd, header, 0, 100, 0) < 100) return { frames: 0, backfilled: 0 };
    const view = new DataView(header.buffer);
    const little = endianness() === "LE";
    return { frames: view.getUint32(16, little), backfilled: view.getUint32(96, little) };
  } catch {
    return { frames: 0, backfilled: 0 };
  } finally {
    if (fd !== -1) closeSync(fd);
  }
}

/**
 * Whether a log of `minFrames` or more has frames left to copy back. Not "1,000 frames left":
 * a write that lands while a checkpoint runs leaves a few frames behind it, and the log only
 * starts over once a checkpoint has copied every frame. Counting only what is left, a few
 * frames would wait for 1,000 more while the log file grew under steady writes.
 */
function worthCheckpointing(path: string, minFrames: number): boolean {
  if (minFrames === 0) return true;
  const { frames, backfilled } = logFrames(path);
  return frames >= minFrames && backfilled < frames;
}

self.onmessage = (event: MessageEvent<CheckpointRequest>) => {
  const request = event.data;
  let reply: CheckpointReply;
  try {
    if (request.op === "close") {
      db?.close();
      db = null;
      reply = { ok: true, log: 0, checkpointed: 0, busy: false };
    } else {
      if (!db) {
        db = new Database(request.path, { readwrite: true, create: false, strict: true });
        // The server's connection may hold the write lock a moment; a checkpoint then waits.
        db.run("PRAGMA busy_timeout = 1000");
      }
      if (!worthCheckpointing(request.path, request.minFrames)) {
        reply = { ok: true, busy: false, log: 0, checkpointed: 0 };
      } else {
        // PASSIVE: copy what no reader still needs, never blocking the server's writes.
        const row = db.query("PRAGMA wal_checkpoint(PASSIVE)").get() as { busy: number; log: number; checkpointed: number };
        reply = { ok: true, busy: row.busy !== 0, log: row.log, checkpointed: row.checkpointed };
      }
    }
  } catch (error) {
    reply = { ok: false, error: (error as Error).message };
  }
  self.postMessage(reply);
};
