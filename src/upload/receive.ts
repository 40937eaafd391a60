/**
 * @module upload/receive
 * Stream an uploaded PDF to a temporary file, hashed on the way by the SHA-256 thread
 * (upload/digest-thread), which reads the file back behind the writes. Memory stays flat
 * whatever the file size: Elysia's own multipart parsing would buffer the whole body, so the
 * upload routes take the raw request and feed it to busboy chunk by chunk (reading the web
 * stream directly; `Readable.fromWeb` piping cost ~1.6× the time in bench/upload.ts).
 *
 * A body that declares a small length (BUFFERED_BODY_BYTES) is read whole into a reused buffer
 * instead, parsed by the same busboy in one call, its file part written with one write on the
 * I/O threads straight from that buffer and hashed in place (the buffer lent to the SHA-256
 * thread). For a small deck the per-chunk work of the streaming path (parser events, 64 KiB
 * writes on the event loop, block copies, reading the file back) cost more than its bytes: at
 * 32 concurrent 1 MB presents the event loop's CPU per upload fell from ~3.2 to ~1.6 ms
 * (bench/upload.ts).
 *
 * A route may accept a second file part, `notes` (the notes file beside the PDF): it
 * goes to a temp file of its own from the same blob store (upload/part-spool), on both paths,
 * bounded by its own limit (NOTES_FILE_MAX_BYTES, tools/upload-limits), and is discarded with the PDF's on any
 * failure. It is never held in memory whole on the streaming path, so a PowerPoint file full
 * of pictures costs the server disk, not memory. The parts are parsed by upload/file-part; their
 * names and limits are in tools/upload-limits (the declared-length check in upload/limits).
 */
import { closeSync, fdatasync } from "node:fs";
import { AppError, storageFailure } from "../base/errors.ts";
import { bodyChunks, DEFAULT_BODY_IDLE_MS } from "./body.ts";
import { BufferPool } from "./buffer-pool.ts";
import { digestAsWritten, digestBytes } from "./digest-thread.ts";
import { FileWriter, writeAllAt } from "./file-writer.ts";
import { FilePartParser, NotesPart } from "./file-part.ts";
import { assertDeclaredLength } from "./limits.ts";
import { openNew, PartSpool } from "./part-spool.ts";
import type { ReceivedNotes, ReceivedUpload } from "../core/received-upload.ts";
import type { BlobStore, ScratchFile, TempFile } from "../core/blobs.ts";

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
/**
 * Bodies that declare at most this many bytes are received whole in memory (see the module
 * comment). Uploads receive at most --max-uploads at once, so these buffers hold at most that
 * many times this (128 MiB at the default 64).
 */
export const BUFFERED_BODY_BYTES = 2 * 1024 * 1024;
/** Body buffers kept for the next small uploads: as many as 32 concurrent uploads hold (64 MiB). */
const SPARE_BODY_BUFFERS = 32;
export interface ReceiveOptions {
  /** A body that sends nothing for this long is abandoned (408). */
  idleMs?: number;
  /**
   * The file will be kept: flush it to disk in the background while receiving, and start
   * making it durable (`temp.sync`) through the same descriptor once it is written. The caller
   * awaits that with `temp.sync()`, which it may overlap with other work (validation).
   */
  durable?: boolean;
  /**
   * Take a `notes` part too (the notes file beside the PDF), of at most `maxBytes`, into a temp
   * file of its own (returned as `notes`). Without this a `notes` part is read and ignored.
   */
  notes?: { maxBytes: number };
}

/**
 * Receive the `file` part of a multipart/form-data request into a temp file of `blobs` (and,
 * with `options.notes`, the `notes` part into another). On failure nothing is left behind.
 * Other parts are read and ignored.
 */
