/**
 * @module http/host
 * The request's authority, checked once before any handler runs, and the public base URL of
 * links derived from it.
 *
 * Per RFC 9112 §3.2 a server answers 400 to a request without a Host or with an invalid one.
 * Bun passes such requests on with a relative `request.url` ("/healthz"), on which
 * `new URL()` throws; deckhand used to find out only after an upload had been written to disk.
 *
 * Elysia (1.4) cuts the path out of `request.url` at `indexOf("/", 11)`, assuming an origin of
 * at least 11 characters ("http://a.bc"). With a shorter one (`Host: x` → "http://x/…") the
 * first path segment is skipped: `GET /abc/healthz` was answered by /healthz and `GET /healthz`
 * was a 404. Requests with such an origin are handed to the app under a long placeholder
 * origin; links are built from the Host header, never from `request.url`.
 */
import { AppError } from "../base/errors.ts";

/** RFC 3986 host (an IP literal, or a reg-name without percent-escapes) and an optional port. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=-]+)(?::(\d{1,5}))?$/;

/** Is `host` a Host header value a client may send (RFC 9110 §7.2)? */
export function isValidHost(host: string | null | undefined): host is string {
  if (!host) return false;
  const match = HOST.exec(host);
  if (!match) return false;
  if (match[1] !== undefined && Number(match[1]) > 65535) return false;
  try {
    return new URL(`http://${host}`).host !== "";
  } catch {
    return false;
  }
}

/** The shortest origin Elysia's router reads correctly ("http://" + 4 characters). */
const ROUTER_MIN_ORIGIN = 11;
/** Stands in for a short origin when routing; `.invalid` can never be a real name (RFC 2606). */
const PLACEHOLDER_HOST = "deckhand.invalid";

export function badHost(): AppError {
  return new AppError("BAD_REQUEST", "The request has no valid Host header (RFC 9110 §7.2); send the server's name or address, e.g. Host: talks.example.org.", {
    headers: { connection: "close" },
  });
}

/**
 * The request to route: refused (400) without a valid Host, and re-addressed under a
 * placeholder origin when its own is too short for the router.
 */
export function routableRequest(request: Request): Request {
  const host = request.headers.get("host");
  if (!isValidHost(host) || !/^https?:\/\//.test(request.url)) throw badHost();
  const pathStart = request.url.indexOf("/", request.url.indexOf("//") + 2);
  if (pathStart === -1 || pathStart >= ROUTER_MIN_ORIGIN) return request;
  const scheme = request.url.slice(0, request.url.indexOf(":"));
  return new Request(`${scheme}://${PLACEHOLDER_HOST}${request.url.slice(pathStart)}`, request);
}

/** The path of a request for logs, without its query string; never throws. */
export function pathOf(request: Request): string {
  const url = request.url;
  const start = /^[a-z]+:\/\//i.test(url) ? url.indexOf("/", url.indexOf("//") + 2) : 0;
  if (start === -1) return "/";
  const path = url.slice(start);
  const query = path.search(/[?#]/);
  return query === -1 ? path : path.slice(0, query);
}

/** The options the base URL depends on. */
export interface BaseUrlConfig {
  baseUrl: string | null;
  trustProxy: boolean;
}

/**
 * The rightmost entry of a forwarding header: the one our own proxy wrote. Entries to its
 * left came from the client (nginx's $proxy_add_x_forwarded_for appends), so they can lie.
 */
export function lastHop(header: string | null): string | undefined {
  return header?.split(",").pop()?.trim() || undefined;
}

/**
 * The public base URL for links: --base-url; else, behind a trusted proxy, the proxy's
 * X-Forwarded-Proto and X-Forwarded-Host (the host carries its own port, or none for the
 * scheme's default: the port deckhand listens on never leaks into a public link); else the
 * request's scheme and Host header.
 */
export function publicBaseUrl(request: Request, config: BaseUrlConfig): string {
  if (config.baseUrl) return config.baseUrl;
  let scheme = request.url.startsWith("https:") ? "https" : "http";
  let host = request.headers.get("host");
  if (config.trustProxy) {
    const proto = lastHop(request.headers.get("x-forwarded-proto"))?.toLowerCase();
    const forwardedHost = lastHop(request.headers.get("x-forwarded-host"));
    if (proto === "http" || proto === "https") scheme = proto;
    if (isValidHost(forwardedHost)) host = forwardedHost;
  }
  if (!isValidHost(host)) {
    // Only reachable through app.handle() with a hand-made Request: the server refuses these.
    host = new URL(request.url).host;
  }
  return new URL(`${scheme}://${host}`).origin;
}
