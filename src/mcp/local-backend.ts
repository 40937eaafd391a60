/**
 * @module mcp/local-backend
 * The tools inside a running server: present_pdf stages into this server's handoff store and
 * check_pdf checks in process — the same domain code as POST /api/present and /api/check,
 * a notes file beside the PDF included (spooled to a temp file as the `notes` part is).
 */
import type { AppDeps } from "../composition/deps.ts";
import { AppError } from "../base/errors.ts";
import type { ReceivedUpload } from "../core/received-upload.ts";
import { receiveBytes, receiveNotesBytes } from "../upload/receive.ts";
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
    async presentPdf(source, filename, notesSource) {
      if (source.kind !== "bytes") throw new AppError("BAD_REQUEST", "Pass the PDF as pdf_base64.");
      if (notesSource && notesSource.kind !== "bytes") throw new AppError("BAD_REQUEST", "Pass the notes file as notes_base64.");
      await deps.handoff.assertCapacity(source.bytes.length);
      const notes = notesSource ? await receiveNotesBytes(notesSource.bytes, notesSource.filename, deps.blobs) : undefined;
      let upload: ReceivedUpload;
      try {
        upload = await receiveBytes(source.bytes, filename, deps.blobs);
      } catch (error) {
        await notes?.temp.discard();
        throw error;
      }
      // stage() consumes the temp files in every case: moved into place or deleted.
      return deps.handoff.stage(notes ? { ...upload, notes } : upload, { authenticated: caller.authenticated, baseUrl: caller.baseUrl });
    },
    async checkPdf(source, notes) {
      return checkPdfSource(
        source,
        {
          maxBytes: deps.config.maxUploadBytes,
          createTemp: () => deps.blobs.createTemp(),
          checkFile: (path, meta, notesFile) => deps.pdf.check(path, meta, undefined, notesFile),
        },
        notes,
      );
    },
  };
}
