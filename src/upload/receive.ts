/**
 * @module upload/receive
 * Stream an uploaded PDF to a temporary file, hashed on the way by the SHA-256 thread
 * (upload/digest-thread), which reads the file back behind the writes. Memory stays flat
 * whatever the file size: Elysia's own multipart parsing would buffer the whole body, so the
 * upload routes take the raw request and feed it to busboy chunk by chunk (reading the web
 * stream directly; `Readable.fromWeb` piping cost ~1.6× the time in bench/upload.ts).
 */
import { closeSync, fdatasync, open } from "node:fs";
import Busboy from "@fastify/busboy";
import { AppError, storageFailure } from "../errors.ts";
import { bodyChunks, DEFAULT_BODY_IDLE_MS } from "./body.ts";
import { digestAsWritten, type FileDigestJob } from "./digest-thread.ts";
import { FileWriter, writeAllAt } from "./file-writer.ts";
import type { ReceivedUpload } from "../handoff/service.ts";
import type { BlobStore, ScratchFile, TempFile } from "../handoff/ports/blobs.ts";

/** Room for multipart boundaries and part headers on top of the file itself. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/**
 * Collect garbage this often while streaming. With mupdf loaded, JSC collects the per-chunk
 * buffers late: a 200 MB upload grew the process by ~77 MB without this, ~5 MB with it.
 */
const GC_EVERY_BYTES = 16 * 1024 * 1024;
/**
 * When the upload will be kept (present), flush it to disk in the background every this many
 * bytes while the rest arrives, so the fsync that makes it durable at the end has little left
 * to do and never runs on the event loop.
 */
const SYNC_EVERY_BYTES = 32 * 1024 * 1024;
/** Body bytes handed to the parser at a time: at most what the file writer takes per `room()`. */
const FEED_BYTES = 64 * 1024;
/** The form field that carries the PDF (spec §4.1). */
export const FILE_FIELD = "file";

/** The one FILE_TOO_LARGE of every upload path (REST and MCP), naming the limit. */
export function fileTooLarge(maxBytes: number): AppError {
  const mb = Math.round((maxBytes / (1024 * 1024)) * 100) / 100;
  // The rest of the body is never read: close the connection rather than keep it (and a
  // graceful shutdown) waiting on bytes nobody wants.
  return new AppError(
    "FILE_TOO_LARGE",
    `The PDF is larger than this server's limit of ${mb} MB; make the PDF smaller (fewer or compressed images) or raise --max-upload-mb.`,
    { headers: { connection: "close" } },
  );
}

/** Reject early, before reading a byte, when the declared length is already too large. */
export function assertDeclaredLength(request: Request, maxBytes: number): void {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes + MULTIPART_OVERHEAD_BYTES) throw fileTooLarge(maxBytes);
}

export interface ReceiveOptions {
  /** A body that sends nothing for this long is abandoned (408). */
  idleMs?: number;
  /** The file will be kept: flush it to disk in the background while receiving. */
  durable?: boolean;
}

/**
 * Receive the `file` part of a multipart/form-data request into a temp file of `blobs`.
 * On failure nothing is left behind. Other parts are read and ignored.
 */
