/**
 * @module composition/runtime
 * The composition root: open the storage the configuration names and wire the services the
 * app needs.
 */
import { AccessTokens } from "../auth/access-tokens.ts";
import type { Config } from "../base/config.ts";
import type { AppDeps } from "./deps.ts";
import { RateLimiter } from "../security/rate-limit.ts";
import type { Clock } from "../core/clock.ts";
import { HandoffService } from "../handoff/service.ts";
import { LiveEventRelay } from "../live/events.ts";
import { defaultMaxLiveSockets } from "../live/socket-cap.ts";
import { LiveHub } from "../live/hub.ts";
import { LiveJoinGuard } from "../live/join-guard.ts";
import type { Scheduler } from "../live/scheduler.ts";
import { LiveService } from "../live/service.ts";
import { jsonLogger, type Logger } from "../base/log.ts";
import type { PdfReader } from "../core/pdf-reader.ts";
import { PdfPool } from "../pdf/worker/pool.ts";
import { openStorage, type Storage } from "../store/backends.ts";
import { DependencyMonitor } from "../store/dependencies.ts";
import { UploadSlots } from "../upload/slots.ts";
import { VERSION } from "../binary/version.ts";

export interface Runtime {
  deps: AppDeps;
  storage: Storage;
  /** Start a PDF worker now rather than on the first upload (a no-op for a shared reader). */
  warm(): void;
  /** Close the storage and stop the PDF workers this runtime started. */
  close(): Promise<void>;
}

export interface RuntimeOptions {
  clock?: Clock;
  logger?: Logger;
  /** A PDF reader to share (tests); by default the runtime starts its own pool of workers. */
  pdf?: PdfReader;
  /** The live sockets' timers (tests drive a manual scheduler); the system's by default. */
  liveScheduler?: Scheduler;
}

/** The PDF worker pool that `config` asks for. */
export function pdfPoolFor(config: Config, logger?: Logger): PdfPool {
  return new PdfPool({ workers: config.pdfWorkers, timeoutMs: config.pdfTimeoutMs, memoryBytes: config.pdfMemoryBytes, strikeLimit: config.pdfStrikeLimit, ...(logger ? { logger } : {}) });
}

export function createRuntime(config: Config, options: RuntimeOptions = {}): Runtime {
  const clock = options.clock ?? Date.now;
  const logger = options.logger ?? jsonLogger();
  // Each change of a dependency's state is one log line (not one per failed request).
  const dependencies = new DependencyMonitor({
    timeoutMs: config.dependencyTimeoutMs,
    clock,
    onChange: (name, status) =>
      status.state === "up" ? logger.info("dependency_up", { dependency: name, kind: status.kind }) : logger.error("dependency_down", { dependency: name, kind: status.kind, reason: status.reason ?? "" }),
  });
  const storage = openStorage(config, logger, dependencies);
  const ownPool = options.pdf ? null : pdfPoolFor(config, logger);
  const pdf = options.pdf ?? (ownPool as PdfPool);
  const { sessions, blobs } = storage;
  // The service tells the hub of ends and rotations; the hub, built after it, listens.
  const liveEvents = new LiveEventRelay();
  const live = new LiveService({ repo: storage.liveSessions, sessions, blobs, pdf, clock, ttlMs: config.liveTtlMs, maxStagedBytes: config.maxStagedBytes, presenterGraceMs: config.livePresenterGraceMs, events: liveEvents });
  const liveJoinGuard = new LiveJoinGuard(storage.rateLimits, clock);
  const liveHub = new LiveHub({ service: live, events: liveEvents, bus: storage.liveBus, logger, clock, ...(options.liveScheduler ? { scheduler: options.liveScheduler } : {}), maxViewers: config.maxViewers, maxViewersPerAddress: config.maxViewersPerAddress, maxSockets: config.maxLiveSockets || defaultMaxLiveSockets(), graceMs: config.livePresenterGraceMs, secrets: liveJoinGuard });
  const deps: AppDeps = {
    config,
    clock,
    logger,
    blobs,
    pdf,
    handoff: new HandoffService({
      sessions,
      blobs,
      pdf,
      clock,
      maxStagedBytes: config.maxStagedBytes,
      sweepLease: storage.sweepLease,
      logger,
      // A live session's deck is not an orphan.
      keepBlobs: (ids) => storage.liveSessions.openBlobsAmong(ids),
    }),
    accessTokens: new AccessTokens(storage.tokens, clock),
    rateLimiter: new RateLimiter(storage.rateLimits, config.rateLimit, clock),
    uploadSlots: new UploadSlots({ perAddress: config.maxUploadsPerAddress, total: config.maxUploads }),
    version: VERSION,
    dependencies,
    live,
    liveHub,
    liveJoinGuard,
  };
  return {
    deps,
    storage,
    warm: () => ownPool?.warm(),
    close: async () => {
      dependencies.stop();
      liveHub.close();
      await storage.close();
      await ownPool?.close();
    },
  };
}
