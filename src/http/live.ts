/**
 * @module http/live
 * The REST part of live presenting (issue 11): go live (a streamed upload, like
 * /api/present, with the same optional `notes` part), session info, the deck for viewers
 * (resumable), the notes for the remote and the presenter (never for viewers: they are not in
 * the PDF), end, and control-secret rotation. The WebSocket is upgraded before the app
 * (./live-ws.ts): Elysia's `.ws` needs Elysia's own listen(), and the server drives the app
 * through app.handle().
 */
import { Elysia, t } from "elysia";
import { LiveCreatedSchema } from "../shared/live-created.ts";
import { LIVE_CODE_PATTERN } from "../shared/live-protocol.ts";
import type { AppDeps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { errorFields } from "../log.ts";
import { isoSeconds } from "../tools/time.ts";
import { receiveMultipartPdf } from "../upload/receive.ts";
import { notesFileLimit } from "../tools/upload-limits.ts";
import { asPdfOwner } from "../pdf/worker/owner.ts";
import { clientAddress, pdfOwner } from "./deps.ts";
import { uploadAdmission } from "./middleware/admit-upload.ts";
import { publicBaseUrl } from "./host.ts";
import { parseRange, pdfResponse } from "./pdf-response.ts";
import { NotesUploadEncoding, UploadForm, pdfpcNotesResponse, routeDoc } from "./models.ts";

/** A count or a size. */
function nonNegative() {
  return t.Integer({ minimum: 0 });
}

/**
 * The shared answer of going live (shared/live-created), its counts as Elysia's integers so
 * /openapi.json documents them as it always has (a number or a numeric string).
 */
const LiveCreated = t.Object({ ...LiveCreatedSchema.properties, totalSlides: nonNegative(), bytes: nonNegative() }, { title: "LiveCreated" });

export const LiveInfo = t.Object(
  {
    code: t.String({ pattern: LIVE_CODE_PATTERN }),
    filename: t.String(),
    totalSlides: nonNegative(),
    bytes: nonNegative(),
    sha256: t.String({ pattern: "^[0-9a-f]{64}$", description: "SHA-256 of the deck: check the downloaded bytes against it." }),
    allowDownload: t.Boolean(),
    expiresAt: t.String(),
    paused: t.Boolean({ description: "No presenter is connected right now." }),
    notes: t.Boolean({ description: "The presenter sent a notes file with the deck: its remote gets the notes from GET /api/live/{code}/notes (with the control secret)." }),
    counts: t.Object({ viewers: nonNegative(), controls: nonNegative(), presenter: t.Boolean() }),
  },
  { title: "LiveInfo" },
);

const CodeParams = t.Object({ code: t.String({ description: "The talk code (upper case; the viewer page normalises what people type)." }) });
const presenterSecretHeader = { name: "x-presenter-secret", in: "header" as const, required: true, schema: { type: "string" as const }, description: "The presenterSecret from POST /api/live." };
/** The notes route's secrets, declared so that /openapi.json documents them (a `detail.parameters` entry is dropped there). */
const NotesSecretHeaders = t.Object(
  {
    "x-control-secret": t.Optional(t.String({ description: "The control secret: the fragment of the talk's controlUrl (what the phone remote holds)." })),
    "x-presenter-secret": t.Optional(t.String({ description: "The presenterSecret from POST /api/live, instead of the control secret (wins when both are given)." })),
  },
  { additionalProperties: true },
);

/** `Authorization: Grant <grant>`: a live grant from a handoff claim, instead of a Bearer token. */
function grantOf(request: Request): string | null {
  const match = /^Grant\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "");
  return match ? match[1]! : null;
}

