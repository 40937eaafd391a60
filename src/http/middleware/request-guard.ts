/**
 * @module http/middleware/request-guard
 * Two checks against other web pages using a deckhand server through a visitor's browser:
 *
 * - DNS rebinding (`hostGuard`): a page on evil.example whose name is made to resolve to
 *   127.0.0.1 reaches a server bound to loopback with `Host: evil.example`. Such a server
 *   answers only for the names it is reached by: loopback names, --base-url's host and the
 *   hosts of --allow-origin. It runs before routing, so the live socket is covered too.
 * - Cross-site posts (`crossSiteGuard`): any page may send a multipart form POST to any
 *   address (no CORS preflight). A browser says where the page came from in `Origin`; a
 *   state-changing API request from an origin that is not the server's own, a loopback page,
 *   --base-url or --allow-origin is refused. Scripts and CLIs send no Origin and pass.
 *
 * Both answer 403 problems with a code and the flag that allows the name.
 */
import type { Config } from "../../base/config.ts";
import { AppError } from "../../base/errors.ts";
import { publicBaseUrl } from "../host.ts";
import { originAllowed } from "./origin.ts";

/** Names that always mean this machine. */
const LOOPBACK_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether `--host` binds only this machine's loopback interface. */
export function boundToLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function hostnameOf(authority: string): string | null {
  try {
    return new URL(`http://${authority}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

type GuardConfig = Pick<Config, "host" | "baseUrl" | "allowedOrigins" | "trustProxy">;

/**
 * Refuse (403 HOST_NOT_ALLOWED) a request whose Host a loopback-bound server does not answer
 * for. Behind a proxy on the same machine (--trust-proxy without --base-url) the public names
 * are the proxy's to decide, so any Host passes there.
 */
export function hostGuard(request: Request, config: GuardConfig): void {
  if (!boundToLoopback(config.host) || (config.trustProxy && config.baseUrl === null)) return;
  const host = request.headers.get("host");
  const name = host ? hostnameOf(host) : null;
  if (name === null) return; // a missing or invalid Host is the router's 400
  if (LOOPBACK_HOSTNAMES.has(name) || /^127\.\d+\.\d+\.\d+$/.test(name)) return;
  const known = [config.baseUrl, ...config.allowedOrigins].filter((u): u is string => u !== null).map((u) => new URL(u).hostname.toLowerCase());
  if (known.includes(name)) return;
  const shown = host!.slice(0, 200);
  throw new AppError(
    "HOST_NOT_ALLOWED",
    `This server listens on ${config.host} and answers only for localhost, 127.0.0.1 and [::1] (a page on another name reaching it is DNS rebinding); open it by one of those, or start deckhand with --base-url https://${shown} for a proxy that serves that name.`,
  );
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Same origin: the page was served by this very server (its Host, or its public base URL). */
function ownOrigin(origin: string, request: Request, config: GuardConfig): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.host === request.headers.get("host")?.toLowerCase()) return true;
  try {
    return url.origin === publicBaseUrl(request, config);
  } catch {
    return false;
  }
}

/** Refuse (403 ORIGIN_NOT_ALLOWED) a browser's state-changing API request from another site. */
export function crossSiteGuard(request: Request, path: string, config: GuardConfig): void {
  if (SAFE_METHODS.has(request.method) || !path.startsWith("/api/")) return;
  const origin = request.headers.get("origin");
  if (origin === null || ownOrigin(origin, request, config) || originAllowed(origin, config)) return;
  const shown = origin.slice(0, 200);
  throw new AppError("ORIGIN_NOT_ALLOWED", `Web pages at ${shown} may not send requests to this server's API; start deckhand with --allow-origin ${shown} to allow them.`);
}
