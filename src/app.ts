/**
 * @module app
 * buildApp(deps) → the Elysia app. No listen(): the server (src/server.ts) and the tests
 * (app.handle(new Request(…))) both drive it. The request pipeline is declared here, in the
 * order it runs: the global middleware (named plugins from ./http/middleware/), the error
 * handler that turns every failure into a problem document, then the routes, which name their
 * own middleware as macros (`admitUpload`, `admitLiveUpload`, `admitLargeCall`, `mcpOrigin`).
 */
import { type AnyElysia, Elysia } from "elysia";
import { AppError, isAppError, problemResponse, storageFailure } from "./base/errors.ts";
import type { AppDeps } from "./composition/deps.ts";
import { checkController } from "./http/check.ts";
import { clientController } from "./http/client.ts";
import { healthController } from "./http/health.ts";
import { liveController } from "./http/live.ts";
import { pathOf } from "./http/host.ts";
import { allowedMethods } from "./http/method-not-allowed.ts";
import { crossSiteGuard, hostGuard } from "./http/middleware/request-guard.ts";
import { REQUEST_ID_HEADER, requestId, requestIdOf } from "./http/middleware/request-id.ts";
import { requestLog } from "./http/middleware/request-log.ts";
import { mcpController } from "./http/mcp.ts";
import { openapiController } from "./http/openapi.ts";
import { presentController } from "./http/present.ts";
import { schemaController } from "./http/schema.ts";
import { wellKnownController } from "./http/well-known.ts";
import { sessionsController } from "./http/sessions.ts";
import { errorFields } from "./base/log.ts";

export function buildApp(deps: AppDeps) {
  // The OpenAPI document describes the finished app, so it is built lazily from this ref.
  let built: AnyElysia | undefined;
  const app = new Elysia({ name: "deckhand" })
    // One `request` line for every answer, whatever gave it (wraps the rest).
    .use(requestLog(deps.logger))
    // A Host no router can read (400) or a name a loopback server must not answer for (DNS
    // rebinding, 403): refused before routing, before any body is read.
    .use(hostGuard(deps.config))
    // Every answer from here on, refusals included, carries the id its log lines name.
    .use(requestId())
    // Another site's page posting to the API through a visitor's browser (403).
    .use(crossSiteGuard(deps.config))
    .onError(({ request, error, code }) => {
      const requestId = requestIdOf(request);
      let appError: AppError;
      if (isAppError(error)) appError = error;
      else if (code === "NOT_FOUND") {
        // A known path under another method: 405 with the methods it takes.
        const allow = built ? allowedMethods(built.routes, pathOf(request)) : [];
        appError =
          allow.length > 0 && !allow.includes(request.method)
            ? new AppError("METHOD_NOT_ALLOWED", `${request.method} is not supported at this address; use ${allow.join(" or ")} (see /openapi.json).`, { headers: { allow: allow.join(", ") } })
            : new AppError("NOT_FOUND");
      }
      else if (code === "VALIDATION" || code === "PARSE" || code === "INVALID_COOKIE_SIGNATURE") {
        appError = new AppError("BAD_REQUEST", "A parameter or the body does not match the API; see /openapi.json.");
      } else {
        // A full disk (the OS's ENOSPC or SQLite's SQLITE_FULL) is the documented 507.
        appError = storageFailure(error);
      }
      // A server at capacity refusing work is doing its job: no error and no stack — the
      // request line says so (a full talk also gets an info line naming why).
      if (appError.code === "LIVE_FULL") deps.logger.info("request_refused", { requestId, path: pathOf(request), code: appError.code });
      else if (appError.status >= 500 && appError.code !== "SERVER_BUSY") {
        deps.logger.error("request_failed", { requestId, path: pathOf(request), ...errorFields(error) });
      }
      const response = problemResponse(appError, requestId);
      response.headers.set(REQUEST_ID_HEADER, requestId);
      return response;
    })
    .use(openapiController(deps, () => built!))
    .use(healthController(deps))
    .use(presentController(deps))
    .use(sessionsController(deps))
    .use(checkController(deps))
    .use(liveController(deps))
    .use(schemaController())
    .use(mcpController(deps))
    .use(wellKnownController(deps))
    .use(clientController());
  built = app;
  return app;
}

export type App = ReturnType<typeof buildApp>;
