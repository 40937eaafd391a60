/// <reference lib="webworker" />
/**
 * @module client/worker/render-worker
 * Renders slides with mupdf's WASM off the main thread. Requests are queued by priority
 * (the slide on screen first, notes and look-ahead after) and the worker yields between
 * jobs so a newer, more urgent request overtakes queued prefetches. A deck is judged by the
 * same rule as on the server (src/deck/accept.ts): what the server refuses, this refuses.
 *
 * A deck whose pages carry their notes (Beamer's notes on a second screen) is split here,
 * once, for every window: sizes, renders, zoom clips and page text are the slide half's, in
 * the slide half's coordinates, so the audience, viewers, thumbnails, the overview, the
 * next-slide preview, zoom and ink never see the notes half. It is read only on request
 * (`notes-text`, `notes-picture`), for the presenter.
 *
 * mupdf reads a deck through a stream over the page's bytes, never from a copy in its WASM
 * heap: a 20 MB deck copied there cost 150–250 ms of fresh memory before the first slide. The
 * claim's probe sends the bytes as they download (`receive`, handled on arrival, not queued),
 * so the deck is here the moment the last byte is.
 *
 * A worker serves one client: the page that started it, or the port that page hands it
 * (`serve`: an export's worker reaches its render worker so).
 */
import type { Clip, LayoutResult, OpenResult, PostTarget, ReceiveMessage, RenderedPixels, ServeMessage, WorkerRequest, WorkerResponse } from "./protocol.ts";
import { writeInkAnnotations } from "./ink-annotations.ts";
import { ReceivedDeck } from "./received-deck.ts";
import { EMPTY_EXTRAS } from "./protocol.ts";
// The same readers the server's checker uses, so the presenter shows exactly what the check
// report lists (browser-safe: mupdf comes in as a parameter).
import { assessPdf } from "../../../src/deck/accept.ts";
import { readAttachmentBytes, readDeckExtras } from "../../../src/deck/extras.ts";
import { readSlideLabels } from "../../../src/deck/slide-groups.ts";
import { readPageDurations } from "../../../src/deck/page-durations.ts";
import type { DeckExtras } from "../../../src/deck/sidecar/types.ts";
import { notesRect, slideRect, type NotesLayout, type NotesPosition, type Rect } from "../../../src/deck/notes-layout.ts";
import { effectiveLayout } from "../model/deck-settings.ts";
import { detectNotesLayout } from "../../../src/deck/notes-layout-detect.ts";
import { readNotesText } from "../../../src/deck/notes-text.ts";
import { readPdfpcMetadata } from "../../../src/deck/xmp.ts";
import { readOutline } from "../../../src/deck/outline.ts";
import { textIn } from "./page-text.ts";

type Mupdf = typeof import("mupdf");
type PdfDoc = InstanceType<Mupdf["PDFDocument"]>;

declare const self: DedicatedWorkerGlobalScope;

/** Characters of page text kept as the slide's text alternative: a screen reader's summary. */
const MAX_TEXT = 600;

class Refused extends Error {
  constructor(readonly code: string, detail: string) {
    super(detail);
  }
}

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

interface Current {
  pdf: PdfDoc;
  pageCount: number;
  /** What the deck says about its notes layout. */
  detected: NotesLayout;
  /** The split in force: the override, else `detected`. */
  layout: NotesLayout;
  /** Generation of the split, stamped on every render (the page side drops older ones). */
  gen: number;
}

let current: Current | null = null;
/** Whole-page sizes in points (the split is applied on top). */
const pageSizes = new Map<number, { w: number; h: number }>();

/** The bytes the claim sends while it downloads (`receive`). */
const received = new ReceivedDeck();

/** A mupdf stream over bytes in this worker's memory (mupdf copies only what it reads). */
function streamOver(mupdf: Mupdf, bytes: Uint8Array) {
  return new mupdf.Stream({
    fileSize: () => bytes.byteLength,
    read: (memory: Uint8Array, offset: number, length: number, position: number) => {
      const part = bytes.subarray(position, Math.min(position + length, bytes.byteLength));
      memory.set(part, offset);
      return part.byteLength;
    },
    close: () => {},
  });
}

async function open(data: ArrayBuffer | undefined, expected: number | undefined, override?: NotesPosition, notesFile?: string): Promise<OpenResult> {
  const bytes = data ? new Uint8Array(data) : received.take(expected ?? -1);
  const mupdf = await loadMupdf();
  current?.pdf.destroy();
  current = null;
  pageSizes.clear();
  let pdf: PdfDoc | null;
  const stream = streamOver(mupdf, bytes);
  try {
    pdf = mupdf.Document.openDocument(stream, "application/pdf").asPDF();
  } catch {
    throw new Refused("PDF_UNREADABLE", "The PDF is damaged and cannot be read; export it again from its source.");
  } finally {
    // The document keeps its own reference to the stream (as mupdf.js does with a Buffer it made).
    stream.destroy();
  }
  if (!pdf) throw new Refused("PDF_UNREADABLE", "The file is not a PDF.");
  const verdict = assessPdf(pdf);
  if (!verdict.ok) {
    pdf.destroy();
    throw new Refused(verdict.code, verdict.detail);
  }
  // pdfpc.sty's XMP field NotesPosition, else the page geometry and beamer's notes-page structure.
  const detected = detectNotesLayout(pdf, verdict.pageCount, readPdfpcMetadata(pdf).metadata).layout;
  current = { pdf, pageCount: verdict.pageCount, detected, layout: effectiveLayout(detected, override ?? null), gen: 0 };
  return { pageCount: verdict.pageCount, title: verdict.title, firstPage: slideSize(1), labels: readSlideLabels(pdf, verdict.pageCount, notesFile), durations: readPageDurations(pdf, verdict.pageCount), layout: current.layout, detected };
}

