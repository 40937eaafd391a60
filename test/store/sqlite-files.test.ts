/** The storage contract on the embedded default: SQLite in the data dir and files beside it. */
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SOLE_INSTANCE } from "../../src/core/coordination.ts";
import { openDataDir } from "../../src/store/backends.ts";
import { LocalBlobStore } from "../../src/store/files.ts";
import { MemoryLiveBus } from "../../src/store/memory-live-bus.ts";
import { MemoryRateLimitStore } from "../../src/store/memory-rate-limit.ts";
import { SqliteSessionRepository } from "../../src/store/sessions.ts";
import { SqliteTokenRepository } from "../../src/store/tokens.ts";
import { describeStorageContract, type Instance } from "./contract.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (1.3 s).
setDefaultTimeout(15_000);

describeStorageContract("SQLite + files", {
  // One process owns the data dir (its lock): the rate limit and the sweep are its own.
  shared: false,
  async open() {
    const dataDir = mkdtempSync(join(tmpdir(), "deckhand-contract-"));
    // Two connections to one database file, as the server and `deckhand token` are.
    const dbs = [openDataDir(dataDir), openDataDir(dataDir)];
    const instance = (i: number): Instance => ({
      sessions: new SqliteSessionRepository(dbs[i]!),
      tokens: new SqliteTokenRepository(dbs[i]!),
      blobs: new LocalBlobStore(dataDir),
      rateLimits: new MemoryRateLimitStore(),
      sweepLease: SOLE_INSTANCE,
      liveBus: new MemoryLiveBus(),
    });
    return {
      a: instance(0),
      b: instance(1),
      close: async () => {
        for (const db of dbs) db.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
});

test("closing the store removes the temp files still in use: a forced shutdown leaves no upload's temp behind", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "deckhand-close-"));
  try {
    const blobs = new LocalBlobStore(dataDir);
    const cut = blobs.createTemp();
    writeFileSync(cut.path, "half an upload");
    const kept = blobs.createTemp();
    writeFileSync(kept.path, "a whole deck");
    await blobs.commit(kept, "deck");
    blobs.settle("deck");
    await blobs.close();
    expect(existsSync(cut.path)).toBe(false);
    expect(readdirSync(join(dataDir, "staged"))).toEqual(["deck.pdf"]);
    // The upload's own discard, running late, finds nothing to do.
    await cut.discard();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
