/**
 * @module client/lib/renderer
 * The page side of the render worker: a promise per request, a small cache of rendered
 * slides, and look-ahead so stepping forward shows a slide that is already painted.
 * A change of the notes layout empties the cache and bumps a generation: a render the worker
 * made under the old split is asked again rather than painted (it could show a notes half).
 */
import type { NotesPosition } from "../../../src/deck/notes-layout.ts";
import type { DeckExtras } from "../../../src/deck/sidecar/types.ts";
import type { OutlineEntry } from "../../../src/deck/outline.ts";
import type { Clip, LayoutResult, OpenResult, PageInk, PostTarget, ReceiveMessage, RenderedPixels, RenderResult, WorkerRequest, WorkerResponse } from "../worker/protocol.ts";

/** Rendered slides kept per renderer; at 1920 px wide one slide is ~8 MB of pixels. */
const CACHE_LIMIT = 10;

/** A worker failure; `code` is the shared refusal code (PDF_ENCRYPTED, …) when the deck was refused. */
export class RenderError extends Error {
  constructor(message: string, readonly code?: string) {
    super(message);
    this.name = "RenderError";
  }
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type Body = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

/**
 * How to open a deck: `notesPosition`, the deck's stored notes-layout override (absent:
 * detect); `notesFile`, the normalised .pdfpc stored with it (its forced overlays group the
 * slides, as in the presenter's counter).
 */
export interface OpenOptions {
  notesPosition?: NotesPosition;
  notesFile?: string;
}

/** The open request's optional fields, present only when given. */
function openFields(options: OpenOptions): { notesPosition?: NotesPosition; notesFile?: string } {
  return { ...(options.notesPosition ? { notesPosition: options.notesPosition } : {}), ...(options.notesFile ? { notesFile: options.notesFile } : {}) };
}

export class Renderer {
  /**
   * Where its requests go: a render worker of its own, or a port to one another context started
   * (client/worker/protocol's ServeMessage: how the export's worker reaches one).
   */
  private readonly target: PostTarget;
  /** Ends its worker; a port is closed instead (the worker behind it is its starter's to end). */
  private readonly end: () => void;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private cache = new Map<string, Promise<RenderResult>>();
  /** Generation of the notes layout; the worker stamps each render with the one it used. */
  private gen = 0;

  /** `port`: a render worker started elsewhere, which serves it; without it, a render worker of its own (pages only). */
  constructor(port?: MessagePort) {
    const onmessage = (event: MessageEvent<WorkerResponse>) => {
      const message = event.data;
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      if (message.ok) pending.resolve(message.result);
      else pending.reject(new RenderError(message.error, message.code));
    };
    if (port) {
      port.onmessage = onmessage;
      this.target = port;
      this.end = () => port.close();
      return;
    }
    const worker = new Worker(__DH_WORKER_URL__, { type: "module", name: "deckhand-render" });
    this.target = worker;
    this.end = () => worker.terminate();
    worker.onmessage = onmessage;
    worker.onerror = (event) => {
      const error = new Error(event.message || "The render worker failed to start.");
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    };
  }

