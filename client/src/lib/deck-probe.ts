/**
 * @module client/lib/deck-probe
 * The claim's probe: a render worker started with the download (so mupdf's WASM compiles
 * meanwhile) and handed every chunk as it arrives, so it reads the deck the moment the last
 * byte came, while the deck is being stored: the page size and labels (so the presenter's
 * skeleton has the slide's final size without a wait after storing); slide 1 at the size the
 * claim's own page shows it, painted there at once; then slide 1 again at the size that covers
 * the presenter's window, as the picture for the presenter's first paint (lib/first-slide).
 * Each is null when the probe cannot tell; the presenter then reads or renders it itself. The
 * worker ends once the probe is done with it.
 */
import type { NotesPosition } from "../../../src/deck/notes-layout.ts";
import type { DeckStore } from "../storage/deck-store.ts";
import type { RenderResult } from "../worker/protocol.ts";
import { snapshotWidth } from "./first-slide.ts";
import { Renderer } from "./renderer.ts";

export type ProbedLayout = Parameters<DeckStore["setDeckLayout"]>[1];

export interface Probed {
  layout: Promise<ProbedLayout | null>;
  /** Slide 1 (its slide half, under the split in force) for the claim's own page, at the width it asks for; ask once. */
  slide(): Promise<RenderResult | null>;
  /**
   * Slide 1 as a PNG file at the width that covers the presenter's frame, rendered and encoded
   * in the worker after `slide`. Ask once; null when it cannot be made. The worker ends after it.
   */
  picture(): Promise<Blob | null>;
  /** End the worker once the layout is read, with no slide asked for (the claim shows none). */
  done(): void;
}

export interface ProbeOptions {
  /** The split this browser keeps for the deck (its presenter's override), if any. */
  notesPosition?: NotesPosition;
  /** Device pixels wide to render slide 1 at for the claim's page, given its size in points. */
  slideWidth: (page: { w: number; h: number }) => number;
}

/** What the probe asks of a render worker (lib/renderer); tests hand in their own. */
export type ProbeRenderer = Pick<Renderer, "receive" | "openReceived" | "open" | "renderOnce" | "picture" | "terminate">;

export class DeckProbe {
  private renderer: ProbeRenderer | null = null;
  /** Bytes the worker holds, in order from the first; -1 once a chunk went missing. */
  private fed = 0;

  constructor(private readonly newRenderer: () => ProbeRenderer = () => new Renderer()) {}

  /** Start the worker early: compiling mupdf overlaps the download. */
  warm(): void {
    if (this.renderer) return;
    this.renderer = this.newRenderer();
    this.fed = 0;
  }

  /** A chunk of the download at offset `at` (0: the download started again), once it is hashed and kept. */
  receive(chunk: Uint8Array, at: number, total: number | null): void {
    if (!this.renderer) return;
    if (at !== this.fed && at !== 0) {
      // A worker started after the download did (a retry that resumed): it reads a copy at the end.
      this.fed = -1;
      return;
    }
    this.fed = at + chunk.byteLength;
    // (After this the chunk may be empty: its buffer handed to the worker.)
    this.renderer.receive(chunk, at, total);
  }

  /** Read `data`, the whole deck: from the bytes the worker received, when it has them all, else from a copy. */
  read(data: ArrayBuffer, options: ProbeOptions): Probed {
    const fed = this.renderer !== null && this.fed === data.byteLength;
    const renderer = (this.renderer ??= this.newRenderer());
    const split = options.notesPosition ? { notesPosition: options.notesPosition } : {};
    const opened = fed ? renderer.openReceived(data.byteLength, split) : renderer.open(data.slice(0), { transfer: true, ...split });
    const layout = opened.then(
      (deck) => ({ pageSize: deck.firstPage, labels: deck.labels }),
      () => null,
    );
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      renderer.terminate();
      if (this.renderer === renderer) this.renderer = null;
    };
    return {
      layout,
      slide: () => opened.then((deck) => renderer.renderOnce(1, options.slideWidth(deck.firstPage), 100)).catch(() => null),
      picture: async () => {
        const deck = await opened.catch(() => null);
        // (A worker without OffscreenCanvas refuses: the presenter then renders slide 1 itself.)
        const blob = deck ? await renderer.picture(1, snapshotWidth(deck.firstPage)).catch(() => null) : null;
        end();
        return blob;
      },
      done: () => void layout.then(end),
    };
  }
}
