/**
 * @module mcp/remote-backend
 * The tools of `deckhand mcp` (stdio, beside a desktop agent): present_pdf stages through the
 * REST API of a running deckhand server — the deck must live where the server can hand it to
 * a browser — while check_pdf needs no server and runs on this machine.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { HandoffRecord } from "../handoff/record.ts";
import type { PdfReader } from "../pdf/worker/pool.ts";
import type { ScratchFile } from "../handoff/ports/blobs.ts";
import { checkPdfSource, localFileSize } from "./check-source.ts";
import { fileTooLarge } from "../upload/receive.ts";
import type { ToolBackend } from "./server.ts";
import { ToolFailure } from "./tool-failure.ts";

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
    async presentPdf(source, filename) {
      let body: Blob;
      if (source.kind === "path") {
        await localFileSize(source.path);
        body = Bun.file(source.path);
      } else {
        body = new Blob([source.bytes as BlobPart]);
      }
      const form = new FormData();
      form.append("file", body, filename ?? (source.kind === "path" ? basename(source.path) : "presentation.pdf"));
      let response: Response;
      try {
        response = await fetch(`${options.serverUrl}/api/present`, {
          method: "POST",
          body: form,
          headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
        });
      } catch {
        throw new ToolFailure(
          "SERVER_UNAVAILABLE",
          `No deckhand server answers at ${options.serverUrl}. Ask the user to start one with \`deckhand serve\` (or to configure \`deckhand mcp --server URL\`), then call present_pdf again.`,
        );
      }
      const payload = (await response.json().catch(() => null)) as Record<string, unknown> | null;
      if (response.ok && payload && typeof payload.url === "string") return payload as unknown as HandoffRecord;
      if (payload && typeof payload.code === "string" && typeof payload.detail === "string") throw new ToolFailure(payload.code, payload.detail);
      // Bun answers an over-long body with a bare 413 before deckhand sees it.
      if (response.status === 413) throw fileTooLarge(options.maxUploadBytes);
      throw new ToolFailure(
        "SERVER_UNAVAILABLE",
        `The server at ${options.serverUrl} answered ${response.status} without a deckhand problem document; check that --server points at a deckhand server.`,
      );
    },
    checkPdf(source) {
      return checkPdfSource(source, {
        maxBytes: options.maxUploadBytes,
        createTemp: osTempFile,
        checkFile: async (path, meta) => (await options.pdf.check(path, meta)) as unknown as Record<string, unknown>,
      });
    },
  };
}
