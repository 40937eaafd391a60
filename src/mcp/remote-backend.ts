/**
 * @module mcp/remote-backend
 * The tools of `deckhand mcp` (stdio, beside a desktop agent): present_pdf stages through the
 * REST API of a running deckhand server (remote/present-client, the client `deckhand present`
 * uses too) — the deck must live where the server can hand it to a browser — while check_pdf
 * needs no server and runs on this machine.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { ScratchFile } from "../core/blobs.ts";
import type { PdfReader } from "../core/pdf-reader.ts";
import { presentToServer } from "../remote/present-client.ts";
import { checkPdfSource, localFileSize } from "./check-source.ts";
import type { ToolBackend } from "./server.ts";

export interface RemoteBackendOptions {
  /** Base URL of the deckhand server, without a trailing slash. */
  serverUrl: string;
  token: string | null;
  /** Limit for the local check (the server applies its own to present). */
  maxUploadBytes: number;
  /** Runs the local check (a worker process, with the server's deadline and memory bound). */
  pdf: PdfReader;
}

/** A temp file in its own private directory under the OS temp dir; discard removes both. */
function osTempFile(): ScratchFile {
  const dir = mkdtempSync(join(tmpdir(), "deckhand-mcp-"));
  return { path: join(dir, "input.pdf"), discard: () => rm(dir, { recursive: true, force: true }) };
}

export function remoteBackend(options: RemoteBackendOptions): ToolBackend {
  return {
    async presentPdf(source, filename, notes) {
      if (source.kind === "path") await localFileSize(source.path);
      if (notes?.kind === "path") await localFileSize(notes.path, "notes file");
      return presentToServer(
        options,
        source.kind === "path" ? { kind: "file", path: source.path } : source,
        {
          filename: filename ?? (source.kind === "path" ? basename(source.path) : "presentation.pdf"),
          maxUploadBytes: options.maxUploadBytes,
          // The server judges the notes file (and its size) as it does any `notes` part.
          ...(notes ? { notes: notes.kind === "path" ? { kind: "file" as const, path: notes.path, filename: notes.filename } : notes } : {}),
        },
      );
    },
    checkPdf(source, notes) {
      return checkPdfSource(
        source,
        {
          maxBytes: options.maxUploadBytes,
          createTemp: osTempFile,
          checkFile: (path, meta, notesFile) => options.pdf.check(path, meta, undefined, notesFile),
        },
        notes,
      );
    },
  };
}
