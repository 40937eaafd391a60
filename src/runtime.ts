/**
 * @module runtime
 * The composition root: open the data directory and wire the services the app needs.
 */
import type { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { AccessTokens } from "./auth/access-tokens.ts";
import type { Config } from "./config.ts";
import { RateLimiter } from "./handoff/rate-limit.ts";
import { type Clock, HandoffService } from "./handoff/service.ts";
import type { AppDeps } from "./http/deps.ts";
import { UploadSlots } from "./http/upload-slots.ts";
import { jsonLogger, type Logger } from "./log.ts";
import { PdfPool, type PdfReader } from "./pdf/worker/pool.ts";
import { openDatabase } from "./store/db.ts";
import { LocalBlobStore } from "./store/files.ts";
import { SqliteSessionRepository } from "./store/sessions.ts";
import { TokenRepository } from "./store/tokens.ts";
import { VERSION } from "./version.ts";

export interface Runtime {
  deps: AppDeps;
  db: Database;
  /** Start a PDF worker now rather than on the first upload (a no-op for a shared reader). */
  warm(): void;
  /** Close the database and stop the PDF workers this runtime started. */
  close(): Promise<void>;
}

export interface RuntimeOptions {
  clock?: Clock;
  logger?: Logger;
  /** A PDF reader to share (tests); by default the runtime starts its own pool of workers. */
  pdf?: PdfReader;
}

export function openDataDir(dataDir: string): Database {
  mkdirSync(dataDir, { recursive: true });
  return openDatabase(join(dataDir, "deckhand.db"));
}

/** The PDF worker pool that `config` asks for. */
export function pdfPoolFor(config: Config, logger?: Logger): PdfPool {
  return new PdfPool({ workers: config.pdfWorkers, timeoutMs: config.pdfTimeoutMs, memoryBytes: config.pdfMemoryBytes, ...(logger ? { logger } : {}) });
}

export function createRuntime(config: Config, options: RuntimeOptions = {}): Runtime {
  const clock = options.clock ?? Date.now;
  const logger = options.logger ?? jsonLogger();
  const db = openDataDir(config.dataDir);
  const ownPool = options.pdf ? null : pdfPoolFor(config, logger);
  const pdf = options.pdf ?? (ownPool as PdfPool);
  const blobs = new LocalBlobStore(config.dataDir);
  const sessions = new SqliteSessionRepository(db);
  const deps: AppDeps = {
    config,
    clock,
    logger,
    blobs,
    pdf,
    handoff: new HandoffService({ sessions, blobs, pdf, clock, maxStagedBytes: config.maxStagedBytes }),
    accessTokens: new AccessTokens(new TokenRepository(db), clock),
    rateLimiter: new RateLimiter(config.rateLimit, clock),
    uploadSlots: new UploadSlots({ perAddress: config.maxUploadsPerAddress, total: config.maxUploads }),
    version: VERSION,
  };
  return {
    deps,
    db,
    warm: () => ownPool?.warm(),
    close: async () => {
      db.close();
      await ownPool?.close();
    },
  };
}