export async function receiveMultipartPdf(request: Request, blobs: Pick<BlobStore, "createTemp">, maxBytes: number, options: ReceiveOptions = {}): Promise<ReceivedUpload> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(contentType)) {
    throw new AppError("BAD_REQUEST", 'Send the PDF as multipart/form-data with a field named "file" (curl -F file=@deck.pdf).');
  }
  assertDeclaredLength(request, maxBytes, options.notes?.maxBytes ?? 0);
  if (!request.body) throw new AppError("FILE_MISSING");
  const parser = new FilePartParser(contentType, maxBytes, options.notes?.maxBytes ?? null);
  // The notes part's file is made when that part begins (most uploads have none).
  const notes = new NotesPart(() => blobs.createTemp());
  parser.onNotesStart = () => notes.start();
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  const whole = Number.isSafeInteger(declared) && declared > 0 && declared <= BUFFERED_BODY_BYTES;
  // The file is made before the body is read (a multipart body starts with its parts' headers,
  // so nothing is lost), and opened on the I/O threads: a create can wait on the directory.
  const temp = blobs.createTemp();
  const opening = openNew(temp.path);
  const idleMs = options.idleMs ?? DEFAULT_BODY_IDLE_MS;
  let fd = -1;
  let received = false;
  // A kept upload is made durable through its descriptor once every byte is written, while the
  // digest finishes and then while the caller validates it: the file is not opened again for it.
  let syncing = null as Promise<void> | null;
  const written = () => {
    if (options.durable) syncing = temp.sync(fd);
  };
  try {
    // A whole body is read while the file is created; a streamed one needs the file first.
    const body = whole ? readWhole(request, declared, idleMs) : null;
    body?.catch(() => {}); // awaited below, unless the create failed first
    try {
      fd = await opening;
    } catch (cause) {
      throw parser.fail(storageFailure(cause));
    }
    // Both return only once nothing but the sync `written` started touches the descriptor.
    const { bytes, sha256 } = body ? await writeWhole(await body, parser, notes, fd, written) : await receiveStreamed(request, idleMs, parser, notes, fd, options.durable === true, written);
    const notesFile = await notes.finish(parser);
    received = true;
    return { temp, bytes, sha256, uploadName: parser.uploadName, ...(notesFile ? { notes: notesFile } : {}) };
  } catch (error) {
    if (parser.failure) throw parser.failure;
    if (error instanceof AppError) throw error;
    throw new AppError("BAD_REQUEST", "The multipart/form-data body is malformed or was cut off; send the upload again.", { cause: error });
  } finally {
    const sync = syncing as Promise<void> | null;
    if (fd === -1) void opening.then(closeSync, () => {});
    else if (!sync) closeSync(fd);
    else {
      // The sync in flight keeps the descriptor until it ends (before anything awaiting it).
      const open = fd;
      void sync.then(
        () => closeSync(open),
        () => closeSync(open),
      );
      if (!received) await sync.catch(() => {});
    }
    // Closed first: a file still open cannot be removed everywhere (Windows).
    if (!received) await Promise.all([temp.discard(), notes.discard()]);
  }
}

/**
 * Stream the body through `parser` into the file at `fd` (then `written()`), hashed behind the
 * writes. Returns (or throws) only once every write has ended and the SHA-256 thread is done
 * with the file.
 */
async function receiveStreamed(request: Request, idleMs: number, parser: FilePartParser, notes: NotesPart, fd: number, durable: boolean, written: () => void): Promise<{ bytes: number; sha256: string }> {
  const out = new FileWriter(fd);
  const hashing = digestAsWritten(fd);
  let finished = false;
  let sinceGc = 0;
  let sinceSync = 0;
  // A background fdatasync in flight: awaited before the fd is closed.
  let syncing: Promise<void> | null = null;
  parser.onData = (chunk) => {
    out.write(chunk);
    sinceSync += chunk.length;
    if (durable && sinceSync >= SYNC_EVERY_BYTES && !syncing) {
      sinceSync = 0;
      syncing = new Promise<void>((resolve) => fdatasync(fd, () => resolve())).then(() => {
        syncing = null;
      });
    }
    sinceGc += chunk.length;
    if (sinceGc >= GC_EVERY_BYTES) {
      sinceGc = 0;
      Bun.gc(false);
    }
  };
  parser.onNotes = (chunk) => notes.spool?.write(chunk);
  try {
    for await (const value of bodyChunks(request, idleMs)) {
      for (let offset = 0; offset < value.byteLength; offset += FEED_BYTES) {
        const length = Math.min(FEED_BYTES, value.byteLength - offset);
        // A slow disk holds this upload's reading back, not the event loop.
        if (!out.hasRoom(length)) await out.room(length);
        const spool = notes.spool;
        if (spool && !spool.hasRoom()) await spool.room();
        parser.write(Buffer.from(value.buffer, value.byteOffset + offset, length));
        if (out.failure) throw parser.fail(storageFailure(out.failure));
        if (notes.spool?.failure) throw parser.fail(storageFailure(notes.spool.failure));
      }
      hashing.advance(out.settled);
    }
    await parser.end();
    await out.drained();
    if (out.failure) throw parser.fail(storageFailure(out.failure));
    written();
    let sha256: string;
    try {
      sha256 = await hashing.finish(parser.bytes);
    } catch (cause) {
      throw parser.fail(storageFailure(cause));
    }
    finished = true;
    return { bytes: parser.bytes, sha256 };
  } finally {
    await out.drained();
    out.release();
    if (!finished) await hashing.drop();
    if (syncing) await syncing;
  }
}

