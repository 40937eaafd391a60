/**
 * @module core/received-upload
 * An upload as the receivers (upload/receive for REST, the MCP tools' base64) hand it to the
 * domains (handoff, live): the bytes in a temp file of the blob store, with what was learnt
 * while receiving them. Declared here so the receivers do not import a domain.
 */
import type { ScratchFile, TempFile } from "./blobs.ts";

export interface ReceivedUpload {
  temp: TempFile;
  bytes: number;
  sha256: string;
  /** The name the client gave, untrusted. */
  uploadName: string | null;
  /** The notes file that came beside the PDF, when one did. */
  notes?: ReceivedNotes;
}

/**
 * A notes file received beside a PDF, in a temp file of its own. Never kept as a file: a PDF
 * worker reads it, its normalised notes go into the session row, and the file is discarded
 * with the upload's.
 */
export interface ReceivedNotes {
  temp: ScratchFile;
  bytes: number;
  /** The name the client gave, untrusted. */
  uploadName: string | null;
}
