/**
 * @module http/middleware/request-log
 * One `request` log line per request: its id, method, path, status and time. The named plugin
 * `requestLog` logs every answer the app gives (so `app.handle()` tests see the line as the
 * server's log does), whatever produced it: a route, the error handler, a refusal before
 * routing, an unknown path. The live socket's upgrade never reaches the app: the server logs
 * it (or its refusal) with `logRequest`.
 *
 * It wraps the app's fetch (Elysia's `wrap`) because no lifecycle hook sees every answer when
 * it is given: onAfterResponse runs on a later tick and reports 200 for an unmatched path and
 * for a Response a handler returned; mapResponse never sees an answer of the error handler.
 * Elysia marks `wrap` as internal: test/http/middleware/request-log.test.ts pins the lines.
 */
import { Elysia } from "elysia";
import type { Logger } from "../../base/log.ts";
import { pathOf } from "../host.ts";
import { REQUEST_ID_HEADER } from "./request-id.ts";

export function logRequests(logger: Logger) {
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

/** The `request` line of every answer the app gives. */
export function requestLog(logger: Logger) {
  const logRequest = logRequests(logger);
  return new Elysia({ name: "request-log" }).wrap((fetch) => async (request: Request) => {
    const started = performance.now();
    const response = (await fetch(request)) as unknown as Response;
    logRequest(request, response, started);
    return response;
  });
}
