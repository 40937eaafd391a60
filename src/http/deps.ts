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
  version: string;
  /** The peer address of a request, as the server saw it (null under app.handle()). */
  peerAddress?: (request: Request) => string | null;
  /** Admission of large /mcp requests; default: `createGate(MCP_GATE_DEFAULTS)` per app. */
  mcpGate?: Gate;
}

/** The public base URL for links: --base-url, else the request's origin (proxy headers only if trusted). */
export function publicBaseUrl(request: Request, config: Config): string {
  if (config.baseUrl) return config.baseUrl;
  const url = new URL(request.url);
  if (config.trustProxy) {
    const proto = lastHop(request.headers.get("x-forwarded-proto"));
    const host = lastHop(request.headers.get("x-forwarded-host"));
    if (proto === "http" || proto === "https") url.protocol = `${proto}:`;
    if (host && /^[A-Za-z0-9.\-:[\]]+$/.test(host)) url.host = host;
  }
  return url.origin;
}

/**
 * The rightmost entry of a forwarding header: the one our own proxy wrote. Entries to its
 * left came from the client (nginx's $proxy_add_x_forwarded_for appends), so they can lie.
 */
function lastHop(header: string | null): string | undefined {
  return header?.split(",").pop()?.trim() || undefined;
}

/** The client address for rate limiting: X-Forwarded-For only behind a trusted proxy. */
export function clientAddress(request: Request, deps: AppDeps): string {
  if (deps.config.trustProxy) {
    const forwarded = lastHop(request.headers.get("x-forwarded-for"));
    if (forwarded) return forwarded;
  }
  return deps.peerAddress?.(request) ?? "unknown";
}

/**
 * Admit an upload (present or check): identify the caller (401 on a bad token) and apply
 * the anonymous rate limit (429 with Retry-After).
 */
export function admitUpload(request: Request, deps: AppDeps): Caller {
  const caller = deps.accessTokens.identify(request.headers.get("authorization"), deps.config.requireAuth);
  if (!caller.authenticated) applyAnonymousRateLimit(clientAddress(request, deps), deps);
  return caller;
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
