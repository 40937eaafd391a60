/**
 * @module http/models
 * The request and response shapes of the REST API as `t` schemas. Routes validate with them
 * and /openapi.json is generated from them, so the two cannot drift apart.
 */
import { Type } from "@sinclair/typebox";
import { type DocumentDecoration, t } from "elysia";
import { ERROR_CODES } from "../errors.ts";
import { HandoffRecordSchema } from "../handoff/record.ts";
import { FILE_FIELD } from "../upload/receive.ts";

/** The handoff record's schema lives with the domain (handoff/record): MCP publishes it too. */
export const HandoffRecord = HandoffRecordSchema;

export const Problem = t.Object(
  {
    type: t.String({ format: "uri", description: "Identifier of the problem type." }),
    title: t.String({ description: "Short summary of the problem type." }),
    status: Type.Integer({ description: "The HTTP status code." }),
    detail: t.String({ description: "What happened and what to do about it." }),
    code: t.Union(
      Object.keys(ERROR_CODES).map((code) => t.Literal(code)),
      { description: "Stable machine-readable error code." },
    ),
    requestId: t.Optional(t.String({ description: "Request id, also in the X-Request-Id header and the server log." })),
  },
  { title: "Problem", description: "RFC 9457 problem details." },
);

export const UploadForm = t.Object(
  {
    [FILE_FIELD]: t.String({ format: "binary", contentMediaType: "application/pdf", description: "The PDF deck. The bytes decide whether it is a PDF, not its name or declared type." }),
  },
  { title: "UploadForm" },
);

export const CompleteBody = t.Object(
  {
    sha256: t.Optional(t.String({ pattern: "^[0-9a-fA-F]{64}$", description: "SHA-256 (hex) of the bytes the browser stored. If it differs from the server's, the claim is refused with 409 and the deck stays staged." })),
  },
  { title: "CompleteRequest", additionalProperties: false },
);

export const Ok = t.Object(
  {
    ok: t.Boolean(),
    liveGrant: t.Optional(
      t.Object(
        {
          grant: t.String({ description: "Send as `Authorization: Grant <grant>` on POST /api/live to go live with this deck (same sha256) on a --require-auth server." }),
          expiresAt: t.String({ description: "ISO-8601 UTC; 2 hours after the claim." }),
        },
        { title: "LiveGrant" },
      ),
    ),
  },
  { title: "CompleteResponse" },
);

export const Health = t.Object({ status: t.Literal("ok"), version: t.String() }, { title: "Health" });

/** An OpenAPI response object for a problem status (RFC 9457), naming the codes it can carry. */
export function problemResponse(status: number) {
  const codes = Object.entries(ERROR_CODES)
    .filter(([, v]) => v.status === status)
    .map(([k]) => k);
  return {
    description: `Problem document (RFC 9457); code ${codes.join(" or ")}.`,
    content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
  };
}

/**
 * An operation's documentation. `x-problems` lists the problem statuses the route can answer;
 * the OpenAPI builder turns them into problem responses.
 */
export function routeDoc(doc: DocumentDecoration & { "x-problems"?: number[] }): DocumentDecoration {
  return doc;
}