function setLayout(position: NotesPosition | null, gen: number): LayoutResult {
  if (!current) throw new Error("No document is open.");
  current.layout = effectiveLayout(current.detected, position);
  current.gen = gen;
  return { layout: current.layout, detected: current.detected, firstPage: slideSize(1) };
}

function position(): NotesPosition {
  return current?.layout.kind === "beamer-second-screen" ? current.layout.position : "none";
}

/** The slide half of page `n` in whole-page points from its top-left (the whole page without a layout). */
function slideArea(n: number): Rect {
  return slideRect(pageSize(n), position());
}

/** The size every window sees for page `n`: its slide half. */
function slideSize(n: number): { w: number; h: number } {
  const { w, h } = slideArea(n);
  return { w, h };
}

function pageSize(n: number): { w: number; h: number } {
  let size = pageSizes.get(n);
  if (!size) {
    const page = current!.pdf.loadPage(n - 1);
    const [x0, y0, x1, y1] = page.getBounds();
    page.destroy();
    size = { w: x1 - x0, h: y1 - y0 };
    pageSizes.set(n, size);
  }
  return size;
}

function doc(n?: number): PdfDoc {
  if (!current) throw new Error("No document is open.");
  if (n !== undefined && (n < 1 || n > current.pageCount)) throw new Error(`No slide ${n}.`);
  return current.pdf;
}

async function extras(notesFile?: string): Promise<DeckExtras> {
  const mupdf = await loadMupdf();
  if (!current) return EMPTY_EXTRAS;
  const where = position();
  // The deck's notes file (stored with it) and the split in force: with a notes layout the
  // notes half's text is a notes source of its own (part A's readDeckExtras resolves it).
  const read = readDeckExtras(mupdf, current.pdf, { notesPosition: where, ...(notesFile ? { notesFile } : {}) });
  if (where === "none") return read;
  // Media rectangles are in whole-page points: every window places them on the slide half.
  return { ...read, media: read.media.map((m) => ({ ...m, rect: { ...m.rect, x: m.rect.x - slideArea(m.slide).x, y: m.rect.y - slideArea(m.slide).y } })) };
}

/** The notes half's text of page `n` ("" without a notes layout). */
async function notesText(n: number): Promise<string> {
  await loadMupdf();
  const where = position();
  if (where === "none") return "";
  return readNotesText(doc(n), n - 1, where);
}

/**
 * Render page `n`'s slide half at `width` device pixels — all of it, or only `clip` (a zoom,
 * in the slide half's coordinates): then mupdf draws that region at full resolution, so a
 * zoomed slide is sharp, not a blown-up bitmap. `half: "notes"` renders the notes half
 * instead (the presenter's notes as a picture).
 */
async function render(n: number, width: number, clip?: Clip, half: "slide" | "notes" = "slide"): Promise<RenderedPixels> {
  const mupdf = await loadMupdf();
  const started = performance.now();
  const page = doc(n).loadPage(n - 1);
  try {
    const [x0, y0, x1, y1] = page.getBounds();
    pageSizes.set(n, { w: x1 - x0, h: y1 - y0 });
    const area = half === "notes" ? notesRect(pageSize(n), position()) : slideArea(n);
    if (!area) throw new Error("This deck has no notes half.");
    const { w, h } = area;
    // Never outside the half: a clip is cut to it, so no zoom can reach into the notes.
    const region = clip ? clipTo(clip, w, h) : { x: 0, y: 0, w, h };
    region.x += area.x;
    region.y += area.y;
    const scale = Math.max(0.05, Math.min(width, 8192) / region.w);
    // The region's top-left goes to the pixmap's origin, then everything is scaled.
    const matrix = mupdf.Matrix.concat(mupdf.Matrix.translate(-(x0 + region.x), -(y0 + region.y)), mupdf.Matrix.scale(scale, scale));
    const bbox: [number, number, number, number] = [0, 0, Math.max(1, Math.round(region.w * scale)), Math.max(1, Math.round(region.h * scale))];
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
    // A copy out of the WASM heap, handed to the page without another (transferred).
    const pixels = new Uint8ClampedArray(pixmap.getPixels()).buffer;
    pixmap.destroy();
    return { page: n, w, h, width: pw, height: ph, pixels, ms: performance.now() - started, gen: current!.gen };
  } finally {
    page.destroy();
  }
}

