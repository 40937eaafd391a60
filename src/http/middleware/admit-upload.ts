/**
 * @module http/middleware/admit-upload
 * The door of every upload (present, check, go live, a large MCP call), before a byte of its
 * body is read: identify the caller (401 on a bad token), apply the anonymous rate limit (429
 * with Retry-After) and take an upload slot (429 TOO_MANY_UPLOADS / 503 SERVER_BUSY). A
 * factory per controller returns the named check; its `release` gives the slot back.
 */
import type { Caller } from "../../auth/access-tokens.ts";
import type { AppDeps } from "../../composition/deps.ts";
import { clientAddress } from "../deps.ts";

export interface AdmittedUpload {
  caller: Caller;
  /** Give the upload slot back; call it once the body has been read (idempotent). */
  release: () => void;
}

/** `rateLimit: false`: no anonymous rate limit (as /mcp's large calls have always been admitted). */
export function uploadAdmission(deps: AppDeps, options: { rateLimit: boolean } = { rateLimit: true }) {
  return async function admitUpload(request: Request): Promise<AdmittedUpload> {
    const caller = await deps.accessTokens.identify(request.headers.get("authorization"), deps.config.requireAuth);
    const address = clientAddress(request, deps);
    if (options.rateLimit && !caller.authenticated) await deps.rateLimiter.admit(address);
    // The request is registered with its slot: its body reader reports progress, so a trickle can be evicted when the server is full.
    const release = deps.uploadSlots.acquire(address, { perAddress: !caller.authenticated, request });
    return { caller, release };
  };
}
