/**
 * @module upload/file-part
 * busboy set up for an upload's parts: the one `file` part (the PDF) handed on chunk by chunk,
 * the optional `notes` part spooled to a temp file of its own (upload/part-spool), each with
 * its limit, and the failures every upload path answers alike. upload/receive drives it, on
 * the streaming and the whole-body path.
 */
import Busboy from "@fastify/busboy";
import { AppError, storageFailure } from "../base/errors.ts";
import type { ReceivedNotes } from "../core/received-upload.ts";
import type { ScratchFile } from "../core/blobs.ts";
import { FILE_FIELD, fileTooLarge, NOTES_FIELD, notesFileTooLarge } from "../tools/upload-limits.ts";
import { PartSpool } from "./part-spool.ts";

/** The `notes` part of one upload: its spool once the part has begun. */
export class NotesPart {
  spool: PartSpool | null = null;

  constructor(private readonly createTemp: () => ScratchFile) {}

  /** The part begins: its file is made (and opened on the I/O threads). */
  start(): PartSpool {
    this.spool ??= new PartSpool(this.createTemp());
    return this.spool;
  }

  /**
   * Once the body is parsed: the notes file, complete and closed; null when there was no
   * notes part, or an empty one with no name (what a browser form sends when no file was
   * chosen), whose file is removed.
   */
  async finish(parser: FilePartParser): Promise<ReceivedNotes | null> {
    const spool = this.spool;
    if (!spool) return null;
    if (parser.notesBytes === 0 && !parser.notesName) {
      await this.discard();
      return null;
    }
    try {
      await spool.finish();
    } catch (cause) {
      throw parser.fail(storageFailure(cause));
    }
    return { temp: spool.temp, bytes: spool.bytes, uploadName: parser.notesName };
  }

  /** Remove the notes file, if one was made (idempotent). */
  async discard(): Promise<void> {
    const spool = this.spool;
    this.spool = null;
    await spool?.discard();
  }
}

/**
 * busboy set up for the one `file` part of an upload: the limits, the failures every upload
 * path answers alike, and the part's bytes handed to `onData`.
 */
export class FilePartParser {
  private readonly busboy: ReturnType<typeof Busboy>;
  private readonly parsed: Promise<void>;
  /** Where the file part's bytes go, in order; set before the first `write`. */
  onData: (chunk: Buffer) => void = () => {};
  /** Whether the file part has begun. */
  private found = false;
  /** The file part's bytes so far. */
  bytes = 0;
  /** The name the client gave the file part, untrusted. */
  uploadName: string | null = null;
  /** The first reason to refuse the upload; the rest of the body is not wanted then. */
  failure: AppError | null = null;

  /** Where the notes part's bytes go, in order (when the route takes one). */
  onNotes: (chunk: Buffer) => void = () => {};
  /** Called as the notes part begins, before its first byte. */
  onNotesStart: () => void = () => {};
  /** Whether a notes part has begun. */
  private notesFound = false;
  /** The notes part's bytes so far. */
  notesBytes = 0;
  /** The name the client gave the notes part, untrusted. */
  notesName: string | null = null;

  /** `notesMaxBytes` null: a `notes` part is read and ignored like any other. */
  constructor(contentType: string, maxBytes: number, notesMaxBytes: number | null = null) {
    try {
      this.busboy = Busboy({
        headers: { "content-type": contentType },
        // A client's raw filename="…" bytes are UTF-8 in every current browser and in curl.
        defCharset: "utf8",
        // Each part's own limit is applied below; busboy's cuts off the larger of the two.
        limits: { fileSize: Math.max(maxBytes, notesMaxBytes ?? 0), files: 4, fields: 16, parts: 20, headerPairs: 20 },
      });
    } catch (cause) {
      throw new AppError("BAD_REQUEST", "The multipart/form-data header is malformed; let your HTTP client build it.", { cause });
    }
    // Attached before the first write, so a finish or error during end() is not missed.
    this.parsed = new Promise<void>((resolve, reject) => {
      this.busboy.once("finish", resolve);
      this.busboy.once("error", reject);
    });
    this.parsed.catch(() => {}); // observed by end(); an early failure must not surface as unhandled
    this.busboy.on("file", (field, stream, filename) => {
      if (field === NOTES_FIELD && notesMaxBytes !== null && !this.notesFound && !this.failure) {
        this.notesFound = true;
        this.notesName = filename ?? null;
        this.onNotesStart();
        this.readPart(stream, () => notesFileTooLarge(notesMaxBytes), (chunk) => {
          this.notesBytes += chunk.length;
          if (this.notesBytes > notesMaxBytes) return false;
          this.onNotes(chunk);
          return true;
        });
        return;
      }
      if (field !== FILE_FIELD || this.found || this.failure) {
        stream.resume();
        return;
      }
      this.found = true;
      this.uploadName = filename ?? null;
      this.readPart(stream, () => fileTooLarge(maxBytes), (chunk) => {
        this.bytes += chunk.length;
        if (this.bytes > maxBytes) return false;
        this.onData(chunk);
        return true;
      });
    });
    this.busboy.on("partsLimit", () => {
      this.fail(new AppError("BAD_REQUEST", 'The multipart/form-data body has too many parts; send only the field named "file" (and "notes" for a notes file): curl -F file=@deck.pdf.'));
    });
  }

  /**
   * Hand a part's chunks to `take` until the upload fails; `take` returns false when the part
   * passed its limit (our count, or busboy's `limit` event), which fails it with `tooLarge()`.
   */
  private readPart(stream: NodeJS.ReadableStream, tooLarge: () => AppError, take: (chunk: Buffer) => boolean): void {
    stream.on("data", (chunk: Buffer) => {
      if (!this.failure && !take(chunk)) this.fail(tooLarge());
    });
    stream.on("limit", () => this.fail(tooLarge()));
    // A truncated part errors the part stream as well as busboy; busboy's error decides.
    stream.on("error", () => {});
  }

  /** Record the first failure; returns the one that stands. */
  fail(error: AppError): AppError {
    this.failure ??= error;
    return this.failure;
  }

  /** Parse the next bytes of the body; throws as soon as the upload is refused. */
  write(chunk: Buffer): void {
    this.busboy.write(chunk);
    if (this.failure) throw this.failure;
  }

  /** The body is complete: resolves once parsed, throws when there is no usable file part. */
  async end(): Promise<void> {
    this.busboy.end();
    await this.parsed;
    if (this.failure) throw this.failure;
    if (!this.found) throw new AppError("FILE_MISSING");
    // A browser form with no file chosen sends an empty part with an empty name.
    if (this.bytes === 0 && !this.uploadName) throw new AppError("FILE_MISSING");
  }
}
