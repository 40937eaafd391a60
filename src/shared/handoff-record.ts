/**
 * @module shared/handoff-record
 * The handoff record that `POST /api/present` and the MCP tool `present_pdf` return (fields in
 * docs/api/rest.md), as one TypeBox schema: the route validates with it, /openapi.json and the
 * tool's outputSchema publish it, and `HandoffRecord` is its static type. Plain TypeBox, not
 * Elysia's `t`, so the stdio MCP command can use it without loading Elysia.
 */
import { type Static, Type } from "@sinclair/typebox";
import { notesSummarySchema } from "./notes-summary.ts";

export const HandoffRecordSchema = Type.Object(
  {
    id: Type.String({ description: "Identifier of the staged handoff session (22 characters, base64url).", examples: ["q3Vt0Y2mYqfJ8u1d0aXk3A"] }),
    url: Type.String({ format: "uri", description: "Handoff link. Works once: until a browser claims the deck, or until expiresAt. The controller token rides in the fragment." }),
    filename: Type.String({ description: "Display title: the uploaded file name without its .pdf extension." }),
    totalSlides: Type.Integer({ minimum: 1, description: "Number of slides (pages) of the staged deck." }),
    next: Type.String({ description: "One sentence telling a human or an agent what to do now." }),
    expiresAt: Type.String({ format: "date-time", description: "When the unclaimed link expires (UTC): 24 hours, or 7 days with a valid Bearer token." }),
    bytes: Type.Integer({ minimum: 1, description: "Size of the staged PDF in bytes." }),
    sha256: Type.String({ pattern: "^[0-9a-f]{64}$", description: "SHA-256 of the staged PDF, lowercase hex." }),
    notes: Type.Optional(
      notesSummarySchema({
        title: "HandoffNotes",
        description:
          "Present only when a notes file came with the deck (the multipart part `notes`). Its notes, normalised to a .pdfpc document, travel with the handoff: GET /api/sessions/{id}/notes until the deck is claimed or expires.",
      }),
    ),
  },
  { title: "HandoffRecord", description: "A staged handoff session." },
);

export type HandoffRecord = Static<typeof HandoffRecordSchema>;
