/**
 * @module http/deps
 * The small request helpers every controller shares: who is asking, from which address, and
 * whether their upload may start.
 */
import type { Caller } from "../auth/access-tokens.ts";
import type { AppDeps } from "../deps.ts";
import { addressKey } from "../tools/address-key.ts";
import { lastHop } from "./host.ts";

/** The client address for rate limiting: X-Forwarded-For only behind a trusted proxy. */
export function clientAddress(request: Request, deps: AppDeps): string {
  if (deps.config.trustProxy) {
    const forwarded = lastHop(request.headers.get("x-forwarded-for"));
    if (forwarded) return forwarded;
  }
  return deps.peerAddress?.(request) ?? "unknown";
}

/** The owner the PDF pool counts this request's jobs under (pdf/worker/owner): its address key (an IPv6 /64). */
export function pdfOwner(request: Request, deps: AppDeps): string {
  return addressKey(clientAddress(request, deps));
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
export async function admitUpload(request: Request, deps: AppDeps, options: { rateLimit: boolean } = { rateLimit: true }): Promise<AdmittedUpload> {
  const caller = await deps.accessTokens.identify(request.headers.get("authorization"), deps.config.requireAuth);
  const address = clientAddress(request, deps);
  if (options.rateLimit && !caller.authenticated) await deps.rateLimiter.admit(address);
  // The request is registered with its slot: its body reader reports progress, so a trickle can be evicted when the server is full.
  const release = deps.uploadSlots.acquire(address, { perAddress: !caller.authenticated, request });
  return { caller, release };
}
