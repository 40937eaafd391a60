/**
 * @module http/live-ws
 * The upgrade of GET /api/live/{code}/ws. It runs before the app (the server drives the app
 * through app.handle(), which cannot upgrade): the Origin is checked (same origin as the
 * request, loopback pages, --base-url, --allow-origin), the address must not be blocked for
 * guessing codes, and the code must name an open session — all answered with problem
 * documents before any socket exists. Secrets are never in this URL: they come in the first
 * message (`join`).
 */
import type { Server } from "bun";
import type { AppDeps } from "../composition/deps.ts";
import { AppError, isAppError, problemResponse } from "../base/errors.ts";
import type { LiveSocketData } from "../live/hub.ts";
import { openTalk } from "./live.ts";
import { liveSocketOrigin } from "./middleware/origin.ts";

const WS_PATH = /^\/api\/live\/([^/]+)\/ws$/;

/** The code of a live WebSocket path, or null for any other request. */
export function liveSocketCode(request: Request): string | null {
  const match = WS_PATH.exec(new URL(request.url).pathname);
  return match ? match[1]! : null;
}

/**
 * Upgrade the request to a live socket; a Response when refused, undefined when upgraded.
 */
export async function upgradeLiveSocket(request: Request, code: string, server: Server<LiveSocketData>, deps: AppDeps): Promise<Response | undefined> {
  try {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      throw new AppError("BAD_REQUEST", "This address is a WebSocket (protocol: /schema/live-message.schema.json); connect with a WebSocket client.");
    }
    liveSocketOrigin(deps.config, deps.logger)(request, code);
    const { address } = await openTalk(deps, code, request);
    // Every socket is a descriptor: past the instance's cap the upgrade is refused, so uploads,
    // files and the database always find one.
    const place = deps.liveHub.reserveSocket(address);
    if (place !== "ok") {
      deps.logger.info("live_sockets_full", { code, address, sockets: deps.liveHub.socketCount, reason: place });
      throw new AppError(place === "full" ? "LIVE_SOCKETS_FULL" : "TOO_MANY_LIVE_SOCKETS", undefined, { headers: { "retry-after": "30" } });
    }
    let upgraded = false;
    try {
      upgraded = server.upgrade(request, { data: deps.liveHub.socketData(code, address) });
    } finally {
      if (!upgraded) deps.liveHub.releaseSocket(address);
    }
    if (upgraded) return undefined;
    throw new AppError("BAD_REQUEST", "The WebSocket handshake is malformed; connect with a WebSocket client.");
  } catch (error) {
    return problemResponse(isAppError(error) ? error : new AppError("INTERNAL", undefined, { cause: error }));
  }
}
