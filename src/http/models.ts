/**
 * @module http/models
 * The request and response shapes of the REST API as `t` schemas. Routes validate with them
 * and /openapi.json is generated from them, so the two cannot drift apart.
 */
import { Type } from "@sinclair/typebox";
import { type DocumentDecoration, t } from "elysia";
import { HandoffRecordSchema } from "../shared/handoff-record.ts";
import { ERROR_CODES, ProblemSchema } from "../shared/problem.ts";
import { FILE_FIELD, NOTES_FIELD, NOTES_FILE_MAX_BYTES } from "../tools/upload-limits.ts";

/** The handoff record's schema lives in the shared vocabulary (shared/handoff-record): MCP publishes it too. */
export const HandoffRecord = HandoffRecordSchema;

/** The problem document's schema is the shared vocabulary's (shared/problem): the client reads the same shape. */
export const Problem = ProblemSchema;

export const UploadForm = t.Object(
  {
    [FILE_FIELD]: t.String({ format: "binary", contentMediaType: "application/pdf", description: "The PDF deck. The bytes decide whether it is a PDF, not its name or declared type." }),
    [NOTES_FIELD]: t.Optional(
      t.String({
        format: "binary",
        description: `Optional notes file beside the PDF: a .pdfpc file (pdfpcFormat 1 or 2) or a PowerPoint .pptx whose notes slides give the notes in slide order. The bytes decide which it is. At most ${NOTES_FILE_MAX_BYTES / (1024 * 1024)} MB (and never more than the PDF limit); only its notes are read.`,
      }),
    ),
  },
  { title: "UploadForm" },
);

/** How the parts of an upload with a notes file are encoded (present, go live). */
export const NotesUploadEncoding = {
  [FILE_FIELD]: { contentType: "application/pdf, application/octet-stream" },
  [NOTES_FIELD]: { contentType: "application/json, application/vnd.openxmlformats-officedocument.presentationml.presentation, application/octet-stream" },
};

/**
 * The normalised notes GET /api/sessions/{id}/notes and GET /api/live/{code}/notes answer: a .pdfpc document, format 2 (the
 * shape pdfpc itself writes). Only documented here; the server sends the stored text as is.
 */
export const PdfpcNotes = t.Object(
  {
    pdfpcFormat: t.Literal(2, { description: "Always 2: notes of any format are normalised to pdfpc's format 2." }),
    pages: t.Array(
      t.Object(
        {
          idx: Type.Integer({ minimum: 0, description: "0-based page index in the PDF." }),
          label: t.Optional(t.String({ description: "Page label." })),
          overlay: t.Optional(Type.Integer({ minimum: 0 })),
          note: t.Optional(t.String({ description: "The notes of that page, as markdown (plain text when disableMarkdown is true)." })),
        },
        { additionalProperties: true },
      ),
      { description: "The pages that have notes." },
    ),
    duration: t.Optional(Type.Number({ description: "Talk length in minutes, when the notes file gives one." })),
    endTime: t.Optional(t.String({ description: "End time of the talk (HH:MM), when given." })),
    lastMinutes: t.Optional(Type.Number({ description: "Minutes before the end when the timer warns, when given." })),
    disableMarkdown: t.Optional(t.Boolean()),
  },
  { title: "PdfpcNotes", description: "Speaker notes as a .pdfpc document (pdfpcFormat 2).", additionalProperties: true },
);

/**
 * The 200 answer of a notes route (a staged deck's, a live talk's): the normalised .pdfpc and
 * the headers that describe the notes file it came from (`sentWith`: how that file came).
 */
export function pdfpcNotesResponse(sentWith: string) {
  return {
    description: "The notes as a .pdfpc document (format 2).",
    headers: {
      "X-Notes-Filename": { description: `The notes file's name as ${sentWith}, percent-encoded.`, schema: { type: "string" as const } },
      "X-Notes-Kind": { description: "What the notes file was: `pdfpc` or `pptx`.", schema: { type: "string" as const, enum: ["pdfpc", "pptx"] } },
      "X-Notes-Slides": { description: "Number of slides the notes file gives notes for.", schema: { type: "integer" as const } },
    },
    content: { "application/json": { schema: { $ref: "#/components/schemas/PdfpcNotes" } } },
  };
}

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

const DependencyStatus = t.Object(
  {
    kind: t.String({ description: "What serves it: sqlite, files, postgres or s3." }),
    state: t.Union([t.Literal("up"), t.Literal("down")]),
    since: t.String({ format: "date-time", description: "When it entered this state." }),
    reason: t.Optional(t.String({ description: "Why it is down." })),
  },
  { title: "DependencyStatus" },
);

export const Health = t.Object(
  {
    status: t.Union([t.Literal("ok"), t.Literal("unavailable")], {
      description: "ok: every dependency is up. unavailable (with 503): one is down; uploads and downloads answer 503 STORAGE_UNAVAILABLE until it is back.",
    }),
    version: t.String(),
    dependencies: t.Record(t.String(), DependencyStatus, { description: "The database and the bytes' store, by name (database, storage)." }),
  },
  { title: "Health" },
);

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
