/**
 * @module http/check
 * POST /api/check: validate the sidecar attachments of an uploaded PDF and return the check
 * report. Same streaming upload path and the same 4xx problems as /api/present; nothing is
 * kept once the report is built. An optional `notes` part (a .pdfpc or .pptx beside the PDF)
 * is checked with it: its problems are findings in the report, never a problem response —
 * only a part over its size limit is refused (413 NOTES_FILE_TOO_LARGE), as present does.
 */
import { Elysia } from "elysia";
import { notesFilename } from "../security/filename.ts";
import { receiveMultipartPdf } from "../upload/receive.ts";
import { notesFileLimit } from "../tools/upload-limits.ts";
import type { AppDeps } from "../composition/deps.ts";
import { asPdfOwner } from "../pdf/worker/owner.ts";
import { pdfOwner } from "./deps.ts";
import { uploadAdmission } from "./middleware/admit-upload.ts";
import { UploadForm, routeDoc } from "./models.ts";

export function checkController(deps: AppDeps) {
  const admitUpload = uploadAdmission(deps);
  return new Elysia({ name: "check" }).post(
    "/api/check",
    async ({ request }) => {
      const { release } = await admitUpload(request);
      try {
        const upload = await receiveMultipartPdf(request, deps.blobs, deps.config.maxUploadBytes, {
          idleMs: deps.config.bodyTimeoutMs,
          notes: { maxBytes: notesFileLimit(deps.config.maxUploadBytes) },
        });
        try {
          // Waits in the PDF pool's bounded line (503 SERVER_BUSY past it): the check gate. The
          // report arrives as JSON text and goes out as is.
          const notes = upload.notes ? { path: upload.notes.temp.path, filename: notesFilename(upload.notes.uploadName) } : undefined;
          // Counted under this address: the pool shares its workers fairly between addresses.
          const report = await asPdfOwner(pdfOwner(request, deps), () => deps.pdf.checkJson(upload.temp.path, { bytes: upload.bytes, sha256: upload.sha256 }, undefined, notes));
          return new Response(report, { headers: { "content-type": "application/json" } });
        } finally {
          await Promise.all([upload.temp.discard(), upload.notes?.temp.discard()]);
        }
      } finally {
        release();
      }
    },
    {
      // Elysia would buffer the whole multipart body in memory; we stream it ourselves.
      parse: "none",
      detail: routeDoc({
        operationId: "check",
        summary: "Check the notes and media sidecars of a PDF",
        description:
          "Validates the sidecar attachments embedded in the PDF (speaker notes, media, pdfpc, in-page notes) and returns a report that conforms to /schema/check-report.schema.json. An optional `notes` part (a .pdfpc file or a PowerPoint .pptx beside the PDF) is checked too: its findings are in the report's `notesFile`; only a notes part over the size limit is refused (413 NOTES_FILE_TOO_LARGE). A Bearer token is accepted, and required only when the server runs with --require-auth. Nothing is kept.",
        tags: ["Check"],
        security: [{}, { bearerAuth: [] }],
        requestBody: { required: true, content: { "multipart/form-data": { schema: UploadForm as never } } },
        responses: {
          200: {
            description: "The check report. `ok` is false when an attachment is invalid.",
            content: { "application/json": { schema: { $ref: "#/components/schemas/CheckReport" } } },
          },
        },
        "x-problems": [400, 401, 408, 413, 415, 422, 429, 500, 503],
      }),
    },
  );
}