export function liveController(deps: AppDeps) {
  const admitUpload = uploadAdmission(deps);
  const { live, liveHub } = deps;
  return new Elysia({ name: "live" })
    .post(
      "/api/live",
      async ({ request, set }) => {
        const baseUrl = publicBaseUrl(request, deps.config);
        const grant = grantOf(request);
        let grantSha256: string | undefined;
        let release: () => void;
        if (grant !== null) {
          // A grant stands in for a Bearer token; which deck it covers is checked once the
          // bytes are in. Unknown or expired grants are refused before any byte is read.
          const found = await live.grantFor(grant);
          if (!found) throw new AppError("LIVE_GRANT_INVALID");
          grantSha256 = found.sha256;
          // A grant may be used again (a rehearsal, then the talk) for its two hours, so its
          // holder is held to the anonymous upload rate like anyone without a token.
          const address = clientAddress(request, deps);
          await deps.rateLimiter.admit(address);
          release = deps.uploadSlots.acquire(address, { perAddress: true });
        } else {
          ({ release } = await admitUpload(request));
        }
        try {
          const declared = Number(request.headers.get("content-length") ?? 0);
          if (declared > 0) await live.assertCapacity(Math.min(declared, deps.config.maxUploadBytes));
          const upload = await receiveMultipartPdf(request, deps.blobs, deps.config.maxUploadBytes, {
            idleMs: deps.config.bodyTimeoutMs,
            durable: true,
            notes: { maxBytes: notesFileLimit(deps.config.maxUploadBytes) },
          });
          // The PDF readers are shared per address (pdf/worker/fair-line): going live waits its turn like a present.
          const created = await asPdfOwner(pdfOwner(request, deps), () => live.create(upload, { baseUrl, ...(grantSha256 !== undefined ? { grantSha256 } : {}) }));
          deps.logger.info("live_started", { code: created.code, bytes: created.bytes, totalSlides: created.totalSlides, notes: created.notes !== undefined });
          set.status = 201;
          return created;
        } finally {
          release();
        }
      },
      {
        parse: "none",
        response: { 201: LiveCreated },
        detail: routeDoc({
          operationId: "goLive",
          summary: "Go live with a PDF deck",
          description:
            "Uploads the deck (streamed, same limits and problems as POST /api/present) and opens a live session: viewers follow at `viewerUrl`, a phone drives the talk at `controlUrl`, and the presenter's window connects to the WebSocket /api/live/{code}/ws with `presenterSecret` (see docs/api/live-protocol.md). An optional `notes` part carries a notes file beside the PDF (a .pdfpc file or a PowerPoint .pptx), judged as POST /api/present judges it (422 NOTES_FILE_UNREADABLE / NOTES_FILE_INVALID, 413 NOTES_FILE_TOO_LARGE; warnings in the answer's `notes`): its notes are kept with the talk for the remote and the presenter (GET /api/live/{code}/notes) until it ends. On a --require-auth server it needs a Bearer token or `Authorization: Grant <liveGrant>` from a handoff claim of the same deck.",
          tags: ["Live"],
          security: [{}, { bearerAuth: [] }, { liveGrant: [] }],
          requestBody: {
            required: true,
            content: { "multipart/form-data": { schema: UploadForm as never, encoding: NotesUploadEncoding } },
          },
          "x-problems": [400, 401, 403, 408, 413, 415, 422, 429, 500, 503, 507],
        }),
      },
    )
    .get(
      "/api/live/:code",
      async ({ params, request }) => {
        const { row } = await openTalk(deps, params.code, request);
        if (liveHub.isFull(row.code)) throw new AppError("LIVE_FULL", undefined, { headers: { "retry-after": "30" } });
        const counts = liveHub.counts(row.code);
        return {
          code: row.code,
          filename: row.filename,
          totalSlides: row.totalSlides,
          bytes: row.bytes,
          sha256: row.sha256,
          allowDownload: row.allowDownload,
          expiresAt: isoSeconds(row.expiresAt),
          paused: !counts.presenter,
          notes: row.notes !== null,
          counts,
        };
      },
      {
        params: CodeParams,
        response: { 200: LiveInfo },
        detail: routeDoc({
          operationId: "getLive",
          summary: "A live session's public facts",
          description: "What a viewer needs before it joins: the deck's digest and size, whether the presenter is connected, and how many follow. 503 LIVE_FULL when the session has --max-viewers viewers. Unknown codes count against the address (429 after too many).",
          tags: ["Live"],
          security: [{}],
          "x-problems": [404, 410, 429, 503],
        }),
      },
    )
    .get(
      "/api/live/:code/deck",
      async ({ params, request }) => {
        const { row } = await openTalk(deps, params.code, request);
        const etag = `"${row.sha256}"`;
        const range = parseRange(request.headers.get("range"), row.bytes);
        // If-Range: resume only if the bytes are still the same deck.
        const ifRange = request.headers.get("if-range");
        const useRange = range && (!ifRange || ifRange === etag) ? range : null;
        const blob = await deps.blobs.open(row.blobId, useRange ?? undefined);
        if (!blob) throw new AppError("LIVE_ENDED");
        return pdfResponse(blob.body, row, useRange, { etag });
      },
      {
        params: CodeParams,
        detail: routeDoc({
          operationId: "getLiveDeck",
          summary: "The deck of a live session",
          description: "The PDF viewers render. `ETag` is the quoted SHA-256 hex of the whole deck and `Repr-Digest` carries it too: check the stored bytes against it. A single `Range` (with `If-Range`) resumes an interrupted download (206). 410 once the session ended (its bytes are deleted then).",
          tags: ["Live"],
          security: [{}],
          parameters: [{ name: "Range", in: "header", required: false, schema: { type: "string" }, description: "A single byte range, e.g. bytes=1048576-" }],
          responses: {
            200: { description: "The deck.", content: { "application/pdf": { schema: { type: "string", format: "binary" } } } },
            206: { description: "The requested byte range of the deck.", content: { "application/pdf": { schema: { type: "string", format: "binary" } } } },
          },
          "x-problems": [404, 410, 416, 429],
        }),
      },
    )
    .get(
      "/api/live/:code/notes",
      async ({ params, request }) => {
        const row = await controlOnly(deps, params.code, request);
        const pdfpc = await live.notesText(row);
        return new Response(pdfpc, {
          headers: {
            "content-type": "application/json; charset=utf-8",
            "cache-control": "no-store",
            "referrer-policy": "no-referrer",
            "x-notes-filename": encodeURIComponent(row.notes!.filename),
            "x-notes-kind": row.notes!.kind,
            "x-notes-slides": String(row.notes!.slides),
          },
        });
      },
      {
        params: CodeParams,
        headers: NotesSecretHeaders,
        detail: routeDoc({
          operationId: "getLiveNotes",
          summary: "The notes that came with a live talk's deck",
          description:
            "Returns the notes of the notes file sent beside the PDF when going live (the `notes` part of POST /api/live), normalised to a .pdfpc document (JSON, pdfpcFormat 2, `pages[].idx` 0-based, `note` markdown), to the phone remote (`x-control-secret`) or the presenter (`x-presenter-secret`) — never to viewers: speaker notes are not in the PDF. The remote opens the deck with it, so its notes and slide grouping are the presenter's. 404 LIVE_NOTES_NOT_FOUND when the talk went live without one (LiveInfo's `notes` says which); 410 once the talk ended (its notes are deleted with the deck). Wrong secrets count per address and talk, as for end and rotate.",
          tags: ["Live"],
          security: [{ controlSecret: [] }, { presenterSecret: [] }],
          responses: { 200: pdfpcNotesResponse("sent") },
          "x-problems": [401, 403, 404, 410, 429, 500],
        }),
      },
    )
    .post(
      "/api/live/:code/end",
      async ({ params, request }) => {
        await presenterOnly(deps, params.code, request);
        await live.end(params.code, "ended");
        deps.logger.info("live_ended", { code: params.code, reason: "ended" });
        return { ok: true };
      },
      {
        params: CodeParams,
        parse: "none",
        response: { 200: t.Object({ ok: t.Boolean() }, { title: "LiveEnded" }) },
        detail: routeDoc({
          operationId: "endLive",
          summary: "End a live session",
          description: "Ends the talk at once: the server deletes its copy of the deck, every socket gets `ended`, and the code answers 410 from then on.",
          tags: ["Live"],
          security: [{ presenterSecret: [] }],
          parameters: [presenterSecretHeader],
          "x-problems": [401, 403, 404, 410, 429],
        }),
      },
    )
    .post(
      "/api/live/:code/rotate",
      async ({ params, request }) => {
        await presenterOnly(deps, params.code, request);
        return live.rotate(params.code, publicBaseUrl(request, deps.config));
      },
      {
        params: CodeParams,
        parse: "none",
        response: { 200: t.Object({ controlUrl: t.String({ description: "The new remote link; remotes holding the old one are disconnected." }) }, { title: "LiveRotated" }) },
        detail: routeDoc({
          operationId: "rotateLiveControl",
          summary: "Renew the remote link",
          description: "Replaces the control secret: remotes connected with the old one are disconnected (close 4403 CONTROL_ROTATED) and the old controlUrl stops working.",
          tags: ["Live"],
          security: [{ presenterSecret: [] }],
          parameters: [presenterSecretHeader],
          "x-problems": [401, 403, 404, 410, 429],
        }),
      },
    );
}

