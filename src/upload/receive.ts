/**
 * @module upload/receive
 * Stream an uploaded PDF to a temporary file, hashing it on the way. Memory stays flat
 * whatever the file size: Elysia's own multipart parsing would buffer the whole body, so the
 * upload routes take the raw request and parse it here with busboy.
 */
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import Busboy from "@fastify/busboy";
import { AppError } from "../errors.ts";
import type { ReceivedUpload } from "../handoff/service.ts";
import type { BlobStore } from "../store/files.ts";

/** Room for multipart boundaries and part headers on top of the file itself. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/** The form field that carries the PDF (spec §4.1). */
export const FILE_FIELD = "file";

function tooLarge(maxBytes: number): AppError {
  const mb = Math.round((maxBytes / (1024 * 1024)) * 100) / 100;
  // The rest of the body is never read: close the connection rather than keep it (and a
  // graceful shutdown) waiting on bytes nobody wants.
  return new AppError("FILE_TOO_LARGE", `The upload is larger than this server's limit of ${mb} MB; make the PDF smaller or raise --max-upload-mb.`, {
    headers: { connection: "close" },
  });
}

/** Reject early, before reading a byte, when the declared length is already too large. */
export function assertDeclaredLength(request: Request, maxBytes: number): void {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes + MULTIPART_OVERHEAD_BYTES) throw tooLarge(maxBytes);
}

/**
 * Receive the `file` part of a multipart/form-data request into a temp file of `blobs`.
 * On failure nothing is left behind. Other parts are read and ignored.
 */
export async function receiveMultipartPdf(request: Request, blobs: BlobStore, maxBytes: number): Promise<ReceivedUpload> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(contentType)) {
    throw new AppError("BAD_REQUEST", 'Send the PDF as multipart/form-data with a field named "file" (curl -F file=@deck.pdf).');
  }
  assertDeclaredLength(request, maxBytes);
  if (!request.body) throw new AppError("FILE_MISSING");

  let busboy: ReturnType<typeof Busboy>;
  try {
    busboy = Busboy({
      headers: { "content-type": contentType },
      // A client's raw filename="…" bytes are UTF-8 in every current browser and in curl.
      defCharset: "utf8",
      limits: { fileSize: maxBytes, files: 4, fields: 16, parts: 20, headerPairs: 20 },
    });
  } catch (cause) {
    throw new AppError("BAD_REQUEST", "The multipart/form-data header is malformed; let your HTTP client build it.", { cause });
  }

  let received: { upload: ReceivedUpload; written: Promise<void> } | null = null;
  let failure: AppError | null = null;
  const fail = (error: AppError) => {
    failure ??= error;
    busboy.destroy(error);
  };

  busboy.on("file", (field, stream, filename) => {
    if (field !== FILE_FIELD || received || failure) {
      stream.resume();
      return;
    }
    const temp = blobs.createTemp();
    const hash = createHash("sha256");
    const upload: ReceivedUpload = { temp, bytes: 0, sha256: "", uploadName: filename ?? null };
    stream.on("data", (chunk: Buffer) => {
      hash.update(chunk);
      upload.bytes += chunk.length;
    });
    stream.on("limit", () => fail(tooLarge(maxBytes)));
    const written = pipeline(stream, createWriteStream(temp.path, { flags: "wx" })).then(() => {
      upload.sha256 = hash.digest("hex");
    });
    // Observed below; keep an early failure from surfacing as an unhandled rejection.
    written.catch(() => {});
    received = { upload, written };
  });

  try {
    await pipeline(Readable.fromWeb(request.body as unknown as import("node:stream/web").ReadableStream<Uint8Array>), busboy);
    const done = received as { upload: ReceivedUpload; written: Promise<void> } | null;
    if (failure) throw failure;
    if (!done) throw new AppError("FILE_MISSING");
    await done.written;
    if (failure) throw failure;
    // A browser form with no file chosen sends an empty part with an empty name.
    if (done.upload.bytes === 0 && !done.upload.uploadName) throw new AppError("FILE_MISSING");
    return done.upload;
  } catch (error) {
    (received as { upload: ReceivedUpload } | null)?.upload.temp.discard();
    if (failure) throw failure;
    if (error instanceof AppError) throw error;
    throw new AppError("BAD_REQUEST", "The multipart/form-data body is malformed or was cut off; send the upload again.", { cause: error });
  }
}

/** Stage in-memory bytes (MCP's base64 input) through the same temp-file path as uploads. */
export async function receiveBytes(bytes: Uint8Array, uploadName: string | null, blobs: BlobStore): Promise<ReceivedUpload> {
  const temp = blobs.createTemp();
  try {
    await writeFile(temp.path, bytes, { flag: "wx" });
  } catch (error) {
    temp.discard();
    throw error;
  }
  return { temp, bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex"), uploadName };
}