/** `clip` cut to a `w`×`h` area (a copy: the caller shifts it). */
function clipTo(clip: Clip, w: number, h: number): Clip {
  const x = Math.min(Math.max(0, clip.x), w);
  const y = Math.min(Math.max(0, clip.y), h);
  return { x, y, w: Math.max(0.5, Math.min(clip.w, w - x)), h: Math.max(0.5, Math.min(clip.h, h - y)) };
}

/** The page's text, whitespace collapsed and cut at a word: the canvas's text alternative. */
async function text(n: number): Promise<string> {
  await loadMupdf();
  const all = wholePageText(n).replace(/\s+/g, " ").trim();
  if (all.length <= MAX_TEXT) return all;
  return all.slice(0, all.lastIndexOf(" ", MAX_TEXT) > 0 ? all.lastIndexOf(" ", MAX_TEXT) : MAX_TEXT) + "…";
}

/** The page's text — only its slide half's when the page carries notes (they stay the speaker's). */
function wholePageText(n: number): string {
  if (position() !== "none") return textIn(doc(n), n - 1, slideArea(n));
  const page = doc(n).loadPage(n - 1);
  try {
    const stext = page.toStructuredText("preserve-whitespace");
    const all = stext.asText();
    stext.destroy();
    return all;
  } finally {
    page.destroy();
  }
}

/** Encoded here, off the page's main thread (which is storing the deck meanwhile). */
async function picture(n: number, width: number): Promise<Blob> {
  const { pixels, width: pw, height: ph } = await render(n, width);
  const canvas = new OffscreenCanvas(pw, ph);
  canvas.getContext("2d", { alpha: false })!.putImageData(new ImageData(new Uint8ClampedArray(pixels), pw, ph), 0, 0);
  return await canvas.convertToBlob({ type: "image/png" });
}

async function attachment(name: string): Promise<Uint8Array | null> {
  const mupdf = await loadMupdf();
  if (!current) return null;
  return readAttachmentBytes(mupdf, current.pdf, name);
}

const queue: WorkerRequest[] = [];
let draining = false;

/** Who the answers go to: the page that started this worker, or the port it handed over (`serve`). */
let client: PostTarget = self;

function reply(message: WorkerResponse, transfer: Transferable[] = []) {
  client.postMessage(message, transfer);
}

async function handle(request: WorkerRequest): Promise<void> {
  switch (request.type) {
    case "open":
      return reply({ id: request.id, ok: true, result: await open(request.data, request.received, request.notesPosition, request.notesFile) });
    case "layout":
      return reply({ id: request.id, ok: true, result: setLayout(request.position, request.gen) });
    case "extras":
      return reply({ id: request.id, ok: true, result: await extras(request.notesFile) });
    case "notes-text":
      return reply({ id: request.id, ok: true, result: await notesText(request.page) });
    case "notes-picture": {
      const result = await render(request.page, request.width, undefined, "notes");
      return reply({ id: request.id, ok: true, result }, [result.pixels]);
    }
    case "render": {
      const result = await render(request.page, request.width, request.clip);
      return reply({ id: request.id, ok: true, result }, [result.pixels]);
    }
    case "text":
      return reply({ id: request.id, ok: true, result: await text(request.page) });
    case "outline":
      return reply({ id: request.id, ok: true, result: current ? readOutline(current.pdf, current.pageCount) : [] });
    case "picture":
      return reply({ id: request.id, ok: true, result: await picture(request.page, request.width) });
    case "export": {
      const bytes = writeInkAnnotations(await loadMupdf(), request.data, request.ink, request.notesPosition);
      return reply({ id: request.id, ok: true, result: bytes }, [bytes.buffer as ArrayBuffer]);
    }
    case "attachment": {
      const bytes = await attachment(request.name);
      return reply({ id: request.id, ok: true, result: bytes }, bytes ? [bytes.buffer as ArrayBuffer] : []);
    }
  }
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
      await handle(request);
    } catch (error) {
      const code = error instanceof Refused ? error.code : undefined;
      reply({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error), ...(code ? { code } : {}) });
    }
    // Let newer messages in before choosing the next job.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  draining = false;
}

/**
 * Open first; then attachments (a video waits on them); then the slide on screen (100);
 * then notes and media (95) — after the first slide, before look-ahead renders (≤ 50); page
 * text for screen readers last.
 */
function priorityOf(request: WorkerRequest): number {
  switch (request.type) {
    case "open":
    case "layout":
      return 1000;
    case "attachment":
      return 500;
    case "extras":
      return 95;
    case "notes-text":
    case "notes-picture":
      return 96;
    case "export":
      return 90;
    case "text":
    case "outline":
      return 20;
    case "picture":
      return 100;
    case "render":
      return request.priority;
  }
}

function onRequest(event: MessageEvent<WorkerRequest | ReceiveMessage | ServeMessage>): void {
  const message = event.data;
  if (message.type === "serve") {
    client = message.port;
    message.port.onmessage = onRequest;
    return;
  }
  // Kept at once, in order: a queue's turn per chunk would leave the last ones waiting after the download.
  if (message.type === "receive") return received.receive(message.chunk, message.at, message.total);
  queue.push(message);
  void drain();
}

self.onmessage = onRequest;
