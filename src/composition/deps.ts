/**
 * @module composition/deps
 * What the app is composed of: the services that `composition/runtime.ts` wires and that the HTTP
 * controllers and the MCP tools are given. Here, not in `http/`, so that the MCP code can
 * name it without importing the HTTP layer (and the stdio `deckhand mcp` never loads Elysia).
 */
import type { AccessTokens } from "../auth/access-tokens.ts";
import type { Config } from "../base/config.ts";
import type { BlobStore } from "../core/blobs.ts";
import type { RateLimiter } from "../security/rate-limit.ts";
import type { Clock } from "../core/clock.ts";
import type { HandoffService } from "../handoff/service.ts";
import type { Logger } from "../base/log.ts";
import type { LiveHub } from "../live/hub.ts";
import type { LiveJoinGuard } from "../live/join-guard.ts";
import type { LiveService } from "../live/service.ts";
import type { Gate } from "../mcp/gate.ts";
import type { PdfReader } from "../core/pdf-reader.ts";
import type { DependencyMonitor } from "../store/dependencies.ts";
import type { UploadSlots } from "../upload/slots.ts";

export interface AppDeps {
  config: Config;
  clock: Clock;
  logger: Logger;
  handoff: HandoffService;
  blobs: BlobStore;
  /** Reads PDFs off the event loop (a pool of worker processes). */
  pdf: PdfReader;
  accessTokens: AccessTokens;
  /** The anonymous upload limit (in memory, or shared through PostgreSQL). */
  rateLimiter: RateLimiter;
  /** Uploads receiving at once, per address and in total (per instance). */
  uploadSlots: UploadSlots;
  version: string;
  /** Live sessions: the domain, the sockets of this instance, the code-guessing limit. */
  live: LiveService;
  liveHub: LiveHub;
  liveJoinGuard: LiveJoinGuard;
  /** The peer address of a request, as the server saw it (null under app.handle()). */
  peerAddress?: (request: Request) => string | null;
  /** The database's and the bytes' store's state (/healthz); absent: in-process stores only. */
  dependencies?: DependencyMonitor;
  /** Admission of large /mcp requests; default: `createGate(MCP_GATE_DEFAULTS)` per app. */
  mcpGate?: Gate;
}
