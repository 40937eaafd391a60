/**
 * @module upload/digest
 * Size and SHA-256 of a file on disk, streamed in 1 MiB reads: a deck can be hundreds of MB.
 * Used by `deckhand check` and by the MCP tools' `path` input.
 */
import { createReadStream } from "node:fs";

export interface FileDigest {
  bytes: number;
  /** Lowercase hex. */
  sha256: string;
}

export async function digestFile(path: string): Promise<FileDigest> {
  const hash = new Bun.CryptoHasher("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Uint8Array);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest("hex") };
}
