/**
 * @module http/models
 * The request and response shapes of the REST API as `t` schemas. Routes validate with them
 * and /openapi.json is generated from them, so the two cannot drift apart.
 */
import { Type } from "@sinclair/typebox";
import { type DocumentDecoration, t } from "elysia";
import { ERROR_CODES } from "../errors.ts";
import { FILE_FIELD } from "../upload/receive.ts";

export const HandoffRecord = t.Object(
  {
    id: t.String({ description: "Identifier of the staged handoff session (22 characters, base64url).", examples: ["q3Vt0Y2mYqfJ8u1d0aXk3A"] }),
    url: t.String({ format: "uri", description: "Handoff link. Works once: until a browser claims the deck, or until expiresAt. The controller token rides in the fragment." }),
    filename: t.String({ description: "Display title: the uploaded file name without its .pdf extension." }),
    totalSlides: Type.Integer({ minimum: 1, description: "Number of slides (pages) of the staged deck." }),
    next: t.String({ description: "One sentence telling a human or an agent what to do now." }),
    expiresAt: t.String({ format: "date-time", description: "When the unclaimed link expires (UTC): 24 hours, or 7 days with a valid Bearer token." }),
    bytes: Type.Integer({ minimum: 1, description: "Size of the staged PDF in bytes." }),
    sha256: t.String({ pattern: "^[0-9a-f]{64}$", description: "SHA-256 of the staged PDF, lowercase hex." }),
  },
  { title: "HandoffRecord", description: "A staged handoff session." },
);
export type HandoffRecord = typeof HandoffRecord.static;

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

export const Ok = t.Object({ ok: t.Boolean() }, { title: "CompleteResponse" });

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
