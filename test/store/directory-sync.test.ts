import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DirectoryCalls, DirectorySync, NODE_CALLS } from "../../src/store/directory-sync.ts";
import { settled, waitFor } from "../helpers/wait.ts";

// Its real path: the kernel names a descriptor by it (/proc/self/fd).
const dir = realpathSync(mkdtempSync(join(tmpdir(), "deckhand-dirsync-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * File system calls that record what happens and hold each fsync until the test lets it finish
 * (`finish()`), or fail it (`finish(error)`). The others answer in a microtask, so once the
 * test has let the event loop turn (`settled()`) everything they set off has happened.
 */
function heldCalls() {
  const log: string[] = [];
  const pending: Array<(error: Error | null) => void> = [];
  let nextFd = 100;
  const calls: DirectoryCalls = {
    open: (_path, done) => {
      const fd = nextFd++;
      log.push(`open ${fd}`);
      queueMicrotask(() => done(null, fd));
    },
    fsync: (fd, done) => {
      log.push(`fsync ${fd}`);
      pending.push((error) => done(error));
    },
    close: (fd, done) => {
      log.push(`close ${fd}`);
      queueMicrotask(() => done(null));
    },
  };
  /** Let the oldest held fsync end (once one is held); wait until its callers have been told. */
  const finish = async (error: Error | null = null) => {
    await waitFor(() => pending.length > 0, "an fsync to be held");
    pending.shift()!(error);
    await settled();
  };
  return { calls, log, finish, held: () => pending.length };
}

/** This process's descriptors open on `path`, read from /proc/self/fd (Linux). */
function descriptorsOn(path: string): number[] {
  return readdirSync("/proc/self/fd")
    .filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === path;
      } catch {
        return false; // the descriptor readdir itself used, closed by now
      }
    })
    .map(Number);
}

/**
 * node:fs's own calls (what a DirectorySync makes by default), each recorded with the path its
 * descriptor is open on at that moment, as the kernel says, and with what it answered.
 */
function recordedNodeCalls() {
  const log: string[] = [];
  const on = (fd: number) => readlinkSync(`/proc/self/fd/${fd}`);
  const calls: DirectoryCalls = {
    open: (path, done) => NODE_CALLS.open(path, (error, fd) => {
      log.push(error ? `open failed: ${error.message}` : `open ${on(fd!)}`);
      done(error, fd);
    }),
    fsync: (fd, done) => {
      const path = on(fd);
      NODE_CALLS.fsync(fd, (error) => {
        log.push(error ? `fsync failed: ${error.message}` : `fsync ${path}`);
        done(error);
      });
    },
    close: (fd, done) => {
      const path = on(fd);
      NODE_CALLS.close(fd, (error) => {
        log.push(error ? `close failed: ${error.message}` : `close ${path}`);
        done(error);
      });
    },
  };
  return { calls, log };
}

describe("DirectorySync", () => {
  test("on the real file system: the directory is opened once and kept open, fsynced once per round of callers, closed by close(), opened again by a later sync", async () => {
    expect(descriptorsOn(dir)).toEqual([]);
    // The default calls: the directory is open, by one descriptor, between syncs, and no longer after close().
    const plain = new DirectorySync(dir);
    await plain.sync();
    expect(descriptorsOn(dir)).toHaveLength(1);
    await plain.close();
    expect(descriptorsOn(dir)).toEqual([]);

    // The same calls, recorded: each fsync went to the kernel on a descriptor of this directory, and succeeded.
    const { calls, log } = recordedNodeCalls();
    const sync = new DirectorySync(dir, calls);
    await sync.sync();
    expect(log).toEqual([`open ${dir}`, `fsync ${dir}`]);
    // Three callers at once: the first starts a sync, the two that arrive while it runs share the next.
    await Promise.all([sync.sync(), sync.sync(), sync.sync()]);
    expect(log.slice(2)).toEqual([`fsync ${dir}`, `fsync ${dir}`]);
    const [fd] = descriptorsOn(dir);
    expect(descriptorsOn(dir)).toEqual([fd!]);
    await sync.close();
    expect(log.at(-1)).toBe(`close ${dir}`);
    expect(descriptorsOn(dir)).toEqual([]);
    await sync.sync();
    expect(log.slice(-2)).toEqual([`open ${dir}`, `fsync ${dir}`]);
    expect(descriptorsOn(dir)).toHaveLength(1);
    await sync.close();
    expect(descriptorsOn(dir)).toEqual([]);
  });

  test("callers arriving while a sync runs share the next one, which starts after it: 11 callers, 2 fsyncs", async () => {
    const { calls, log, finish, held } = heldCalls();
    const sync = new DirectorySync(dir, calls);
    const done: string[] = [];
    const first = sync.sync().then(() => done.push("first"));
    await waitFor(() => held() === 1, "the first fsync to begin");
    // These may have renamed after the first fsync began: it must not count for them.
    const later = Array.from({ length: 10 }, (_, i) => sync.sync().then(() => done.push(`later ${i}`)));
    await settled();
    expect(log).toEqual(["open 100", "fsync 100"]);
    await finish();
    await first;
    expect(done).toEqual(["first"]);
    // The next one began only once the first ended, and serves all ten.
    expect(log).toEqual(["open 100", "fsync 100", "fsync 100"]);
    await finish();
    await Promise.all(later);
    expect(done).toHaveLength(11);
    expect(log.filter((entry) => entry.startsWith("fsync"))).toHaveLength(2);
    // The directory stays open between syncs.
    await Promise.all([sync.sync(), finish()]);
    expect(log.filter((entry) => entry.startsWith("open"))).toHaveLength(1);
    await sync.close();
    expect(log.at(-1)).toBe("close 100");
  });

  test("a failed fsync fails its callers and closes the directory; the next call opens it again", async () => {
    const { calls, log, finish } = heldCalls();
    const sync = new DirectorySync(dir, calls);
    const failing = sync.sync();
    await finish(Object.assign(new Error("I/O error"), { code: "EIO" }));
    await expect(failing).rejects.toMatchObject({ code: "EIO" });
    expect(log).toEqual(["open 100", "fsync 100", "close 100"]);
    const next = sync.sync();
    await finish();
    await next;
    expect(log.slice(3)).toEqual(["open 101", "fsync 101"]);
    await sync.close();
  });

  test("close() waits for the sync in flight before it closes the directory", async () => {
    const { calls, log, finish, held } = heldCalls();
    const sync = new DirectorySync(dir, calls);
    const running = sync.sync();
    await waitFor(() => held() === 1, "the fsync to begin");
    const closing = sync.close();
    await settled();
    expect(held()).toBe(1);
    expect(log).not.toContain("close 100");
    await finish();
    await running;
    await closing;
    expect(log).toEqual(["open 100", "fsync 100", "close 100"]);
  });
});
