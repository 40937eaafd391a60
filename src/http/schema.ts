/**
 * @module http/schema
 * GET /schema/:name — the JSON Schemas of the check report and of the sidecar formats,
 * byte-identical to the files under schemas/. They are embedded as text so the compiled
 * binary needs no files beside it. Each report's `$schema` is "/schema/check-report.schema.json".
 */
import { Elysia, t } from "elysia";
import { AppError, problemResponse } from "../base/errors.ts";
import { routeDoc } from "./models.ts";
import { SCHEMAS } from "../binary/schemas.ts";

/** The content type registered for JSON Schema documents (draft 2020-12, §9.5.1). */
export const SCHEMA_CONTENT_TYPE = "application/schema+json";

export { SCHEMAS };

export function schemaController() {
  return new Elysia({ name: "schema" }).get(
    "/schema/:name",
    ({ params }) => {
      const text = Object.hasOwn(SCHEMAS, params.name) ? SCHEMAS[params.name] : undefined;
      if (text === undefined) return problemResponse(new AppError("NOT_FOUND", `No schema is called "${params.name.slice(0, 80)}"; the schemas are ${Object.keys(SCHEMAS).join(", ")}.`));
      return new Response(text, {
        headers: {
          "content-type": SCHEMA_CONTENT_TYPE,
          // Schemas change only with a new binary: let clients cache them for an hour.
          "cache-control": "public, max-age=3600",
        },
      });
    },
    {
      params: t.Object({ name: t.String() }),
      detail: routeDoc({
        operationId: "getSchema",
        summary: "JSON Schema of the check report or a sidecar format",
        description: "`check-report.schema.json` describes the response of POST /api/check; `notes-sidecar.schema.json`, `media-sidecar.schema.json` and `poll-sidecar.schema.json` describe the sidecar files embedded in a deck; `live-message.schema.json` describes every message of the live WebSocket (/api/live/{code}/ws).",
        tags: ["Schemas"],
        security: [{}],
        responses: {
          200: { description: "The schema (JSON Schema 2020-12)", content: { [SCHEMA_CONTENT_TYPE]: { schema: { type: "object" } } } },
        },
        "x-problems": [404],
      }),
    },
  );
}
