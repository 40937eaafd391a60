/// <reference lib="webworker" />
/**
 * @module client/export/export-worker
 * The export's own worker: a recording becomes a video or audio file here, never on a page's
 * main thread, so a talk can be presented while an earlier recording exports. It starts a
 * render worker of its own for the slides (mupdf), and carries mediabunny, which no page
 * loads. One job per worker; the page ends the worker to cancel.
 */
import type { ExportJob, ExportMessage } from "./export-protocol.ts";
import { runExport } from "./export-run.ts";

declare const self: DedicatedWorkerGlobalScope;

let started = false;

self.onmessage = (event: MessageEvent<{ type: "start"; job: ExportJob }>) => {
  if (event.data?.type !== "start" || started) return;
  started = true;
  void runExport(event.data.job, (message: ExportMessage) => self.postMessage(message));
};
