/**
 * @module core/blobs
 * The bytes of staged decks. An upload is received into a local temporary file (streamed,
 * hashed, validated by a PDF worker), then committed under its session id: renamed into the
 * data dir, or streamed to a bucket as a multipart upload. Downloads get an opened body,
 * never a path: the HTTP layer does not know which backend runs.
 */

export interface TempFile {
  /** A local file: the upload is written here, and the PDF workers read it from here. */
  readonly path: string;
  /**
   * Make the bytes written so far durable (fsync; idempotent). `commit` does it anyway when
   * it needs it; a caller may start it earlier, e.g. while the PDF is being validated. The
   * writer may pass the descriptor it still has open (the file is not opened again); it keeps
   * that descriptor open until the returned promise settles.
   */
  sync(fd?: number): Promise<void>;
  /** Delete the temporary file (idempotent). */
  discard(): Promise<void>;
}

/** A temporary file that will never be kept (a check's input): no durability needed. */
export type ScratchFile = Pick<TempFile, "path" | "discard">;

/** A byte range, both ends included (as in `Content-Range`). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * What a `Response` takes as its body, in whichever types are loaded (Bun's on the server,
 * the DOM's where tests drive pages too).
 */
export type ResponseBody = NonNullable<ConstructorParameters<typeof Response>[0]>;

export interface OpenedBlob {
  /**
   * The bytes as a response body: a file the server sends without copying, or a stream
   * whose first bytes have already arrived (so a deck deleted meanwhile is found out before
   * any status is sent, never as a truncated body).
   */
  body: ResponseBody;
}

export interface BlobStore {
  /** A new, reserved local temporary file; the sweeper leaves it alone until discarded/committed. */
  createTemp(): TempFile;
  /**
   * Durably store a finished temp file as the bytes of `id`. Until `settle(id)` is called,
   * the sweeper treats `id` as in use even though it has no row yet.
   */
  commit(temp: TempFile, id: string): Promise<void>;
  /** The row of `id` is written (or will never be): the sweeper may judge it again. */
  settle(id: string): void;
  /** Open the bytes of `id` (or the range of them) for a download; null when they are gone. */
  open(id: string, range?: ByteRange): Promise<OpenedBlob | null>;
  /** Delete the bytes of `id`; false when there were none. */
  remove(id: string): Promise<boolean>;
  /**
   * Ids whose bytes are stored and that no upload is committing right now (on this instance,
   * or, for a shared bucket, recently on any): the candidates of the orphan sweep.
   */
  listIds(): Promise<string[]>;
  /** Remove temp files no upload of this process uses (a crashed run's); returns how many. */
  sweepTemps(): Promise<number>;
  /** Stop background work and release what the store holds (idempotent). */
  close?(): Promise<void>;
}
