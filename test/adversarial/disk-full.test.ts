/**
 * A 100 % full disk, for real: the data directory lives on a small tmpfs (mounted by the test;
 * CI runs as root, as apt-get needs) that a filler file fills to the last byte. Every answer
 * must be the documented 507 STORAGE_FULL, nothing may be left half-written, and the sweeper
 * must still delete expired decks — which is what frees the space.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statfsSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeDeck } from "../fixtures/pdfs.ts";
import { makeTestApp, problemOf, type TestApp } from "../helpers/app.ts";
import { type BinaryServer, scratch } from "../helpers/server.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (5.4 s).
setDefaultTimeout(60_000);

const mountPoint = mkdtempSync(join(tmpdir(), "deckhand-tmpfs-"));

function run(cmd: string[]): void {
  const result = Bun.spawnSync(cmd, { stderr: "pipe" });
  if (result.exitCode !== 0) {
    throw new Error(`${cmd.join(" ")} failed (${result.stderr.toString().trim()}). The disk-full tests mount a tmpfs and need root, as in CI (.ci/run).`);
  }
}

beforeAll(() => {
  run(["mount", "-t", "tmpfs", "-o", "size=8m,mode=0700", "tmpfs", mountPoint]);
});
afterAll(() => {
  Bun.spawnSync(["umount", "-l", mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Fill the file system to its last byte; returns a function that frees it again. */
function fill(dir: string): () => void {
  const path = join(dir, "filler");
  const fd = openSync(path, "w");
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOSPC") throw error;
  }
  // The last partial block, byte by byte.
  const one = Buffer.alloc(1);
  try {
    for (;;) writeSync(fd, one);
  } catch {
    // full
  }
  closeSync(fd);
  return () => rmSync(path, { force: true });
}

function freeBytes(dir: string): number {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
}

describe("a full disk, through the compiled binary", () => {
  const space = scratch();
  let server: BinaryServer;
  let dataDir: string;
  afterAll(() => space.cleanup());

  beforeAll(async () => {
    dataDir = join(mountPoint, "binary");
    mkdirSync(dataDir);
    server = await space.start({ dataDir, args: ["--rate-limit", "0"] });
  });

  test("present, check and complete answer 507 STORAGE_FULL, and nothing half-written stays", async () => {
    const deck = await makeDeck({ pages: 2 });
    const form = () => {
      const body = new FormData();
      body.append("file", new Blob([deck as BlobPart], { type: "application/pdf" }), "talk.pdf");
      return body;
    };
    const staged = (await (await fetch(`${server.url}/api/present`, { method: "POST", body: form() })).json()) as { id: string; url: string };
    const token = new URL(staged.url).hash.slice(3);
    const free = fill(dataDir);
    try {
      expect(freeBytes(dataDir)).toBe(0);
      for (const path of ["/api/present", "/api/check"]) {
        const response = await fetch(`${server.url}${path}`, { method: "POST", body: form() });
        const problem = await problemOf(response);
        expect([path, problem.status, problem.body.code, problem.contentType]).toEqual([path, 507, "STORAGE_FULL", "application/problem+json"]);
        expect(String(problem.body.detail)).toContain("disk is full");
      }
      // The claim is one row update, which SQLite cannot write on a full disk: 507 too, and
      // the deck stays staged (its link still works once there is space).
      const complete = await fetch(`${server.url}/api/sessions/${staged.id}/handoff/complete`, { method: "POST", headers: { "x-controller-token": token } });
      const claimed = complete.status === 200;
      if (!claimed) expect((await problemOf(complete)).body.code).toBe("STORAGE_FULL");
      // A full disk is not a crash: the server answers.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(readdirSync(join(dataDir, "staged")).filter((name) => name.endsWith(".tmp"))).toEqual([]);
      free();
      // With space again, everything works, and the staged deck was never lost.
      const retried = await fetch(`${server.url}/api/sessions/${staged.id}/handoff/complete`, { method: "POST", headers: { "x-controller-token": token } });
      expect(retried.status).toBe(200);
      const again = await fetch(`${server.url}/api/present`, { method: "POST", body: form() });
      expect(again.status).toBe(200);
      expect(server.logs()).toContain('"status":507');
      expect(server.logs()).not.toContain('"status":500');
    } finally {
      free();
    }
  });
});

describe("the sweeper on a full disk", () => {
  let t: TestApp;
  afterAll(() => t?.close());

  test("deletes expired decks first, which frees the space the row updates need", async () => {
    const dataDir = join(mountPoint, "sweeper");
    mkdirSync(dataDir);
    t = makeTestApp({ dataDir });
    const records = [];
    for (let i = 0; i < 3; i++) records.push(await t.present(await makeDeck({ pages: 2, padToBytes: 200_000 })));
    const free = fill(dataDir);
    try {
      // SQLite can write nothing now.
      const full = await problemOf(await t.upload(await makeDeck()));
      expect([full.status, full.body.code]).toEqual([507, "STORAGE_FULL"]);
      t.advance(25 * 3_600_000);
      const result = await t.deps.handoff.sweep();
      expect(result.expired).toBe(3);
      expect(t.stagedFiles()).toEqual([]);
      for (const record of records) expect(t.row(record.id)!.state).toBe("expired");
      // Expired decks are 410 from now on, whatever the disk.
      const gone = await problemOf(await t.handle(`/api/sessions/${records[0]!.id}/handoff?t=${records[0]!.token}`));
      expect([gone.status, gone.body.code]).toEqual([410, "HANDOFF_EXPIRED"]);
    } finally {
      free();
    }
  });
});
