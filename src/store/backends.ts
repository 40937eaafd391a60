/**
 * @module store/backends
 * Open the storage that the configuration names, behind the domain's ports:
 *
 * - rows: SQLite in the data dir (the embedded default), or PostgreSQL (`--database-url`);
 * - bytes: files in the data dir (the default), or an S3-compatible bucket (`--storage`).
 *
 * With PostgreSQL the anonymous rate limit, the sweep lease and the live bus are shared
 * through the database too, so any number of instances can serve behind a load balancer as
 * long as the bytes are in a bucket. Anything else keeps state on this machine, and `serve`
 * locks the data dir (`usesDataDirAlone`).
 */
import type { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../base/config.ts";
import type { AccessTokenRepository } from "../core/access-tokens.ts";
import type { BlobStore } from "../core/blobs.ts";
import { SOLE_INSTANCE, type SweepLease } from "../core/coordination.ts";
import type { LiveBus } from "../core/live.ts";
import type { LiveSessionRepository } from "../core/live-sessions.ts";
import type { Logger } from "../base/log.ts";
import type { RateLimitStore } from "../core/rate-limit.ts";
import type { SessionRepository } from "../core/sessions.ts";
import { WalCheckpointer } from "./checkpointer.ts";
import { DependencyMonitor, guarded } from "./dependencies.ts";
import { openDatabase } from "./db.ts";
import { LocalBlobStore } from "./files.ts";
import { SqliteLiveSessionRepository } from "./live-sessions.ts";
import { MemoryLiveBus } from "./memory-live-bus.ts";
import { MemoryRateLimitStore } from "./memory-rate-limit.ts";
import { openPostgres } from "./postgres/db.ts";
import { PostgresLiveBus } from "./postgres/live-bus.ts";
import { PostgresLiveSessionRepository } from "./postgres/live-sessions.ts";
import { PostgresRateLimitStore } from "./postgres/rate-limit.ts";
import { PostgresSessionRepository } from "./postgres/sessions.ts";
import { PostgresSweepLease } from "./postgres/sweep-lease.ts";
import { PostgresTokenRepository } from "./postgres/tokens.ts";
import { parseS3Url, S3BlobStore } from "./s3/blobs.ts";
import { SqliteSessionRepository } from "./sessions.ts";
import { SqliteTokenRepository } from "./tokens.ts";
import { DIR_MODE } from "./temp-spool.ts";

export interface Storage {
  sessions: SessionRepository;
  tokens: AccessTokenRepository;
  blobs: BlobStore;
  rateLimits: RateLimitStore;
  sweepLease: SweepLease;
  liveBus: LiveBus;
  /** Live session rows, in the same database as the handoff rows. */
  liveSessions: LiveSessionRepository;
  /** The state of the database and the bytes' store (/healthz, the serve log, the 503s). */
  dependencies: DependencyMonitor;
  /** Resolves once the database is reachable and migrated (rejects with the reason). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Whether state lives on this machine, so one process must own the data dir (its lock). */
export function usesDataDirAlone(config: Pick<Config, "databaseUrl" | "storage">): boolean {
  return config.databaseUrl === null || config.storage === null;
}

/** The SQLite database of the data dir (created and migrated if need be). */
export function openDataDir(dataDir: string): Database {
  mkdirSync(dataDir, { recursive: true, mode: DIR_MODE });
  return openDatabase(join(dataDir, "deckhand.db"));
}

/** Where the bytes go: the data dir, or the bucket of `--storage` (each call under a deadline). */
function openBlobs(config: Pick<Config, "dataDir" | "storage">, dependencies: DependencyMonitor): BlobStore {
  if (config.storage === null) {
    dependencies.register("storage", "files");
    return new LocalBlobStore(config.dataDir);
  }
  const location = parseS3Url(config.storage);
  if (!location) throw new Error(`invalid --storage ${config.storage}`);
  const store = new S3BlobStore({ location, dataDir: config.dataDir, stepTimeoutMs: dependencies.timeoutMs });
  dependencies.register("storage", "s3", () => store.probe());
  // An upload to the bucket bounds each of its parts itself: a large deck may take longer.
  return guarded<BlobStore>(store, "storage", dependencies, ["commit", "sweepTemps", "close"]);
}

/** Rows and tokens only: what `deckhand token …` needs. */
export function openTokenStore(config: Pick<Config, "dataDir" | "databaseUrl">): { tokens: AccessTokenRepository; ready(): Promise<void>; close(): Promise<void> } {
  if (config.databaseUrl) {
    const db = openPostgres(config.databaseUrl, { max: 1 });
    return { tokens: new PostgresTokenRepository(db), ready: () => db.ready, close: () => db.close() };
  }
  const db = openDataDir(config.dataDir);
  return { tokens: new SqliteTokenRepository(db), ready: async () => {}, close: async () => db.close() };
}

/**
 * `logger` hears of background trouble (a failed WAL checkpoint); `dependencies` (by default
 * one with --dependency-timeout) bounds and watches every call to PostgreSQL and the bucket.
 */
export function openStorage(
  config: Pick<Config, "dataDir" | "databaseUrl" | "storage"> & Partial<Pick<Config, "dependencyTimeoutMs">>,
  logger?: Logger,
  dependencies = new DependencyMonitor({ timeoutMs: config.dependencyTimeoutMs ?? 5_000 }),
): Storage {
  mkdirSync(config.dataDir, { recursive: true, mode: DIR_MODE });
  const blobs = openBlobs(config, dependencies);
  if (config.databaseUrl) {
    const db = openPostgres(config.databaseUrl);
    dependencies.register("database", "postgres", async () => {
      await db.ready;
      await db.sql`SELECT 1`;
    });
    const guard = <T extends object>(repo: T, unbounded: string[] = []) => guarded(repo, "database", dependencies, unbounded);
    return {
      sessions: guard(new PostgresSessionRepository(db)),
      tokens: guard(new PostgresTokenRepository(db)),
      blobs,
      rateLimits: guard(new PostgresRateLimitStore(db)),
      // The lease is held for a whole sweep, whose own calls are bounded one by one.
      sweepLease: guard(new PostgresSweepLease(db), ["runExclusive"]),
      liveBus: guard(new PostgresLiveBus(db), ["close"]),
      liveSessions: guard(new PostgresLiveSessionRepository(db)),
      dependencies,
      ready: () => db.ready,
      close: async () => {
        await blobs.close?.();
        await db.close();
      },
    };
  }
  const db = openDataDir(config.dataDir);
  dependencies.register("database", "sqlite");
  // The log's checkpoints (fsyncs) run on a thread, not on the event loop that writes the rows.
  const checkpointer = new WalCheckpointer(db, (message) => logger?.error("wal_checkpoint_failed", { message })).start();
  return {
    sessions: new SqliteSessionRepository(db),
    tokens: new SqliteTokenRepository(db),
    blobs,
    rateLimits: new MemoryRateLimitStore(),
    sweepLease: SOLE_INSTANCE,
    liveBus: new MemoryLiveBus(),
    liveSessions: new SqliteLiveSessionRepository(db),
    dependencies,
    ready: async () => {},
    close: async () => {
      await blobs.close?.();
      await checkpointer.stop();
      db.close();
    },
  };
}
