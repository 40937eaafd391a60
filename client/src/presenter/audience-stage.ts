/**
 * @module client/presenter/audience-stage
 * The audience's picture of a talk: the slide full-bleed, its media, the stage tools (ink, the
 * stroke being drawn, the laser pointer, the spotlight, a zoomed region re-rendered sharp) and
 * black or white screens — exactly one AudienceState (./audience.ts) and nothing else, so no
 * deckhand text reaches the slide area. The audience window (/view/{deck}) feeds it from the
 * presenter's BroadcastChannel, live viewers (/live/{code}) from the WebSocket: one renderer
 * of that state, so both show the same thing.
 *
 * A deck whose pages carry their notes is split by the render worker: this stage only ever
 * asks for the slide half. It opens with the deck's own layout (or the override stored with
 * the deck), and follows the position the presenter's state carries; while a new split is
 * on its way the canvas is wiped, so not one frame of a notes half reaches the projector.
 */
import type { NotesPosition } from "../../../src/deck/notes-layout.ts";
import type { DeckExtras } from "../../../src/deck/sidecar/types.ts";
import { mountMedia, type MediaContext, type MountedMedia } from "../lib/media.ts";
import type { Renderer } from "../lib/renderer.ts";
import type { AudienceState } from "./audience.ts";
import { clampPage, openedLayout, plainLayout, type DeckLayout } from "../model/deck-layout.ts";
import { follow } from "./media-sync.ts";
import { OverlayView, setData } from "./views/overlay-view.ts";
import { slideName } from "./views/counter-view.ts";
import { pageSizes, SlideView, type PageSizes } from "./views/slide-view.ts";
import { EMPTY_EXTRAS } from "../worker/protocol.ts";

/** How often media are brought back in step between the presenter's messages. */
const FOLLOW_MS = 500;

export interface StageElements {
  /** The slide frame (canvas and media layer inside). */
  frame: HTMLElement;
  /** The box the frame is fitted into. */
  main: HTMLElement;
  canvas: HTMLCanvasElement;
  mediaLayer: HTMLElement;
  blankCover: HTMLElement;
  /** Where the stage writes data-slide, data-blank, data-mode… for tests and styles. */
  body: HTMLElement;
}

export class AudienceStage {
  renderer: Renderer | null = null;
  private sizes: PageSizes | null = null;
  layout: DeckLayout = plainLayout(1);
  extras: DeckExtras = EMPTY_EXTRAS;
  state: AudienceState | null = null;
  private mounted: MountedMedia[] = [];
  private mediaToken = 0;
  private readonly slide: SlideView;
  private readonly overlay: OverlayView;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** The split the worker applies now ("none": whole pages). */
  notesPosition: NotesPosition = "none";

  constructor(
    private readonly els: StageElements,
    private readonly mediaCtx: MediaContext,
  ) {
    this.slide = new SlideView(els.frame, els.main, els.canvas, () => this.renderer, () => this.sizes, 100);
    this.overlay = new OverlayView(els.frame, els.mediaLayer);
  }

  /** Open the deck's bytes in `renderer`; throws what the renderer throws (unreadable PDF). */
  async open(renderer: Renderer, bytes: ArrayBuffer, pageSize?: { w: number; h: number }, notesPosition?: NotesPosition | null, notesFile?: string): Promise<void> {
    this.renderer = renderer;
    this.mediaCtx.renderer = renderer;
    // The deck's notes file groups the slides as in the presenter (the slides' names for screen readers).
    const opened = await renderer.open(bytes, { ...(notesPosition ? { notesPosition } : {}), ...(notesFile ? { notesFile } : {}) });
    this.layout = openedLayout(opened);
    this.notesPosition = opened.layout.kind === "beamer-second-screen" ? opened.layout.position : "none";
    this.els.body.dataset.notesPosition = this.notesPosition;
    // The stored page size was measured under the same split only when no override differs; the worker's is exact.
    this.sizes = pageSizes(notesPosition ? opened.firstPage : (pageSize ?? opened.firstPage));
    this.extras = await renderer.extras().catch(() => EMPTY_EXTRAS);
    clearInterval(this.timer);
    this.timer = setInterval(() => this.followAll(), FOLLOW_MS);
  }

  get pageCount(): number {
    return this.layout.pageCount;
  }

