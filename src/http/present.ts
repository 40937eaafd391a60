/**
 * @module http/present
 * POST /api/present: stream the upload to disk, validate it, stage it, return the handoff.
 */
import { Elysia } from "elysia";
import { receiveMultipartPdf } from "../upload/receive.ts";
import { admitUpload, type AppDeps, publicBaseUrl } from "./deps.ts";
import { HandoffRecord, UploadForm, routeDoc } from "./models.ts";

export function presentController(deps: AppDeps) {
  return new Elysia({ name: "present" }).post(
    "/api/present",
    async ({ request }) => {
      const caller = admitUpload(request, deps);
      // Fail fast on a full store before reading a large body.
      const declared = Number(request.headers.get("content-length") ?? 0);
      if (declared > 0) deps.handoff.assertCapacity(Math.min(declared, deps.config.maxUploadBytes));
      const upload = await receiveMultipartPdf(request, deps.blobs, deps.config.maxUploadBytes);
      return deps.handoff.stage(upload, { authenticated: caller.authenticated, baseUrl: publicBaseUrl(request, deps.config) });
    },
    {
      // Elysia would buffer the whole multipart body in memory; we stream it ourselves.
      parse: "none",
      response: { 200: HandoffRecord },
      detail: routeDoc({
        operationId: "present",
        summary: "Stage a PDF and get a handoff link",
        description:
          "Uploads a PDF deck and stages it on the server. Opening the returned `url` in a browser copies the deck into the browser; the server copy is then deleted and the link stops working. Unclaimed links expire after 24 hours, or 7 days when the request carries a valid Bearer token.",
        tags: ["Handoff"],
        security: [{}, { bearerAuth: [] }],
        requestBody: {
          required: true,
          content: { "multipart/form-data": { schema: UploadForm as never, encoding: { file: { contentType: "application/pdf, application/octet-stream" } } } },
        },
        "x-problems": [400, 401, 413, 415, 422, 429, 500, 507],
      }),
    },
  );
}
