/**
 * @module mcp/local-backend
 * The tools inside a running server: present_pdf stages into this server's handoff store and
 * check_pdf checks in process — the same domain code as POST /api/present and /api/check.
 */
import type { AppDeps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { receiveBytes } from "../upload/receive.ts";
import { checkPdfSource } from "./check-source.ts";
import type { ToolBackend } from "./server.ts";

export interface LocalCaller {
  authenticated: boolean;
  /** Public base URL for handoff links. */
  baseUrl: string;
  /** For the anonymous rate limit. */
  clientAddress: string;
}

export function localBackend(deps: AppDeps, caller: LocalCaller): ToolBackend {
  return {
    async admit() {
      if (!caller.authenticated) await deps.rateLimiter.admit(caller.clientAddress);
    },
    async presentPdf(source, filename) {
      if (source.kind !== "bytes") throw new AppError("BAD_REQUEST", "Pass the PDF as pdf_base64.");
      await deps.handoff.assertCapacity(source.bytes.length);
      const upload = await receiveBytes(source.bytes, filename, deps.blobs);
      // stage() consumes the temp file in every case: moved into place or deleted.
      return deps.handoff.stage(upload, { authenticated: caller.authenticated, baseUrl: caller.baseUrl });
    },
    async checkPdf(source) {
      return checkPdfSource(source, {
        maxBytes: deps.config.maxUploadBytes,
        createTemp: () => deps.blobs.createTemp(),
        checkFile: (path, meta) => deps.pdf.check(path, meta),
      });
    },
  };
}