  get page(): number {
    return this.slide.page;
  }

  /** The label of a page, as the presenter's counter writes it. */
  label(page: number): string {
    return slideName(this.layout, page);
  }

  followAll(): void {
    const state = this.state;
    if (!state) return;
    for (const m of this.mounted) {
      if (m.element instanceof HTMLMediaElement) follow(m.element, state.media[m.media.id], state.blank);
      else if (m.element instanceof HTMLIFrameElement) {
        // An embed cannot be paused from here: while blanked it is unloaded, then loaded again.
        const src = m.element.dataset.src ?? m.element.src;
        m.element.dataset.src = src;
        const want = state.blank === "none" ? src : "about:blank";
        if (m.element.src !== want) m.element.src = want;
      }
    }
  }

  private async showPage(page: number): Promise<void> {
    const token = ++this.mediaToken;
    this.els.mediaLayer.replaceChildren();
    this.mounted = [];
    const label = slideName(this.layout, page);
    this.els.body.dataset.slide = String(page);
    this.slide.zoom = this.state?.overlays.zoom ?? null;
    const width = await this.slide.show(page, label);
    if (width === null || token !== this.mediaToken) return;
    this.slide.describe(page, label);
    this.renderer?.prefetch(page, width, 2, this.layout.pageCount);
    const items = this.extras.media.filter((m) => m.slide === page);
    if (!items.length || !this.sizes) return;
    this.mounted = await mountMedia(this.els.mediaLayer, items, this.sizes.get(page), this.mediaCtx, () => token === this.mediaToken);
    this.followAll();
  }

  /**
   * Split pages at `position` from now on: the canvas is wiped at once (the old split may show
   * a notes half), every render after this is of the new split, and the page is shown again.
   */
  private relayoutNotes(position: NotesPosition): void {
    const renderer = this.renderer;
    if (!renderer || position === this.notesPosition) return;
    this.notesPosition = position;
    this.els.body.dataset.notesPosition = position;
    this.slide.wipe();
    const change = renderer.setLayout(position);
    void change.then((result) => {
      if (this.notesPosition !== position) return;
      this.sizes = pageSizes(result.firstPage);
      void this.showPage(this.slide.page || clampPage(this.layout, this.state?.page ?? 1));
    }, () => {});
  }

  /** Show this state: the page (re-rendered only when it changed), blank, overlays, media. */
  apply(next: AudienceState): void {
    const previous = this.state;
    this.state = next;
    if (next.notesPosition && next.notesPosition !== this.notesPosition) {
      // The new split first: the page is shown under it once the worker has it.
      this.relayoutNotes(next.notesPosition);
      this.slide.page = clampPage(this.layout, next.page);
      const blank = this.els.blankCover;
      blank.hidden = next.blank === "none";
      blank.dataset.blank = next.blank;
      this.els.body.classList.toggle("is-blank", next.blank !== "none");
      this.els.body.dataset.blank = next.blank;
      this.drawOverlays(next);
      return;
    }
    const blank = this.els.blankCover;
    blank.hidden = next.blank === "none";
    blank.dataset.blank = next.blank;
    this.els.body.classList.toggle("is-blank", next.blank !== "none");
    this.els.body.dataset.blank = next.blank;
    const page = clampPage(this.layout, next.page);
    if (!previous || page !== this.slide.page) void this.showPage(page);
    else {
      this.slide.setZoom(next.overlays.zoom, slideName(this.layout, page));
      this.followAll();
    }
    this.drawOverlays(next);
  }

  /** Only the pointer or the stroke being drawn moved. */
  applyOverlays(overlays: AudienceState["overlays"]): void {
    if (!this.state) return;
    this.state = { ...this.state, overlays };
    this.drawOverlays(this.state);
  }

  private drawOverlays(next: AudienceState): void {
    this.overlay.render(next, this.sizes?.get(clampPage(this.layout, next.page)) ?? { w: 720, h: 405 });
    setData(this.els.body, "mode", next.mode);
    setData(this.els.body, "frozen", String(next.frozen));
    setData(this.els.body, "ink", String(next.ink.length));
  }

  /** The box changed size: render the slide again at the new size. */
  relayout(): void {
    void this.slide.relayout(slideName(this.layout, this.slide.page));
  }
}