/**
 * Give a chunk's memory back to the allocator now rather than at the next garbage collection:
 * reused while still mapped, it costs no page faults (at 32 concurrent 1 MB uploads, ~100 fewer
 * per upload; see upload/buffer-pool). Only a chunk that owns its whole buffer, as Bun's body
 * chunks do, is released; nothing else holds it once copied.
 */
function release(chunk: Uint8Array): void {
  if (chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength && chunk.buffer instanceof ArrayBuffer) chunk.buffer.transfer(0);
}

/** Body buffers of small uploads, reused (see upload/buffer-pool). */
const bodies = new BufferPool(BUFFERED_BODY_BYTES, SPARE_BODY_BUFFERS);

/**
 * Read a body of `declared` bytes (at most BUFFERED_BODY_BYTES) whole into a buffer of the
 * pool, within the idle deadline. Throws, the buffer given back, when the body is cut off
 * before its declared length.
 */
async function readWhole(request: Request, declared: number, idleMs: number): Promise<Uint8Array<ArrayBuffer>> {
  const buffer = new Uint8Array(bodies.take());
  let length = 0;
  try {
    for await (const chunk of bodyChunks(request, idleMs)) {
      // Bun never hands over more than the declared length; a client that sends it is malformed.
      if (length + chunk.byteLength > declared) throw new Error(`the body is longer than its Content-Length of ${declared} bytes`);
      buffer.set(chunk, length);
      length += chunk.byteLength;
      release(chunk);
    }
    if (length !== declared) throw new Error(`the body ended after ${length} of its ${declared} bytes`);
  } catch (error) {
    bodies.give(buffer.buffer);
    throw error;
  }
  return buffer.subarray(0, length);
}

/**
 * Parse a whole body in one call, write its file part to `fd` straight from the body's buffer
 * (then `written()`) and hash it from there too. Returns (or throws) once nothing of it
 * touches the file or the body.
 */
async function writeWhole(body: Uint8Array<ArrayBuffer>, parser: FilePartParser, notes: NotesPart, fd: number, written: () => void): Promise<{ bytes: number; sha256: string }> {
  // Views into the body's buffer, in order (one, unless the parser split the part).
  const parts: Buffer[] = [];
  parser.onData = (chunk) => parts.push(chunk);
  const notesParts: Buffer[] = [];
  parser.onNotes = (chunk) => notesParts.push(chunk);
  let buffer: ArrayBuffer | null = body.buffer;
  try {
    // A malformed body throws here, as it is: the caller answers it.
    parser.write(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    await parser.end();
    try {
      let position = 0;
      for (const part of parts) {
        await writeAllAt(fd, part, position);
        position += part.length;
      }
      // The notes part is written from the body's buffer too, before that buffer is lent to the
      // SHA-256 thread below (which detaches it).
      if (notes.spool) {
        for (const part of notesParts) notes.spool.write(part, { copy: false });
        await notes.spool.finish();
      }
      written();
      // The part is one run of the body (it always is when parsed in one call): hashed in place.
      const first = parts[0];
      if (first && first.buffer === buffer && parts.every((part, i) => i === 0 || part.byteOffset === parts[i - 1]!.byteOffset + parts[i - 1]!.length)) {
        const lent = buffer;
        buffer = null; // detached while the thread hashes it
        const digest = await digestBytes(new Uint8Array(lent, first.byteOffset, position));
        buffer = digest.buffer;
        return { bytes: position, sha256: digest.sha256 };
      }
      return { bytes: position, sha256: await digestAsWritten(fd).finish(position) };
    } catch (cause) {
      throw parser.fail(storageFailure(cause));
    }
  } finally {
    if (buffer) bodies.give(buffer);
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
 * Spool in-memory notes file bytes (MCP's notes_base64) to a temp file of `blobs`, as a
 * `notes` part is received: the PDF worker reads it from there. Nothing is left on failure.
 */
export async function receiveNotesBytes<T extends ScratchFile>(bytes: Uint8Array, uploadName: string | null, blobs: { createTemp(): T }): Promise<{ temp: T; bytes: number; uploadName: string | null }> {
  const temp = blobs.createTemp();
  const spool = new PartSpool(temp);
  spool.write(bytes, { copy: false });
  try {
    await spool.finish();
  } catch (error) {
    await spool.discard();
    throw storageFailure(error);
  }
  return { temp, bytes: bytes.length, uploadName };
}
