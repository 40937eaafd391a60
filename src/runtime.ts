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
import { jsonLogger, type Logger } from "./log.ts";
import { openDatabase } from "./store/db.ts";
import { LocalBlobStore } from "./store/files.ts";
import { SqliteSessionRepository } from "./store/sessions.ts";
import { TokenRepository } from "./store/tokens.ts";
import { VERSION } from "./version.ts";

export interface Runtime {
  deps: AppDeps;
  db: Database;
  close(): void;
}

export function openDataDir(dataDir: string): Database {
  mkdirSync(dataDir, { recursive: true });
  return openDatabase(join(dataDir, "deckhand.db"));
}

export function createRuntime(config: Config, options: { clock?: Clock; logger?: Logger } = {}): Runtime {
  const clock = options.clock ?? Date.now;
  const db = openDataDir(config.dataDir);
  const blobs = new LocalBlobStore(config.dataDir);
  const sessions = new SqliteSessionRepository(db);
  const deps: AppDeps = {
    config,
    clock,
    logger: options.logger ?? jsonLogger(),
    blobs,
    handoff: new HandoffService({ sessions, blobs, clock, maxStagedBytes: config.maxStagedBytes }),
    accessTokens: new AccessTokens(new TokenRepository(db), clock),
    rateLimiter: new RateLimiter(config.rateLimit, clock),
    version: VERSION,
  };
  return { deps, db, close: () => db.close() };
}
