/**
 * @module http/present
 * POST /api/present: stream the upload to disk, validate it, stage it, return the handoff.
 * An optional `notes` part (a .pdfpc or .pptx beside the PDF) is judged with it and its notes
 * travel with the handoff (GET /api/sessions/{id}/notes).
 */
import { Elysia } from "elysia";
import { receiveMultipartPdf } from "../upload/receive.ts";
import { notesFileLimit } from "../tools/upload-limits.ts";
import type { AppDeps } from "../composition/deps.ts";
import { asPdfOwner } from "../pdf/worker/owner.ts";
import { pdfOwner } from "./deps.ts";
import { uploadAdmission } from "./middleware/admit-upload.ts";
import { publicBaseUrl } from "./host.ts";
import { HandoffRecord, NotesUploadEncoding, UploadForm, routeDoc } from "./models.ts";

export function presentController(deps: AppDeps) {
  const admitUpload = uploadAdmission(deps);
  return new Elysia({ name: "present" }).post(
    "/api/present",
    async ({ request }) => {
      // Everything that can refuse the request is decided before a byte of the body is read.
      const baseUrl = publicBaseUrl(request, deps.config);
      const { caller, release } = await admitUpload(request);
      try {
        const declared = Number(request.headers.get("content-length") ?? 0);
        if (declared > 0) await deps.handoff.assertCapacity(Math.min(declared, deps.config.maxUploadBytes));
        const upload = await receiveMultipartPdf(request, deps.blobs, deps.config.maxUploadBytes, {
          idleMs: deps.config.bodyTimeoutMs,
          durable: true,
          notes: { maxBytes: notesFileLimit(deps.config.maxUploadBytes) },
        });
        // stage() consumes the temp file in every case: moved into place or deleted.
        // Its validation waits in the PDF pool's line under this address (shared by reading time: docs/operating/availability.md).
        return await asPdfOwner(pdfOwner(request, deps), () => deps.handoff.stage(upload, { authenticated: caller.authenticated, baseUrl }));
      } finally {
        release();
      }
    },
    {
      // Elysia would buffer the whole multipart body in memory; we stream it ourselves.
      parse: "none",
      response: { 200: HandoffRecord },
      detail: routeDoc({
        operationId: "present",
        summary: "Stage a PDF and get a handoff link",
        description:
          "Uploads a PDF deck and stages it on the server. Opening the returned `url` in a browser copies the deck into the browser; the server copy is then deleted and the link stops working. Unclaimed links expire after 24 hours, or 7 days when the request carries a valid Bearer token. An optional `notes` part carries a notes file beside the PDF (a .pdfpc file or a PowerPoint .pptx): a notes file with errors refuses the upload (422 NOTES_FILE_UNREADABLE / NOTES_FILE_INVALID, 413 NOTES_FILE_TOO_LARGE); its warnings are listed in the record's `notes`, and its notes travel with the handoff (GET /api/sessions/{id}/notes).",
        tags: ["Handoff"],
        security: [{}, { bearerAuth: [] }],
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: UploadForm as never,
              encoding: NotesUploadEncoding,
            },
          },
        },
        "x-problems": [400, 401, 408, 413, 415, 422, 429, 500, 503, 507],
      }),
    },
  );
}
