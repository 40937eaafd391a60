/**
 * @module http/deps
 * What the HTTP layer is given, and the small request helpers every controller shares.
 */
import type { AccessTokens, Caller } from "../auth/access-tokens.ts";
import type { Config } from "../config.ts";
import { AppError } from "../errors.ts";
import type { RateLimiter } from "../handoff/rate-limit.ts";
import type { Clock, HandoffService } from "../handoff/service.ts";
import type { Logger } from "../log.ts";
import type { Gate } from "../mcp/gate.ts";
import type { PdfReader } from "../pdf/worker/pool.ts";
import type { BlobStore } from "../store/files.ts";
import { lastHop } from "./host.ts";
import type { UploadSlots } from "./upload-slots.ts";

export interface AppDeps {
  config: Config;
  clock: Clock;
  logger: Logger;
  handoff: HandoffService;
  blobs: BlobStore;
  /** Reads PDFs off the event loop (a pool of worker processes). */
  pdf: PdfReader;
  accessTokens: AccessTokens;
  rateLimiter: RateLimiter;
  /** Uploads receiving at once, per address and in total. */
  uploadSlots: UploadSlots;
  version: string;
  /** The peer address of a request, as the server saw it (null under app.handle()). */
  peerAddress?: (request: Request) => string | null;
  /** Admission of large /mcp requests; default: `createGate(MCP_GATE_DEFAULTS)` per app. */
  mcpGate?: Gate;
}

/** The client address for rate limiting: X-Forwarded-For only behind a trusted proxy. */
export function clientAddress(request: Request, deps: AppDeps): string {
  if (deps.config.trustProxy) {
    const forwarded = lastHop(request.headers.get("x-forwarded-for"));
    if (forwarded) return forwarded;
  }
  return deps.peerAddress?.(request) ?? "unknown";
}

export interface AdmittedUpload {
  caller: Caller;
  /** Give the upload slot back; call it once the body has been read (idempotent). */
  release: () => void;
}

/**
 * Admit an upload (present, check, a large MCP call) before a byte of its body is read:
 * identify the caller (401 on a bad token), apply the anonymous rate limit (429 with
 * Retry-After) and take an upload slot (429 TOO_MANY_UPLOADS / 503 SERVER_BUSY).
 */
export function admitUpload(request: Request, deps: AppDeps, options: { rateLimit: boolean } = { rateLimit: true }): AdmittedUpload {
  const caller = deps.accessTokens.identify(request.headers.get("authorization"), deps.config.requireAuth);
  const address = clientAddress(request, deps);
  if (options.rateLimit && !caller.authenticated) applyAnonymousRateLimit(address, deps);
  const release = deps.uploadSlots.acquire(address, { perAddress: !caller.authenticated });
  return { caller, release };
}

/**
 * Count one anonymous upload (present or check, over REST or MCP) from `address`; over the
 * limit, RATE_LIMITED with Retry-After.
 */
export function applyAnonymousRateLimit(address: string, deps: Pick<AppDeps, "rateLimiter">): void {
  const decision = deps.rateLimiter.hit(address);
  if (!decision.allowed) {
    throw new AppError(
      "RATE_LIMITED",
      `Too many anonymous uploads from this address; retry in ${decision.retryAfter} s, or send an access token.`,
      { headers: { "retry-after": String(decision.retryAfter) } },
    );
  }
}
