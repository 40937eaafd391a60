/**
 * @module store/s3/blobs
 * Staged PDFs in an S3-compatible bucket (`--storage s3://bucket/prefix`: AWS S3, Cloudflare
 * R2, MinIO, SeaweedFS, …) through Bun's built-in client, which reads the credentials, the
 * endpoint and the region from the standard `S3_*` / `AWS_*` variables.
 *
 * An upload is received into a local spool file as on the embedded default (streamed,
 * hashed, validated by a PDF worker from that file), then streamed to the bucket as a
 * multipart upload in parts of PART_BYTES, with at most QUEUE parts in flight: memory stays
 * flat whatever the deck's size. Only then is the row written.
 *
 * Several instances share the bucket, and an object whose row is not written yet belongs to
 * a commit in flight somewhere. The orphan sweep therefore judges only objects older than
 * `commitGraceMs` (besides this process's own commits): a crashed commit's object is removed
 * by the first sweep after that, never one whose row is a moment away.
 */
import { hostname } from "node:os";
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
// The type only: `Bun.S3Client` is read where a bucket is opened (no S3 client at every start).
import type { S3Client } from "bun";
import type { BlobStore, ByteRange, OpenedBlob, TempFile } from "../../core/blobs.ts";
import { withDeadline } from "../dependencies.ts";
import { TempSpool } from "../temp-spool.ts";
import { processAlive } from "../../base/process-alive.ts";

/** Multipart part size: S3's minimum (5 MiB), so an upload holds little memory. */
const PART_BYTES = 5 * 1024 * 1024;
/** Parts uploaded at once per deck. */
const QUEUE = 2;
/** Tries of one delete, and the pause before the next (×attempt): a transient error passes. */
const DELETE_ATTEMPTS = 4;
const DELETE_BACKOFF_MS = 50;
/** An object this young without a row may be a commit in flight on another instance. */
export const COMMIT_GRACE_MS = 10 * 60_000;
const ID_KEY = /^([A-Za-z0-9_-]{1,64})\.pdf$/;

export interface S3Location {
  bucket: string;
  /** Key prefix, "" or ending in "/". */
  prefix: string;
}

/** Parse `s3://bucket/prefix`; null when `url` is not of that form. */
export function parseS3Url(url: string): S3Location | null {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!match) return null;
  const prefix = (match[2] ?? "").replace(/^\/+|\/+$/g, "");
  return { bucket: match[1]!, prefix: prefix ? `${prefix}/` : "" };
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: string; name?: string } | null)?.code;
  return code === "NoSuchKey" || code === "NotFound" || code === "ERR_S3_FILE_NOT_FOUND";
}

export interface S3BlobStoreOptions {
  location: S3Location;
  /** Where this instance's spool lives: `<dataDir>/spool/<host>-<pid>`. */
  dataDir: string;
  /** Extra client options (tests); credentials and endpoint otherwise come from the environment. */
  client?: ConstructorParameters<typeof S3Client>[0];
  commitGraceMs?: number;
  /** The wall clock the bucket's object times are compared with. */
  now?: () => number;
  /**
   * Deadline of each step of a transfer (a part written, a chunk read), in ms: a hung bucket
   * fails the upload or download within it, while a large deck may take as long as it keeps moving.
   */
  stepTimeoutMs?: number;
}

/** Default step deadline when none is given (tests that build the store directly). */
const STEP_TIMEOUT_MS = 30_000;