/**
 * The open talk `code` names, for a visitor at `request`'s address: an address blocked for
 * guessing codes is refused first (429) unless it opened this talk before, an unknown code
 * counts against it, and a talk found is remembered as opened by it. Every door that takes a
 * code goes through here (the info and deck routes, end and rotate, the socket).
 */
export async function openTalk(deps: AppDeps, code: string, request: Request) {
  const address = clientAddress(request, deps);
  await deps.liveJoinGuard.checkCode(address, code);
  let row: Awaited<ReturnType<AppDeps["live"]["open"]>>;
  try {
    row = await deps.live.open(code);
  } catch (error) {
    if (error instanceof AppError && error.code === "LIVE_NOT_FOUND") await deps.liveJoinGuard.failCode(address);
    throw error;
  }
  // Remembered for the other instances too; a store that cannot say so now fails no viewer.
  await deps.liveJoinGuard.openedTalk(address, row.code, row.expiresAt).catch((error: unknown) => deps.logger.error("live_open_not_remembered", { code: row.code, ...errorFields(error) }));
  return { row, address };
}

/** The presenter's doors (end, rotate): wrong secrets count per address and talk, and past the limit that address is refused them (429) — never the talk itself. */
async function presenterOnly(deps: AppDeps, code: string, request: Request): Promise<void> {
  await secretDoor(deps, code, request, "presenter", () => deps.live.authorizePresenter(code, request.headers.get("x-presenter-secret")));
}

/** The remote's door (the notes), which the presenter may use too: counted like the presenter's doors. */
function controlOnly(deps: AppDeps, code: string, request: Request) {
  const presenter = request.headers.get("x-presenter-secret");
  return secretDoor(deps, code, request, presenter ? "presenter" : "control", () => deps.live.authorizeControl(code, request.headers.get("x-control-secret"), presenter));
}

/** A door behind a secret of the talk `code`: a blocked address is refused first; a wrong secret is logged and counted. */
async function secretDoor<T>(deps: AppDeps, code: string, request: Request, role: "presenter" | "control", authorize: () => Promise<T>): Promise<T> {
  const { address } = await openTalk(deps, code, request);
  deps.liveJoinGuard.checkSecret(address, code);
  try {
    return await authorize();
  } catch (error) {
    if (error instanceof AppError && error.code === "LIVE_SECRET_INVALID") {
      deps.logger.info("live_auth_failed", { code, role, address });
      await deps.liveJoinGuard.failSecret(address, code);
    }
    throw error;
  }
}
