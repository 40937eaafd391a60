import { Database } from "bun:sqlite";
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BACKSTOP_PAGES, WalCheckpointer } from "../../src/store/checkpointer.ts";
import { openDatabase } from "../../src/store/db.ts";
import { THREAD_MODULES } from "../../src/binary/threads.ts";
import { waitFor } from "../helpers/wait.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (2.5 s).
setDefaultTimeout(30_000);

const dir = mkdtempSync(join(tmpdir(), "deckhand-wal-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MiB = 1024 * 1024;
const walSize = (path: string) => (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);

/**
 * A fresh database as the server opens it, with a filler table: `rows(n)` commits n rows of
 * ≈ 2 pages each; `restarts()` reads the log header's checkpoint sequence, which counts the
 * times a commit started the log over; `pokeUntilRestart(from)` commits a row every 20 ms
 * until the log starts over after `from` (a commit after a complete checkpoint does), failing
 * after 10 s.
 */
function fillerDatabase(name: string) {
  const path = join(dir, name);
  const db = openDatabase(path);
  db.run("CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  const insert = db.prepare("INSERT INTO filler (body) VALUES (?)");
  const restarts = () => new DataView(readFileSync(`${path}-wal`).buffer).getUint32(12);
  return {
    path,
    db,
    restarts,
    rows(n: number) {
      for (let i = 0; i < n; i++) insert.run("x".repeat(2_000));
    },
    poke() {
      insert.run("poke");
    },
    async pokeUntilRestart(from: number) {
      // Each poke is a commit: the first after a complete checkpoint starts the log over.
      await waitFor(() => (insert.run("poke"), restarts() !== from), "a commit to start the log over", 10_000, 20);
    },
    close() {
      insert.finalize();
      db.close();
    },
  };
}

/**
 * The checkpoints `checkpointer` asks its thread for: `next()` resolves once one asked after the
 * call has answered. Its timer asks once after each batch of writes it sees, and the thread
 * checkpoints only a log past 1,000 frames; a look that checkpoints nothing leaves no other
 * trace, so this wraps the private method the timer calls.
 */
function checkpointRequests(checkpointer: WalCheckpointer): { next(): Promise<void> } {
  const asked: Promise<unknown>[] = [];
  const inner = checkpointer as unknown as { run(minFrames: number): Promise<unknown> };
  const run = inner.run.bind(checkpointer);
  inner.run = (minFrames) => {
    const answer = run(minFrames);
    asked.push(answer);
    return answer;
  };
  return {
    async next() {
      const seen = asked.length;
      await waitFor(() => asked.length > seen, "the checkpointer's next look at the log");
      await asked.at(-1);
    },
  };
}

describe("the WAL is checkpointed on a thread, not by the server's connection", () => {
  test("the server's connection checkpoints itself only past the backstop: its log grows past SQLite's usual 4 MB", async () => {
    const { db, path, rows, close } = fillerDatabase("backstop.db");
    const checkpointer = new WalCheckpointer(db);
    expect((db.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint).toBe(BACKSTOP_PAGES);
    rows(2_500);
    // ≈ 5,000 frames of 4 KiB and more: no checkpoint ran on this connection at 1,000 pages.
    expect(walSize(path)).toBeGreaterThan(8 * MiB);
    await checkpointer.stop();
    close();
  });

  test("checkpoints on the thread copy every frame back, and keep the log small", async () => {
    const { db, path, rows, close } = fillerDatabase("thread.db");
    const checkpointer = new WalCheckpointer(db);
    const results: Array<{ log: number; checkpointed: number }> = [];
    for (let i = 0; i < 10; i++) {
      rows(250);
      results.push(await checkpointer.checkpoint());
    }
    for (const result of results) {
      expect(result.log).toBeGreaterThan(0);
      // Nothing else reads this database: every frame was copied back.
      expect(result.checkpointed).toBe(result.log);
    }
    // The log restarts after each complete checkpoint: it never held much more than 250 rows.
    expect(walSize(path)).toBeLessThan(4 * MiB);
    expect((db.query("SELECT count(*) AS n FROM filler").get() as { n: number }).n).toBe(2_500);
    await checkpointer.stop();
    close();
    // The thread's connection was closed first: the server's, the last one, removed the log.
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  test("started, it checkpoints a log past 1,000 pages by itself, and a smaller one not", async () => {
    const { db, restarts, rows, poke, pokeUntilRestart, close } = fillerDatabase("timer.db");
    const checkpointer = new WalCheckpointer(db).start(20);
    const requests = checkpointRequests(checkpointer);
    rows(100); // ≈ 200 pages
    const before = restarts();
    await requests.next();
    poke();
    const small = restarts();
    // The look at a log of ≈ 200 pages did not checkpoint it.
    expect(small).toBe(before);
    rows(700); // now ≈ 1,600 pages
    await pokeUntilRestart(small);
    expect(restarts()).toBeGreaterThan(small);
    // The log file keeps its size when the log starts over: what counts is the frames in it.
    // ≈ 200 pages after the restart are not checkpointed.
    const after = restarts();
    rows(100);
    await requests.next();
    poke();
    expect(restarts()).toBe(after);
    await checkpointer.stop();
    close();
  });

  test("a checkpoint a reader kept from copying every frame is finished at the next look, and the log starts over", async () => {
    const { db, path, restarts, rows, pokeUntilRestart, close } = fillerDatabase("unfinished.db");
    const checkpointer = new WalCheckpointer(db);
    rows(600); // ≈ 1,200 pages
    // A reader's snapshot: the frames written after it stay in the log while she reads. (The
    // same happens when the server's connection writes while the thread checkpoints.)
    const reader = new Database(path, { readonly: true });
    reader.run("BEGIN");
    reader.query("SELECT count(*) AS n FROM filler").get();
    rows(5);
    const partial = await checkpointer.checkpoint();
    expect(partial.log).toBeGreaterThan(1_000);
    expect(partial.checkpointed).toBeLessThan(partial.log);
    reader.run("COMMIT");
    reader.close();
    const before = restarts();
    // A handful of frames is left, far fewer than 1,000: the next look copies them anyway.
    checkpointer.start(20);
    await pokeUntilRestart(before);
    expect(restarts()).toBeGreaterThan(before);
    await checkpointer.stop();
    close();
  });

  test("a stopped checkpointer refuses further checkpoints, and stopping twice is harmless", async () => {
    const path = join(dir, "stopped.db");
    const db = openDatabase(path);
    const checkpointer = new WalCheckpointer(db);
    await checkpointer.stop();
    await checkpointer.stop();
    await expect(checkpointer.checkpoint()).rejects.toThrow("the checkpointer is stopped");
    db.close();
  });

  test("every thread module exists where src/binary/threads.ts will look for it", () => {
    for (const module of THREAD_MODULES) expect(existsSync(join(import.meta.dir, "..", "..", "src", module))).toBe(true);
  });
});
