/**
 * @module http/health
 * GET /healthz: liveness for load balancers and the binary tests.
 */
import { Elysia } from "elysia";
import type { AppDeps } from "../deps.ts";
import { Health, routeDoc } from "./models.ts";

export function healthController(deps: AppDeps) {
  return new Elysia({ name: "health" }).get("/healthz", () => ({ status: "ok" as const, version: deps.version }), {
    response: { 200: Health },
    detail: routeDoc({
      operationId: "health",
      summary: "Liveness check",
      tags: ["Operations"],
      security: [{}],
      "x-problems": [500],
    }),
  });
}