export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly prefix: string;
  private readonly spoolRoot: string;
  private readonly spoolName: string;
  private readonly spool: TempSpool;
  private readonly committing = new Set<string>();
  private readonly commitGraceMs: number;
  private readonly now: () => number;
  private readonly stepMs: number;

  constructor(options: S3BlobStoreOptions) {
    this.client = new Bun.S3Client({ ...options.client, bucket: options.location.bucket });
    this.prefix = options.location.prefix;
    this.spoolRoot = join(options.dataDir, "spool");
    this.spoolName = `${hostname()}-${process.pid}`;
    this.spool = new TempSpool(join(this.spoolRoot, this.spoolName));
    this.commitGraceMs = options.commitGraceMs ?? COMMIT_GRACE_MS;
    this.now = options.now ?? Date.now;
    this.stepMs = options.stepTimeoutMs ?? STEP_TIMEOUT_MS;
  }

  private step<T>(work: Promise<T> | T, what: string): Promise<T> {
    return withDeadline(Promise.resolve(work), this.stepMs, `the bucket (${what})`);
  }

  /** Whether the bucket answers at all (the /healthz probe): a HEAD of a key never written. */
  async probe(): Promise<void> {
    await this.client.exists(`${this.prefix}.deckhand-probe`);
  }

  private key(id: string): string {
    return `${this.prefix}${id}.pdf`;
  }

  createTemp(): TempFile {
    return this.spool.create();
  }

  async commit(temp: TempFile, id: string): Promise<void> {
    this.committing.add(id);
    try {
      const writer = this.client.file(this.key(id)).writer({ partSize: PART_BYTES, queueSize: QUEUE, retry: 3, type: "application/pdf" });
      let pending = 0;
      try {
        for await (const chunk of Bun.file(temp.path).stream()) {
          await this.step(writer.write(chunk), "write");
          pending += chunk.byteLength;
          // Wait for the parts in flight before reading more: the file is read no faster than
          // the bucket takes it.
          if (pending >= PART_BYTES) {
            await this.step(writer.flush(), "flush");
            pending = 0;
          }
        }
        await this.step(writer.end(), "end");
      } catch (error) {
        // Abort the multipart upload, without waiting on a bucket that may be hung.
        await this.step(writer.end(error as Error), "abort").catch(() => {});
        throw error;
      }
    } catch (error) {
      this.committing.delete(id);
      throw error;
    }
  }

  settle(id: string): void {
    this.committing.delete(id);
  }

  async open(id: string, range?: ByteRange): Promise<OpenedBlob | null> {
    const file = this.client.file(this.key(id));
    const reader = (range ? file.slice(range.start, range.end + 1) : file).stream().getReader();
    // The GET is under way once its first bytes are here: a missing object is found out now,
    // before a status is sent. (A `Response` of the S3 file itself would be a redirect to a
    // presigned URL, which a browser that cannot reach the bucket could not follow.)
    let first: Awaited<ReturnType<typeof reader.read>>;
    try {
      first = await this.step(reader.read(), "read");
    } catch (error) {
      if (isMissing(error)) return null;
      void reader.cancel().catch(() => {});
      throw error;
    }
    const step = this.step.bind(this);
    return {
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          if (first.done) controller.close();
          else controller.enqueue(first.value);
        },
        async pull(controller) {
          // A bucket that hangs mid-body fails the download now, not when the socket idles out.
          const next = await step(reader.read(), "read").catch((error: unknown) => {
            void reader.cancel().catch(() => {});
            throw error;
          });
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        cancel(reason) {
          return reader.cancel(reason);
        },
      }),
    };
  }

  /**
   * Deletes are idempotent in S3: true once the delete is accepted, whether or not it existed.
   * A transient failure (a 5xx, a dropped connection) is retried a few times.
   */
  async remove(id: string): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.delete(this.key(id));
        return true;
      } catch (error) {
        if (attempt >= DELETE_ATTEMPTS) throw error;
        await Bun.sleep(DELETE_BACKOFF_MS * attempt);
      }
    }
  }

  async listIds(): Promise<string[]> {
    const ids: string[] = [];
    const youngest = this.now() - this.commitGraceMs;
    let continuationToken: string | undefined;
    do {
      const page = await this.client.list({ prefix: this.prefix, ...(continuationToken ? { continuationToken } : {}) });
      for (const object of page.contents ?? []) {
        const match = ID_KEY.exec(object.key.slice(this.prefix.length));
        if (!match || this.committing.has(match[1]!)) continue;
        const modified = object.lastModified ? Date.parse(object.lastModified) : 0;
        if (modified > youngest) continue;
        ids.push(match[1]!);
      }
      continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
    } while (continuationToken);
    return ids;
  }

  /** This process's unused spool files, and the spools of crashed processes on this host. */
  async sweepTemps(): Promise<number> {
    let removed = await this.spool.sweep();
    const host = `${hostname()}-`;
    for (const name of await readdir(this.spoolRoot)) {
      if (name === this.spoolName || !name.startsWith(host)) continue;
      const pid = Number(name.slice(host.length));
      if (!Number.isInteger(pid) || processAlive(pid)) continue;
      const dir = join(this.spoolRoot, name);
      removed += (await readdir(dir)).length;
      await rm(dir, { recursive: true, force: true });
    }
    return removed;
  }

  async close(): Promise<void> {
    await rm(this.spool.dir, { recursive: true, force: true });
  }
}
