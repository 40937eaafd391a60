/**
 * @module http/middleware/request-log
 * One `request` log line per request: its id, method, path, status and time. The app logs
 * every answer it gives (so `app.handle()` tests see the line as the server's log does); the
 * server logs only what never reached the app — a refused Host, a live socket's upgrade or
 * its refusal.
 */
import type { Logger } from "../../base/log.ts";
import { pathOf } from "../host.ts";
import { REQUEST_ID_HEADER } from "./request-id.ts";

export function requestLog(logger: Logger) {
  /** `response: null`: the request was upgraded to a WebSocket (101, no response object). */
  return function logRequest(request: Request, response: Response | null, startedMs: number): void {
    const ms = Math.round((performance.now() - startedMs) * 10) / 10;
    if (response === null) {
      logger.info("request", { method: request.method, path: pathOf(request), status: 101, ms });
      return;
    }
    logger.info("request", {
      requestId: response.headers.get(REQUEST_ID_HEADER),
      method: request.method,
      // The path only: query strings may carry a controller token (?t=).
      path: pathOf(request),
      status: response.status,
      ms,
    });
  };
}
