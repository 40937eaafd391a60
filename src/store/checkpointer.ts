/**
 * @module store/checkpointer
 * Checkpoint the SQLite write-ahead log off the event loop.
 *
 * In WAL mode with `synchronous = NORMAL` a commit does not fsync, but the automatic checkpoint
 * does: every 1,000 pages of log the committing connection writes the pages back and fsyncs
 * the log and the database. For the server that connection is the event loop's: under 32
 * concurrent uploads strace showed it fsync twice every ~300 uploads, 4–5 ms each, with every
 * request waiting. So the server's connection checkpoints on its own only as a backstop
 * (BACKSTOP_PAGES, reached only if this thread falls behind), and a thread with its own
 * connection checkpoints once the log has grown to SQLite's usual 1,000 pages (looked at
 * every CHECKPOINT_EVERY_MS after writes), and again at the next look while writes that landed
 * during a checkpoint are left: the log starts over only after a checkpoint that copied it all.
 *
 * What stays on the server's connection: after a complete checkpoint its next commit starts
 * the log over and fsyncs the log's new header (SQLite does that for every connection that is
 * not `synchronous = OFF`) — one short fsync per 1,000 pages instead of two long ones and the
 * pages' write-back.
 */
import type { Database } from "bun:sqlite";
import { startThread } from "../binary/threads.ts";

/** How often the log's size is looked at, when this connection wrote since the last time. */
const CHECKPOINT_EVERY_MS = 1_000;
/**
 * A log of this many frames or more is checkpointed while any of them is not yet copied back
 * (SQLite's own default size).
 */
const CHECKPOINT_AT_FRAMES = 1_000;
/** The server connection's own auto-checkpoint, in pages of 4 KiB (40 MB of log). */
export const BACKSTOP_PAGES = 10_000;

export type CheckpointRequest = { op: "checkpoint"; path: string; minFrames: number } | { op: "close" };
export type CheckpointReply = { ok: true; busy: boolean; log: number; checkpointed: number } | { ok: false; error: string };

/** What a checkpoint did: frames in the log, frames copied back (all of them unless a reader held some). */
export interface CheckpointResult {
  log: number;
  checkpointed: number;
}

export class WalCheckpointer {
  private worker: Worker | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<CheckpointResult> | null = null;
  private lastChanges = -1;
  private stopped = false;

  /**
   * `db` is the server's connection (its auto-checkpoint is set to the backstop here; the
   * thread opens its file). `onError` hears of a failed checkpoint (the backstop still bounds
   * the log).
   */
  constructor(
    private readonly db: Database,
    private readonly onError: (message: string) => void = () => {},
  ) {
    db.run(`PRAGMA wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  }

  /** Look at the log every `everyMs` while the server's connection writes; checkpoint it once large. */
  start(everyMs = CHECKPOINT_EVERY_MS): this {
    this.timer = setInterval(() => {
      // total_changes() is this connection's count: no I/O, so cheap on the event loop.
      const changes = (this.db.query("SELECT total_changes() AS n").get() as { n: number }).n;
      if (changes === this.lastChanges || this.running) return;
      this.lastChanges = changes;
      this.run(CHECKPOINT_AT_FRAMES).catch((error: Error) => this.onError(error.message));
    }, everyMs);
    this.timer.unref();
    return this;
  }

  /** Checkpoint now, on the thread, whatever the log's size. */
  checkpoint(): Promise<CheckpointResult> {
    return this.run(0);
  }

  /** One checkpoint at a time: a call while one runs shares it. */
  private run(minFrames: number): Promise<CheckpointResult> {
    if (this.stopped) return Promise.reject(new Error("the checkpointer is stopped"));
    this.running ??= this.ask({ op: "checkpoint", path: this.db.filename, minFrames }).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Stop checkpointing and close the thread's connection (before the server's own closes). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => {});
    if (!this.worker) return;
    await this.ask({ op: "close" }).catch(() => {});
    await this.worker.terminate();
    this.worker = null;
  }

  private ask(request: CheckpointRequest): Promise<CheckpointResult> {
    const worker = (this.worker ??= this.startWorker());
    return new Promise((resolve, reject) => {
      const done = (event: MessageEvent<CheckpointReply>) => {
        worker.removeEventListener("message", done);
        worker.removeEventListener("error", failed);
        const reply = event.data;
        if (reply.ok) resolve({ log: reply.log, checkpointed: reply.checkpointed });
        else reject(new Error(`WAL checkpoint failed: ${reply.error}`));
      };
      const failed = (event: ErrorEvent) => {
        worker.removeEventListener("message", done);
        worker.removeEventListener("error", failed);
        // A dead thread is replaced by the next checkpoint.
        if (this.worker === worker) this.worker = null;
        reject(new Error(`the WAL checkpoint thread failed: ${event.message}`));
      };
      worker.addEventListener("message", done);
      worker.addEventListener("error", failed);
      worker.postMessage(request);
    });
  }

  private startWorker(): Worker {
    return startThread("store/checkpoint-worker.ts");
  }
}
