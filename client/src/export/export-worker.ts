/// <reference lib="webworker" />
/**
 * @module client/export/export-worker
 * The export's own worker: a recording becomes a video or audio file here, never on a page's
 * main thread, so a talk can be presented while an earlier recording exports. It reaches the
 * slides' render worker (mupdf) through a port: the page starts that worker, as a worker here
 * could hang starting one. It carries mediabunny, which no page loads. One job per worker; the
 * page ends both workers to cancel.
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
