/**
 * @module client/export/file-sink
 * Where an export's bytes go as the muxer writes them, so the video is never whole in memory:
 * a file the user picked (`showSaveFilePicker`, where the browser has it: each write goes to
 * disk at its position), else a Blob assembled from parts. The muxer mostly appends but also
 * writes back — a cluster's size when the cluster ends, the header when the file is done — so
 * both take a write at any position. The Blob keeps the newest bytes as arrays and seals older
 * ones into Blobs, which browsers keep out of the page's heap (Chromium pages large blobs to
 * disk); a write back into a sealed part splits it around the new bytes (`Blob.slice` copies
 * nothing).
 */

/** Where an export writes. `close` gives the file when it was assembled here (null: it is on disk already). */
export interface ByteSink {
  /** Bytes in the file so far. */
  readonly size: number;
  write(data: Uint8Array, position: number): Promise<void>;
  close(): Promise<Blob | null>;
  abort(): Promise<void>;
}

/** Bytes kept as arrays before they are sealed into a Blob: a few of the muxer's writes. */
const SEAL_BYTES = 8 * 1024 * 1024;

interface Part {
  start: number;
  data: Uint8Array | Blob;
}

const sizeOf = (part: Part) => (part.data instanceof Uint8Array ? part.data.length : part.data.size);

/** A file assembled in the browser's Blob storage, written at any position. */
export class BlobFile implements ByteSink {
  private parts: Part[] = [];
  private length = 0;
  /** Bytes in array parts, not yet sealed. */
  private loose = 0;

  constructor(private readonly type: string) {}

  get size(): number {
    return this.length;
  }

  async write(data: Uint8Array, position: number): Promise<void> {
    if (position > this.length) this.append(new Uint8Array(position - this.length));
    const inside = Math.min(data.length, this.length - position);
    if (inside > 0) this.overwrite(data.subarray(0, inside), position);
    if (inside < data.length) this.append(data.slice(Math.max(0, inside)));
    if (this.loose > SEAL_BYTES) this.seal();
  }

  private append(bytes: Uint8Array): void {
    this.parts.push({ start: this.length, data: bytes });
    this.length += bytes.length;
    this.loose += bytes.length;
  }

  /** Index of the part holding byte `position` (parts are contiguous and sorted). */
  private partAt(position: number): number {
    let lo = 0;
    let hi = this.parts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.parts[mid]!.start <= position) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private overwrite(bytes: Uint8Array, position: number): void {
    let i = this.partAt(position);
    let done = 0;
    while (done < bytes.length) {
      const part = this.parts[i]!;
      const offset = position + done - part.start;
      const take = Math.min(bytes.length - done, sizeOf(part) - offset);
      const piece = bytes.subarray(done, done + take);
      if (part.data instanceof Uint8Array) {
        part.data.set(piece, offset);
        i++;
      } else {
        // A sealed part: split it around a copy of the new bytes.
        const blob = part.data;
        const replaced: Part[] = [];
        if (offset > 0) replaced.push({ start: part.start, data: blob.slice(0, offset) });
        replaced.push({ start: part.start + offset, data: piece.slice() });
        if (offset + take < blob.size) replaced.push({ start: part.start + offset + take, data: blob.slice(offset + take) });
        this.parts.splice(i, 1, ...replaced);
        this.loose += take;
        i += replaced.length;
      }
      done += take;
    }
  }

  /** Runs of array parts become one Blob each. */
  private seal(): void {
    const out: Part[] = [];
    let run: Part[] = [];
    const flush = () => {
      if (run.length) out.push({ start: run[0]!.start, data: new Blob(run.map((p) => p.data as Uint8Array<ArrayBuffer>)) });
      run = [];
    };
    for (const part of this.parts) {
      if (part.data instanceof Uint8Array) run.push(part);
      else {
        flush();
        out.push(part);
      }
    }
    flush();
    this.parts = out;
    this.loose = 0;
  }

  async close(): Promise<Blob> {
    const file = new Blob(
      this.parts.map((p) => p.data as Blob | Uint8Array<ArrayBuffer>),
      { type: this.type },
    );
    this.parts = [];
    return file;
  }

  async abort(): Promise<void> {
    this.parts = [];
  }
}

/** The writable of a file the user picked: each write lands on disk at its position. */
export function fileSink(writable: FileSystemWritableFileStream): ByteSink {
  let size = 0;
  return {
    get size() {
      return size;
    },
    write: (data, position) => {
      size = Math.max(size, position + data.length);
      return writable.write({ type: "write", position, data: data as Uint8Array<ArrayBuffer> });
    },
    close: async () => {
      await writable.close();
      return null;
    },
    abort: () => writable.abort(),
  };
}