  private call<T>(body: Body, transfer: Transferable[] = []): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.target.postMessage({ ...body, id }, transfer);
    });
  }

  /**
   * Open a deck. The bytes are copied so the caller's buffer stays usable, unless the caller
   * hands them over (`transfer`), which saves a copy of the whole PDF.
   */
  open(data: ArrayBuffer, options: OpenOptions & { transfer?: boolean } = {}): Promise<OpenResult> {
    const copy = options.transfer ? data : data.slice(0);
    this.cache.clear();
    this.gen = 0;
    return this.call<OpenResult>({ type: "open", data: copy, ...openFields(options) }, [copy]);
  }

  /**
   * Hand the worker a chunk of a deck as it downloads (`at`: its offset; 0 starts a new deck),
   * for `openReceived` once the last one came. The chunk's buffer is handed over when the
   * chunk is all of it (the caller has copied it already), else copied.
   */
  receive(chunk: Uint8Array, at: number, total: number | null): void {
    const whole = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength;
    const buffer = (whole ? chunk.buffer : chunk.slice().buffer) as ArrayBuffer;
    const message: ReceiveMessage = { type: "receive", chunk: buffer, at, total };
    this.target.postMessage(message, [buffer]);
  }

  /** Open the deck the worker received (`receive`): `length` bytes in all, or the open fails. */
  openReceived(length: number, options: OpenOptions = {}): Promise<OpenResult> {
    this.cache.clear();
    this.gen = 0;
    return this.call<OpenResult>({ type: "open", received: length, ...openFields(options) });
  }

  /**
   * Split the pages at `position` (null: as the deck says). Every render after this call is
   * of the new split; cached and in-flight renders of the old one are dropped.
   */
  setLayout(position: NotesPosition | null): Promise<LayoutResult> {
    this.gen++;
    this.clearCache();
    return this.call<LayoutResult>({ type: "layout", position, gen: this.gen });
  }

  /** Notes, media and timer settings of the open deck (after the first slide in the queue); `notesFile`: the deck's stored .pdfpc text. */
  extras(notesFile?: string): Promise<DeckExtras> {
    return this.call<DeckExtras>(notesFile ? { type: "extras", notesFile } : { type: "extras" });
  }

  /** The notes half's text of `page` ("" when the deck has no notes layout). */
  notesText(page: number): Promise<string> {
    return this.call<string>({ type: "notes-text", page });
  }

  /** The notes half of `page` rendered at `width` device pixels (not cached: the presenter keeps one). */
  notesPicture(page: number, width: number): Promise<RenderResult> {
    return this.call<RenderedPixels>({ type: "notes-picture", page, width: Math.max(16, Math.round(width)) }).then(toImage);
  }

  /** The text on a page, shortened: the slide canvas's text alternative. */
  text(page: number): Promise<string> {
    return this.call<string>({ type: "text", page });
  }

  /** The open deck's outline (its bookmarks), for chapter titles. */
  outline(): Promise<OutlineEntry[]> {
    return this.call<OutlineEntry[]>({ type: "outline" });
  }

  /** Slide `page` at `width` device pixels as a PNG file, encoded in the worker. */
  picture(page: number, width: number): Promise<Blob> {
    return this.call<Blob>({ type: "picture", page, width: Math.max(16, Math.round(width)) });
  }

  /** Render slide `page` (or its `clip`, a zoom) at `width` device pixels; cached by slide, clip and width. */
  render(page: number, width: number, priority = 100, clip?: Clip): Promise<RenderResult> {
    const w = Math.max(16, Math.round(width));
    const key = clip ? `${page}@${w}[${clip.x},${clip.y},${clip.w},${clip.h}]` : `${page}@${w}`;
    let entry = this.cache.get(key);
    if (entry) {
      // Refresh its place in the LRU order.
      this.cache.delete(key);
      this.cache.set(key, entry);
      return entry;
    }
    entry = this.current(clip ? { type: "render", page, width: w, priority, clip } : { type: "render", page, width: w, priority });
    entry.catch(() => this.cache.delete(key));
    this.cache.set(key, entry);
    while (this.cache.size > CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value as string);
    return entry;
  }

  /** Render without keeping the result (overview thumbnails, an export's frames: they would flush the cache). */
  renderOnce(page: number, width: number, priority = 5, clip?: Clip): Promise<RenderResult> {
    const w = Math.max(16, Math.round(width));
    return this.current(clip ? { type: "render", page, width: w, priority, clip } : { type: "render", page, width: w, priority });
  }

  /** A render of the layout in force: one made under an older split is dropped and asked again. */
  private async current(body: Extract<Body, { type: "render" }>): Promise<RenderResult> {
    for (;;) {
      const gen = this.gen;
      const result = await this.call<RenderedPixels>(body);
      if (result.gen === this.gen) return toImage(result);
      // The split changed while it rendered (gen moved on): render again under the new one.
      if (gen === this.gen) throw new RenderError("The notes layout changed.");
    }
  }

  private clearCache(): void {
    this.cache.clear();
  }

  /** Queue low-priority renders of the slides after `page`. */
  prefetch(page: number, width: number, count: number, pageCount: number): void {
    for (let i = 1; i <= count && page + i <= pageCount; i++) void this.render(page + i, width, 50 - i).catch(() => {});
    if (page > 1) void this.render(page - 1, width, 10).catch(() => {});
  }

  /** A copy of the deck's bytes with the ink written as PDF Ink annotations (by mupdf, here). */
  exportWithInk(data: ArrayBuffer, ink: PageInk[], notesPosition?: NotesPosition): Promise<Uint8Array> {
    const copy = data.slice(0);
    return this.call<Uint8Array>(notesPosition ? { type: "export", data: copy, ink, notesPosition } : { type: "export", data: copy, ink }, [copy]);
  }

  attachment(name: string): Promise<Uint8Array | null> {
    return this.call<Uint8Array | null>({ type: "attachment", name });
  }

  terminate(): void {
    this.end();
  }
}

/**
 * The worker's pixels as ImageData over the transferred buffer: no copy, and no task to wait
 * for (see RenderResult; a bitmap made in the worker is not drawn reliably by every engine,
 * see RenderedPixels). The pixels are opaque, so straight and premultiplied RGBA agree.
 */
function toImage(rendered: RenderedPixels): RenderResult {
  const { pixels, width, height, ...rest } = rendered;
  return { ...rest, image: new ImageData(new Uint8ClampedArray(pixels), width, height) };
}

/** Draw a rendered slide into a canvas, sizing its backing store to the picture. */
export function paint(canvas: HTMLCanvasElement, result: RenderResult): void {
  if (canvas.width !== result.image.width || canvas.height !== result.image.height) {
    canvas.width = result.image.width;
    canvas.height = result.image.height;
  }
  canvas.getContext("2d", { alpha: false })?.putImageData(result.image, 0, 0);
}
