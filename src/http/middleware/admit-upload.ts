/**
 * @module http/middleware/admit-upload
 * The door of every upload (present, check, go live, a large MCP call), before a byte of its
 * body is read: identify the caller (401 on a bad token), apply the anonymous rate limit (429
 * with Retry-After) and take an upload slot (429 TOO_MANY_UPLOADS / 503 SERVER_BUSY).
 *
 * `uploadAdmission(deps)` is the named plugin whose macros a route names to be admitted so:
 * `admitUpload: true` (a REST upload), `admitLiveUpload: true` (going live: a Bearer token or a
 * live grant) and `admitLargeCall: judge` (an MCP call: only a large one takes a slot). Each
 * resolves `admitted` for the handler, which gives the slot back with `admitted.release()` once
 * the body is read; the macro releases it too once the answer is out (release is idempotent),
 * so a refusal after admission never keeps a slot.
 */
import { Elysia } from "elysia";
import type { Caller } from "../../auth/access-tokens.ts";
import type { AppDeps } from "../../composition/deps.ts";
import { AppError } from "../../base/errors.ts";
import { clientAddress } from "../deps.ts";

export interface AdmittedUpload {
  caller: Caller;
  /** Give the upload slot back; call it once the body has been read (idempotent). */
  release: () => void;
}

/** Going live: a token's caller, or the deck digest a live grant covers. */
export interface AdmittedLiveUpload {
  release: () => void;
  /** Set when the request carried `Authorization: Grant …`: the deck it must be. */
  grantSha256?: string;
}

/** An MCP call: large ones (a deck inside) hold a slot, small ones a no-op release. */
export interface AdmittedCall extends AdmittedUpload {
  large: boolean;
}

/** `Authorization: Grant <grant>`: a live grant from a handoff claim, instead of a Bearer token. */
function grantOf(request: Request): string | null {
  const match = /^Grant\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "");
  return match ? match[1]! : null;
}

export function uploadAdmission(deps: AppDeps) {
  const releases = new WeakMap<Request, () => void>();
  /** `rateLimit: false`: no anonymous rate limit (as /mcp's large calls have always been admitted). */
  async function admit(request: Request, rateLimit: boolean): Promise<AdmittedUpload> {
    const caller = await deps.accessTokens.identify(request.headers.get("authorization"), deps.config.requireAuth);
    const address = clientAddress(request, deps);
    if (rateLimit && !caller.authenticated) await deps.rateLimiter.admit(address);
    // The request is registered with its slot: its body reader reports progress, so a trickle can be evicted when the server is full.
    const release = deps.uploadSlots.acquire(address, { perAddress: !caller.authenticated, request });
    releases.set(request, release);
    return { caller, release };
  }
  async function admitLive(request: Request): Promise<AdmittedLiveUpload> {
    const grant = grantOf(request);
    if (grant === null) return { release: (await admit(request, true)).release };
    // A grant stands in for a Bearer token; which deck it covers is checked once the bytes
    // are in. Unknown or expired grants are refused before any byte is read.
    const found = await deps.live.grantFor(grant);
    if (!found) throw new AppError("LIVE_GRANT_INVALID");
    // A grant may be used again (a rehearsal, then the talk) for its two hours, so its holder
    // is held to the anonymous upload rate like anyone without a token.
    const address = clientAddress(request, deps);
    await deps.rateLimiter.admit(address);
    const release = deps.uploadSlots.acquire(address, { perAddress: true });
    releases.set(request, release);
    return { release, grantSha256: found.sha256 };
  }
  const releaseAfterAnswer = ({ request }: { request: Request }) => releases.get(request)?.();
  return new Elysia({ name: "upload-admission" }).macro({
    admitUpload: {
      resolve: async ({ request }) => ({ admitted: await admit(request, true) }),
      afterResponse: releaseAfterAnswer,
    },
    admitLiveUpload: {
      resolve: async ({ request }) => ({ admitted: await admitLive(request) }),
      afterResponse: releaseAfterAnswer,
    },
    /** `judge` refuses a body too large to read (413) and says whether the call is large. */
    admitLargeCall: (judge: (request: Request) => boolean) => ({
      resolve: async ({ request }: { request: Request }): Promise<{ admitted: AdmittedCall }> => {
        // A large body (or one of unknown length) carries a deck: it takes an upload slot, as
        // a REST upload does; a small one is only identified.
        if (judge(request)) return { admitted: { ...(await admit(request, false)), large: true } };
        const caller = await deps.accessTokens.identify(request.headers.get("authorization"), deps.config.requireAuth);
        return { admitted: { caller, release: () => {}, large: false } };
      },
      afterResponse: releaseAfterAnswer,
    }),
  });
}
