/**
 * @module http/middleware/origin
 * Which web pages may use this server through a visitor's browser, by the `Origin` they send:
 * the policy (`originAllowed`) and the named checks of the two doors that are not plain API
 * requests — /mcp and the live socket's upgrade. (State-changing API requests have
 * ./request-guard.ts's `crossSiteGuard`.) A request without Origin is not a browser's page
 * and passes.
 */
import type { Config } from "../../base/config.ts";
import { AppError } from "../../base/errors.ts";
import type { Logger } from "../../base/log.ts";

type OriginConfig = Pick<Config, "baseUrl" | "allowedOrigins">;

/**
 * Origins a browser page may call /mcp from. The MCP Streamable HTTP transport requires the
 * check against DNS rebinding: a page on evil.example whose name resolves to 127.0.0.1 sends
 * `Origin: http://evil.example:8080`, which matches its own Host, so Host cannot decide.
 * Allowed: no Origin (not a browser), loopback pages, --base-url's origin, --allow-origin.
 */
export function originAllowed(origin: string | null, config: OriginConfig): boolean {
  if (origin === null) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (config.allowedOrigins.includes(url.origin)) return true;
  if (config.baseUrl && new URL(config.baseUrl).origin === url.origin) return true;
  return (url.protocol === "http:" || url.protocol === "https:") && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

/** Same origin: the page was served by this very host (a LAN address, a public name). */
function sameHost(origin: string, request: Request): boolean {
  try {
    return new URL(origin).host === request.headers.get("host")?.toLowerCase();
  } catch {
    return false;
  }
}

/** The /mcp check: 403 ORIGIN_NOT_ALLOWED for a page `originAllowed` refuses (its own Host proves nothing, see above). */
export function mcpOrigin(config: OriginConfig) {
  return function mcpOriginCheck(request: Request): void {
    const origin = request.headers.get("origin");
    if (originAllowed(origin, config)) return;
    throw new AppError(
      "ORIGIN_NOT_ALLOWED",
      `Web pages at ${origin} may not call this MCP endpoint (DNS rebinding protection); start deckhand with --allow-origin ${origin} to allow a browser-based client there.`,
    );
  };
}

/**
 * The live socket's check, before the upgrade: pages of this very host join too (a viewer
 * opening the LAN address); others as `originAllowed` says. A refusal is logged with the
 * talk's code and a 403 ORIGIN_NOT_ALLOWED thrown.
 */
export function liveSocketOrigin(config: OriginConfig, logger: Logger) {
  return function liveSocketOriginCheck(request: Request, code: string): void {
    const origin = request.headers.get("origin");
    if (origin === null || sameHost(origin, request) || originAllowed(origin, config)) return;
    logger.info("live_origin_refused", { code, origin: origin.slice(0, 200) });
    throw new AppError("ORIGIN_NOT_ALLOWED", `Web pages at ${origin.slice(0, 200)} may not join live talks on this server; start deckhand with --allow-origin ${origin.slice(0, 200)} to allow them.`);
  };
}
