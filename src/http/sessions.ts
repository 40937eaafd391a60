/**
 * @module http/sessions
 * The handoff operations the start page uses: download the staged PDF (never consumes), fetch
 * the notes that came beside it (never consumes) and complete the handoff (claims it; the
 * server copy and its notes are deleted).
 */
import { Value } from "@sinclair/typebox/value";
import { Elysia, t } from "elysia";
import { AppError } from "../base/errors.ts";
import { readBodyText } from "../upload/body.ts";
import type { AppDeps } from "../composition/deps.ts";
import { CompleteBody, Ok, pdfpcNotesResponse, routeDoc } from "./models.ts";
import { parseRange, pdfResponse } from "./pdf-response.ts";

const SessionParams = t.Object({ id: t.String({ description: "The handoff id from the handoff record." }) });

const TokenQuery = t.Object({
  t: t.Optional(t.String({ description: "The controller token (from the handoff link's fragment). The `x-controller-token` header may carry it instead, which keeps it out of proxy logs." })),
});

const TOKEN_HEADER = {
  name: "x-controller-token",
  in: "header",
  required: false,
  schema: { type: "string" },
  description: "The controller token, instead of the query parameter `t` (wins when both are given).",
} as const;

export function sessionsController(deps: AppDeps) {
  return new Elysia({ name: "sessions" })
    .get(
      "/api/sessions/:id/handoff",
      async ({ params, query, request }) => {
        // The token in a header keeps it out of proxy logs; `t` is the documented way (and the
        // only one a plain link can carry).
        const token = request.headers.get("x-controller-token") ?? query.t;
        const row = await deps.handoff.resolveDownload(params.id, token);
        const range = parseRange(request.headers.get("range"), row.bytes);
        // Whatever keeps the bytes (a file, a bucket), they come opened: a claim that ran
        // before this is seen as missing bytes (410), never as a truncated body.
        const blob = await deps.blobs.open(row.id, range ?? undefined);
        if (!blob) throw await deps.handoff.missingBytes(row.id);
        // Judged again after the wait: a claim or an expiry may have landed meanwhile (the
        // bytes already opened stay readable, but the link is over).
        try {
          await deps.handoff.resolveDownload(params.id, token);
        } catch (error) {
          if (blob.body instanceof ReadableStream) await blob.body.cancel().catch(() => {});
          throw error;
        }
        return pdfResponse(blob.body, row, range, { "content-disposition": contentDisposition(`${row.filename}.pdf`) });
      },
      {
        params: SessionParams,
        query: TokenQuery,
        detail: routeDoc({
          operationId: "downloadHandoff",
          summary: "Download the staged PDF",
          description:
            "Returns the staged PDF bytes to the holder of the controller token. Does not consume the handoff. Supports a single `Range` for resuming (206).",
          tags: ["Handoff"],
          security: [{ controllerTokenQuery: [] }],
          parameters: [
            { name: "Range", in: "header", required: false, schema: { type: "string" }, description: "A single byte range, e.g. bytes=1048576-" },
            TOKEN_HEADER,
          ],
          responses: {
            200: {
              description: "The staged PDF.",
              headers: {
                "Repr-Digest": { description: "SHA-256 of the whole PDF (RFC 9530).", schema: { type: "string" } },
                "X-Total-Slides": { description: "Number of slides.", schema: { type: "integer" } },
                "X-Filename": { description: "Display title, percent-encoded.", schema: { type: "string" } },
              },
              content: { "application/pdf": { schema: { type: "string", format: "binary" } } },
            },
            206: { description: "The requested byte range of the staged PDF.", content: { "application/pdf": { schema: { type: "string", format: "binary" } } } },
          },
          "x-problems": [401, 403, 404, 410, 416, 500],
        }),
      },
    )
    .get(
      "/api/sessions/:id/notes",
      async ({ params, query, request }) => {
        const token = request.headers.get("x-controller-token") ?? query.t;
        const staged = await deps.handoff.notesFor(params.id, token);
        if (!staged) return new Response(null, { status: 204, headers: { "cache-control": "no-store", "referrer-policy": "no-referrer" } });
        return new Response(staged.pdfpc, {
          headers: {
            "content-type": "application/json; charset=utf-8",
            "cache-control": "no-store",
            "referrer-policy": "no-referrer",
            "x-notes-filename": encodeURIComponent(staged.notes.filename),
            "x-notes-kind": staged.notes.kind,
            "x-notes-slides": String(staged.notes.slides),
          },
        });
      },
      {
        params: SessionParams,
        query: TokenQuery,
        // Declared so that /openapi.json documents it (a `detail.parameters` entry is dropped there).
        headers: t.Object(
          {
            "x-controller-token": t.Optional(t.String({ description: "The controller token, instead of the query parameter `t` (wins when both are given)." })),
          },
          { additionalProperties: true },
        ),
        detail: routeDoc({
          operationId: "downloadHandoffNotes",
          summary: "Get the notes that came with the staged PDF",
          description:
            "Returns the notes of the notes file uploaded beside the PDF (the `notes` part of POST /api/present), normalised to a .pdfpc document (JSON, pdfpcFormat 2, `pages[].idx` 0-based, `note` markdown), to the holder of the controller token. 204 when the deck came without notes. Does not consume the handoff; the notes are deleted with the deck when it is claimed or expires.",
          tags: ["Handoff"],
          security: [{ controllerTokenHeader: [] }, { controllerTokenQuery: [] }],
          responses: {
            200: pdfpcNotesResponse("uploaded"),
            204: { description: "The deck came without a notes file." },
          },
          "x-problems": [401, 403, 404, 410, 500],
        }),
      },
    )
    .post(
      "/api/sessions/:id/handoff/complete",
      async ({ params, request }) => {
        const token = request.headers.get("x-controller-token");
        // Who is asking, before a byte of the body is read.
        const row = await deps.handoff.authorize(params.id, token);
        const body = await readCompleteBody(request, deps.config.bodyTimeoutMs);
        const { claimedAt } = await deps.handoff.complete(params.id, token, body.sha256);
        // The browser holds this deck now: it may take it live without an access token, with
        // the claim's one grant (a repeat answers the same grant and expiry while it lasts).
        const liveGrant = await deps.live.claimGrant(token!, row.sha256, claimedAt);
        return { ok: true, ...(liveGrant ? { liveGrant } : {}) };
      },
      {
        params: SessionParams,
        // The body is optional and may come with any or no content type: read it ourselves.
        parse: "none",
        response: { 200: Ok },
        detail: routeDoc({
          operationId: "completeHandoff",
          summary: "Complete the handoff",
          description:
            "Claims the handoff: the browser now holds the deck, so the server copy is deleted and the link stops working. With `sha256`, the claim only succeeds if the browser's bytes match. Repeating a successful complete answers `{ok:true}` again, with the same `liveGrant` as the first (same grant, same expiry; none once it has expired). `liveGrant` lets the browser go live with this deck (POST /api/live, `Authorization: Grant …`) for 2 hours after the claim, also on a --require-auth server.",
          tags: ["Handoff"],
          security: [{ controllerTokenHeader: [] }],
          requestBody: { required: false, content: { "application/json": { schema: CompleteBody as never } } },
          "x-problems": [400, 401, 403, 404, 408, 409, 410, 500],
        }),
      },
    );
}

/** The complete body is a 64-hex-digit digest in JSON; nothing legitimate comes near this. */
const MAX_COMPLETE_BODY_BYTES = 4096;

const BODY_SHAPE = 'The body must be empty or JSON like {"sha256":"<64 hex digits>"}.';

/** RFC 6266 / RFC 8187: an ASCII fallback name, and the exact name percent-encoded. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

async function readCompleteBody(request: Request, idleMs: number): Promise<typeof CompleteBody.static> {
  // At most MAX_COMPLETE_BODY_BYTES; a larger body is refused without reading it all.
  if (Number(request.headers.get("content-length") ?? 0) > MAX_COMPLETE_BODY_BYTES) throw new AppError("BAD_REQUEST", BODY_SHAPE);
  const text = await readBodyText(request, MAX_COMPLETE_BODY_BYTES, idleMs, () => new AppError("BAD_REQUEST", BODY_SHAPE));
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError("BAD_REQUEST", BODY_SHAPE);
  }
  if (!Value.Check(CompleteBody, parsed)) throw new AppError("BAD_REQUEST", BODY_SHAPE);
  return parsed as typeof CompleteBody.static;
}
