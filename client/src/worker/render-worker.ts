/// <reference lib="webworker" />
/**
 * @module client/worker/render-worker
 * Renders slides with mupdf's WASM off the main thread. Requests are queued by priority
 * (the slide on screen first, look-ahead after) and the worker yields between renders so a
 * newer, more urgent request overtakes queued prefetches.
 */
import type { OpenResult, RenderResult, WorkerRequest, WorkerResponse } from "./protocol.ts";
// The same reader the server's checker uses, so the presenter shows exactly what the check
// report lists (browser-safe: mupdf comes in as a parameter).
import { readAttachmentBytes, readDeckExtras } from "../../../src/deck/extras.ts";

type Mupdf = typeof import("mupdf");
type PdfDoc = InstanceType<Mupdf["PDFDocument"]>;
type AnyDoc = InstanceType<Mupdf["Document"]>;

declare const self: DedicatedWorkerGlobalScope;

let mupdfLoading: Promise<Mupdf> | undefined;
function loadMupdf(): Promise<Mupdf> {
  mupdfLoading ??= (async () => {
    // A non-literal specifier keeps the bundler from inlining mupdf: it is served from
    // /vendor and finds its .wasm next to itself.
    const url = new URL(__DH_MUPDF_URL__, self.location.origin).href;
    const mupdf = (await import(url)) as Mupdf;
    mupdf.setLog(null);
    return mupdf;
  })();
  return mupdfLoading;
}
// Start compiling the WASM while the page is still reading the deck from storage.
void loadMupdf();

let current: { doc: AnyDoc; pdf: PdfDoc | null; pageCount: number } | null = null;
const pageSizes = new Map<number, { w: number; h: number }>();

async function open(data: ArrayBuffer): Promise<OpenResult> {
  const mupdf = await loadMupdf();
  current?.doc.destroy();
  pageSizes.clear();
  const doc = mupdf.Document.openDocument(new Uint8Array(data), "application/pdf");
  const pdf = doc.asPDF();
  const pageCount = doc.countPages();
  if (pageCount <= 0) throw new Error("The PDF has no pages.");
  current = { doc, pdf, pageCount };
  const firstPage = pageSize(mupdf, 1);
  const title = doc.getMetaData("info:Title")?.trim() || null;
  const extras = pdf ? readDeckExtras(mupdf, pdf) : { notes: {}, notesSource: {}, media: [], timer: {} };
  return { pageCount, title, firstPage, extras };
}

function pageSize(mupdf: Mupdf, n: number): { w: number; h: number } {
  let size = pageSizes.get(n);
  if (!size) {
    const page = current!.doc.loadPage(n - 1);
    const [x0, y0, x1, y1] = page.getBounds();
    page.destroy();
    size = { w: x1 - x0, h: y1 - y0 };
    pageSizes.set(n, size);
  }
  void mupdf;
  return size;
}

async function render(n: number, width: number): Promise<RenderResult> {
  const mupdf = await loadMupdf();
  if (!current) throw new Error("No document is open.");
  if (n < 1 || n > current.pageCount) throw new Error(`No slide ${n}.`);
  const started = performance.now();
  const page = current.doc.loadPage(n - 1);
  try {
    const [x0, y0, x1, y1] = page.getBounds();
    const w = x1 - x0;
    const h = y1 - y0;
    pageSizes.set(n, { w, h });
    const scale = Math.max(0.05, Math.min(width, 8192) / w);
    const matrix = mupdf.Matrix.scale(scale, scale);
    const bbox = mupdf.Rect.transform([x0, y0, x1, y1], matrix);
    // An opaque white page: alpha channel at 255 everywhere, so the premultiplied samples
    // equal the straight RGBA that ImageData expects.
    const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, bbox, true);
    pixmap.clear(255);
    const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pixmap);
    page.run(device, matrix);
    device.close();
    device.destroy();
    const pw = pixmap.getWidth();
    const ph = pixmap.getHeight();
    const pixels = new Uint8ClampedArray(pixmap.getPixels());
    pixmap.destroy();
    const bitmap = await createImageBitmap(new ImageData(pixels, pw, ph));
    return { page: n, w, h, bitmap, ms: performance.now() - started };
  } finally {
    page.destroy();
  }
}

async function attachment(name: string): Promise<Uint8Array | null> {
  const mupdf = await loadMupdf();
  if (!current?.pdf) return null;
  return readAttachmentBytes(mupdf, current.pdf, name);
}

const queue: WorkerRequest[] = [];
let draining = false;

function reply(message: WorkerResponse, transfer: Transferable[] = []) {
  self.postMessage(message, transfer);
}

async function drain() {
  if (draining) return;
  draining = true;
  while (queue.length) {
    // Highest priority first; ties in arrival order.
    let best = 0;
    for (let i = 1; i < queue.length; i++) {
      if (priorityOf(queue[i]!) > priorityOf(queue[best]!)) best = i;
    }
    const request = queue.splice(best, 1)[0]!;
    try {
      if (request.type === "open") reply({ id: request.id, ok: true, result: await open(request.data) });
      else if (request.type === "render") {
        const result = await render(request.page, request.width);
        reply({ id: request.id, ok: true, result }, [result.bitmap]);
      } else {
        const bytes = await attachment(request.name);
        reply({ id: request.id, ok: true, result: bytes }, bytes ? [bytes.buffer as ArrayBuffer] : []);
      }
    } catch (error) {
      reply({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) });
    }
    // Let newer messages in before choosing the next job.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  draining = false;
}

function priorityOf(request: WorkerRequest): number {
  if (request.type === "open") return 1000;
  if (request.type === "attachment") return 500;
  return request.priority;
}

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  queue.push(event.data);
  void drain();
};
