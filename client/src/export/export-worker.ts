/// <reference lib="webworker" />
/**
 * @module client/export/export-worker
 * The export's own worker: a recording becomes a video or audio file here, never on a page's
 * main thread, so a talk can be presented while an earlier recording exports. It starts a
 * render worker's port for the slides (mupdf: a worker the page started, as a worker here could
 * hang starting one), and carries mediabunny, which no page loads. One job per worker; the page
 * ends both workers to cancel.
 */
import type { ExportMessage, ExportStart } from "./export-protocol.ts";
import { runExport } from "./export-run.ts";

declare const self: DedicatedWorkerGlobalScope;

let started = false;

self.onmessage = (event: MessageEvent<ExportStart>) => {
  if (event.data?.type !== "start" || started) return;
  started = true;
  void runExport(event.data.job, event.data.render, (message: ExportMessage) => self.postMessage(message));
};
