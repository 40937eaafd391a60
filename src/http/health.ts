/**
 * @module http/health
 * GET /healthz: liveness and readiness for load balancers and the binary tests. It answers from
 * the dependencies' last known state (kept by every call and a probe every few seconds), so
 * it stays fast while the database or the bucket hangs: 200 "ok" when all are up, 503
 * "unavailable" with each dependency's state when one is down (stop sending traffic here).
 */
import { Elysia } from "elysia";
import type { AppDeps } from "../composition/deps.ts";
import { RETRY_AFTER_SECONDS } from "../store/dependencies.ts";
import { Health, routeDoc } from "./models.ts";

export function healthController(deps: AppDeps) {
  return new Elysia({ name: "health" }).get(
    "/healthz",
    ({ set }) => {
      const monitor = deps.dependencies;
      const ready = monitor?.ready() ?? true;
      if (!ready) {
        set.status = 503;
        set.headers["retry-after"] = String(RETRY_AFTER_SECONDS);
      }
      set.headers["cache-control"] = "no-store";
      return { status: ready ? ("ok" as const) : ("unavailable" as const), version: deps.version, dependencies: monitor?.snapshot() ?? {} };
    },
    {
      response: { 200: Health, 503: Health },
      detail: routeDoc({
        operationId: "health",
        summary: "Liveness and readiness check",
        description: "200 with status ok when the database and the bytes' store answer; 503 with status unavailable and each dependency's state when one does not.",
        tags: ["Operations"],
        security: [{}],
        "x-problems": [500],
      }),
    },
  );
}
