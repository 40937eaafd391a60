/**
 * @module http/deps
 * The small request helpers every controller shares: from which address a request comes, and
 * whose PDF jobs it runs (an upload's admission is ./middleware/admit-upload.ts).
 */
import type { AppDeps } from "../composition/deps.ts";
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
