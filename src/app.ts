/**
 * @module app
 * buildApp(deps) → the Elysia app. No listen(): the server (src/server.ts) and the tests
 * (app.handle(new Request(…))) both drive it.
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
import { crossSiteGuard } from "./http/middleware/request-guard.ts";
import { REQUEST_ID_HEADER, requestIdOf } from "./http/middleware/request-id.ts";
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
    .onRequest(({ request, set }) => {
      set.headers[REQUEST_ID_HEADER] = requestIdOf(request);
      // Another site's page posting through a visitor's browser (DNS rebinding: the server
      // refuses its Host before routing, src/server.ts).
      crossSiteGuard(request, pathOf(request), deps.config);
    })
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
  // The log line wraps the whole answer, errors and unknown paths included: Elysia 1.4's
  // onAfterResponse reports 200 for an unmatched path and for a Response the handler returned.
  const logRequest = requestLog(deps.logger);
  const handle = app.handle;
  app.handle = async function handleAndLog(request: Request): Promise<Response> {
    const started = performance.now();
    const response = await handle(request);
    logRequest(request, response, started);
    return response;
  };
  return app;
}

export type App = ReturnType<typeof buildApp>;