export async function receiveMultipartPdf(request: Request, blobs: Pick<BlobStore, "createTemp">, maxBytes: number, options: ReceiveOptions = {}): Promise<ReceivedUpload> {
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

  let upload: ReceivedUpload | null = null;
  let failure: AppError | null = null;
  let received = false;
  let sinceGc = 0;
  let sinceSync = 0;
  // The file is made before the body is read (a multipart body starts with its parts' headers,
  // so nothing is lost), and opened on the I/O threads: a create can wait on the directory.
  const temp = blobs.createTemp();
  let fd = -1;
  let writer: FileWriter | null = null;
  let digest: FileDigestJob | null = null;
  // A background fdatasync in flight: awaited before the fd is closed.
  let syncing: Promise<void> | null = null;
  const syncInBackground = () => {
    if (syncing || fd === -1) return;
    const target = fd;
    syncing = new Promise<void>((resolve) => fdatasync(target, () => resolve())).then(() => {
      syncing = null;
    });
  };
  // Attached before the first write, so a finish or error during end() is not missed.
  const parsed = new Promise<void>((resolve, reject) => {
    busboy.once("finish", resolve);
    busboy.once("error", reject);
  });
  parsed.catch(() => {}); // observed below; an early failure must not surface as unhandled

  busboy.on("file", (field, stream, filename) => {
    if (field !== FILE_FIELD || upload || failure || !writer) {
      stream.resume();
      return;
    }
    const current: ReceivedUpload = { temp, bytes: 0, sha256: "", uploadName: filename ?? null };
    upload = current;
    const out = writer;
    stream.on("data", (chunk: Buffer) => {
      if (failure) return;
      current.bytes += chunk.length;
      out.write(chunk);
      sinceSync += chunk.length;
      if (options.durable && sinceSync >= SYNC_EVERY_BYTES) {
        sinceSync = 0;
        syncInBackground();
      }
      sinceGc += chunk.length;
      if (sinceGc >= GC_EVERY_BYTES) {
        sinceGc = 0;
        Bun.gc(false);
      }
    });
    stream.on("limit", () => {
      failure ??= fileTooLarge(maxBytes);
    });
    // A truncated part errors the part stream as well as busboy; busboy's error decides.
    stream.on("error", () => {});
  });

  busboy.on("partsLimit", () => {
    failure ??= new AppError("BAD_REQUEST", 'The multipart/form-data body has too many parts; send only the field named "file" (curl -F file=@deck.pdf).');
  });

  try {
    try {
      fd = await openNew(temp.path);
    } catch (cause) {
      throw (failure = storageFailure(cause));
    }
    const out = (writer = new FileWriter(fd));
    const hashing = (digest = digestAsWritten(fd));
    for await (const value of bodyChunks(request, options.idleMs ?? DEFAULT_BODY_IDLE_MS)) {
      for (let offset = 0; offset < value.byteLength; offset += FEED_BYTES) {
        const length = Math.min(FEED_BYTES, value.byteLength - offset);
        // A slow disk holds this upload's reading back, not the event loop.
        if (!out.hasRoom(length)) await out.room(length);
        busboy.write(Buffer.from(value.buffer, value.byteOffset + offset, length));
        // Stop reading as soon as the upload is refused: the rest of the body is not wanted.
        if (failure) throw failure;
        if (out.failure) throw (failure ??= storageFailure(out.failure));
      }
      hashing.advance(out.settled);
    }
    busboy.end();
    await parsed;
    await out.drained();
    if (out.failure) failure ??= storageFailure(out.failure);
    if (failure) throw failure;
    const done = upload as ReceivedUpload | null;
    if (!done) throw new AppError("FILE_MISSING");
    // A browser form with no file chosen sends an empty part with an empty name.
    if (done.bytes === 0 && !done.uploadName) throw new AppError("FILE_MISSING");
    try {
      done.sha256 = await hashing.finish(done.bytes);
    } catch (cause) {
      throw (failure = storageFailure(cause));
    }
    received = true;
    return done;
  } catch (error) {
    if (failure) throw failure;
    if (error instanceof AppError) throw error;
    throw new AppError("BAD_REQUEST", "The multipart/form-data body is malformed or was cut off; send the upload again.", { cause: error });
  } finally {
    // Every queued write ends, and the SHA-256 thread is done with the file, before the fd is
    // closed (and its number reused).
    await (writer as FileWriter | null)?.drained();
    (writer as FileWriter | null)?.release();
    if (!received) await (digest as FileDigestJob | null)?.drop();
    if (syncing) await syncing;
    if (fd !== -1) closeSync(fd);
    // Closed first: a file still open cannot be removed everywhere (Windows).
    if (!received) await temp.discard();
  }
}

/**
 * Stage in-memory bytes (MCP's base64 input) through the same temp-file path as uploads,
 * hashed on the SHA-256 thread (an 80 MB deck is ~100 ms of hashing the event loop is spared).
 * `blobs` only needs `createTemp` (the stdio tools use a private OS temp dir).
 */
export async function receiveBytes<T extends ScratchFile = TempFile>(bytes: Uint8Array, uploadName: string | null, blobs: { createTemp(): T }): Promise<Omit<ReceivedUpload, "temp"> & { temp: T }> {
  const temp = blobs.createTemp();
  let fd = -1;
  try {
    fd = await openNew(temp.path);
    await writeAllAt(fd, bytes, 0);
    const sha256 = await digestAsWritten(fd).finish(bytes.length);
    const written = fd;
    fd = -1;
    closeSync(written);
    return { temp, bytes: bytes.length, sha256, uploadName };
  } catch (error) {
    // Closed first: a file still open cannot be removed everywhere (Windows).
    if (fd !== -1) closeSync(fd);
    await temp.discard();
    throw storageFailure(error);
  }
}

/**
 * Create `path` (it must not exist) on the I/O threads; resolves to its descriptor, open for
 * reading too (the SHA-256 thread reads the file back through it).
 */
function openNew(path: string): Promise<number> {
  return new Promise((resolve, reject) => open(path, "wx+", (error, fd) => (error ? reject(error) : resolve(fd))));
}
