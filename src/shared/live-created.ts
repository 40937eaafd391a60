/**
 * @module shared/live-created
 * What `POST /api/live` answers when a talk goes live, as one TypeBox schema: the route
 * validates and documents with it, the live service returns its static type, and the
 * presenter window reads it. Plain TypeBox (browser-safe), like the handoff record.
 */
import { type Static, Type } from "@sinclair/typebox";
import { LIVE_CODE_PATTERN } from "./live-protocol.ts";
import { notesSummarySchema } from "./notes-summary.ts";

/** A count or a size. */
const nonNegative = () => Type.Integer({ minimum: 0 });

export const LiveCreatedSchema = Type.Object(
  {
    code: Type.String({ pattern: LIVE_CODE_PATTERN, description: "The talk code: 6 characters, no 0/O/1/I/L." }),
    viewerUrl: Type.String({ description: "{base}/live/{code}: what viewers open." }),
    controlUrl: Type.String({ description: "{base}/live/{code}/control#{controlSecret}: the phone remote; the secret is in the fragment." }),
    presenterSecret: Type.String({ description: "The presenter's secret: first message of its WebSocket, and x-presenter-secret on end/rotate. Shown only here." }),
    expiresAt: Type.String({ description: "ISO-8601 UTC; --live-ttl after going live." }),
    filename: Type.String(),
    totalSlides: nonNegative(),
    bytes: nonNegative(),
    sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }),
    allowDownload: Type.Boolean({ description: "Whether viewers are offered to save the PDF (the presenter changes it over its socket)." }),
    notes: Type.Optional(
      notesSummarySchema({
        title: "LiveNotes",
        description:
          "Present only when a notes file came with the deck (the multipart part `notes`). Its notes, normalised to a .pdfpc document, are kept with the talk for its phone remote and its presenter (GET /api/live/{code}/notes, never for viewers) and deleted when the talk ends.",
      }),
    ),
  },
  { title: "LiveCreated" },
);

export type LiveCreated = Static<typeof LiveCreatedSchema>;
