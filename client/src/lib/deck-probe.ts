/**
 * @module client/lib/deck-probe
 * The claim's probe: a render worker started with the download (so mupdf's WASM compiles
 * meanwhile) that reads its own copy of the bytes while the deck is being stored — the page
 * size and labels (so the presenter's skeleton has the slide's final size without a wait
 * after storing) and the first slide rendered to cover the presenter's first paint
 * (lib/first-slide). Each is null when the probe cannot tell; the presenter then reads or
 * renders it itself. The worker ends once both are read.
 */
import type { DeckStore } from "../storage/deck-store.ts";
import { snapshotWidth } from "./first-slide.ts";
import { Renderer } from "./renderer.ts";

export type ProbedLayout = Parameters<DeckStore["setDeckLayout"]>[1];

export class DeckProbe {
  private renderer: Renderer | null = null;

  /** Start the worker early: compiling mupdf overlaps the download. */
  warm(): void {
    this.renderer ??= new Renderer();
  }

  read(data: ArrayBuffer): { layout: Promise<ProbedLayout | null>; firstSlide: Promise<Blob | null> } {
    const renderer = (this.renderer ??= new Renderer());
    const opened = renderer.open(data.slice(0), { transfer: true });
    const layout = opened.then(
      (deck) => ({ pageSize: deck.firstPage, labels: deck.labels }),
      () => null,
    );
    const firstSlide = opened.then(
      // (A worker without OffscreenCanvas refuses: the presenter then renders slide 1 itself.)
      (deck) => renderer.picture(1, snapshotWidth(deck.firstPage)),
      () => null,
    );
    void Promise.allSettled([layout, firstSlide]).then(() => {
      renderer.terminate();
      if (this.renderer === renderer) this.renderer = null;
    });
    return { layout, firstSlide: firstSlide.catch(() => null) };
  }
}
