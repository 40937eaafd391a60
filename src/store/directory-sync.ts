/**
 * @module store/directory-sync
 * fsync of one directory, shared by concurrent callers. A rename is durable once its directory
 * is synced; a sync covers every rename made before it started, so callers that arrive while
 * one runs all wait for the next one, and one fsync serves them all (32 concurrent commits
 * made 32 fsyncs; now a few). The directory stays open: opening and closing it for each sync
 * cost two more trips to the I/O threads per upload.
 */
import { close, fsync, open } from "node:fs";

type Done<T = void> = (error: Error | null, value?: T) => void;

/** The file system calls a DirectorySync makes (node:fs's; tests count and delay them). */
export interface DirectoryCalls {
  open(path: string, done: Done<number>): void;
  fsync(fd: number, done: Done): void;
  close(fd: number, done: Done): void;
}

export const NODE_CALLS: DirectoryCalls = {
  open: (path, done) => open(path, "r", done),
  fsync: (fd, done) => fsync(fd, done),
  close: (fd, done) => close(fd, done),
};

const call = <T>(start: (done: Done<T>) => void) => new Promise<T>((resolve, reject) => start((error, value) => (error ? reject(error) : resolve(value as T))));

export class DirectorySync {
  /** The open directory (a plain descriptor: close() is explicit, never left to a collection). */
  private fd: Promise<number> | null = null;
  /** The sync in flight, if any. */
  private running: Promise<void> | null = null;
  /** The sync that starts once `running` ends, shared by everyone who asked meanwhile. */
  private queued: Promise<void> | null = null;

  constructor(
    readonly path: string,
    private readonly fs: DirectoryCalls = NODE_CALLS,
  ) {}

  /** Resolves once a sync of the directory that began after this call has completed. */
  sync(): Promise<void> {
    if (!this.running) return this.start();
    // The running sync may have begun before the caller's rename: wait for the next one.
    this.queued ??= this.running.then(
      () => this.startQueued(),
      () => this.startQueued(),
    );
    return this.queued;
  }

  /** Close the directory once no sync is using it (idempotent); a later sync opens it again. */
  async close(): Promise<void> {
    await Promise.allSettled([this.running, this.queued]);
    await this.drop();
  }

  /** Close the descriptor now: only when no sync is running on it. */
  private async drop(): Promise<void> {
    const opened = this.fd;
    this.fd = null;
    const fd = await opened?.catch(() => null);
    if (fd != null) await call((done) => this.fs.close(fd, done)).catch(() => {});
  }

  private startQueued(): Promise<void> {
    this.queued = null;
    return this.start();
  }

  private start(): Promise<void> {
    const run = (async () => {
      try {
        const fd = await (this.fd ??= call<number>((done) => this.fs.open(this.path, done)));
        await call((done) => this.fs.fsync(fd, done));
      } catch (error) {
        // A failed open or sync is not kept (syncs run one at a time: none else uses the
        // descriptor): the next caller tries afresh.
        await this.drop();
        throw error;
      }
    })();
    this.running = run;
    void run.then(
      () => this.settle(run),
      () => this.settle(run),
    );
    return run;
  }

  private settle(run: Promise<void>): void {
    if (this.running === run) this.running = null;
  }
}
