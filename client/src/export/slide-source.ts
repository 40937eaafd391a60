/**
 * @module client/export/slide-source
 * The slide's pixels for each frame of an export, rendered by the render worker (mupdf, the
 * same split of notes pages and the same sharp zoom as every window) at the size the slide
 * takes in the video, and kept for the next frames: a talk shows one slide for many frames.
 * A recorded change of the notes layout is followed (the worker splits pages anew).
 */
import type { NotesPosition } from "../../../src/deck/notes-layout.ts";
import type { Renderer } from "../lib/renderer.ts";
import { clampPage, type DeckLayout } from "../model/deck-layout.ts";
import type { Picture } from "../record/timeline.ts";
import { slideBox, viewOf, type SlidePixels } from "./picture-paint.ts";

/** Slides kept rendered: the one on screen and the one before (a talk goes back, a zoom comes and goes). At 1080p one is ~8 MB. */
const KEPT = 2;

export class SlideSource {
  private readonly kept = new Map<string, SlidePixels & { image: ImageBitmap }>();
  /** Page sizes in points as the worker reported them; unknown pages are guessed from page 1. */
  private readonly sizes = new Map<number, { w: number; h: number }>();
  private position: NotesPosition | null = null;

  constructor(
    private readonly renderer: Renderer,
    private readonly layout: DeckLayout,
    firstPage: { w: number; h: number },
    private readonly width: number,
    private readonly height: number,
  ) {
    this.sizes.set(1, firstPage);
  }

  private size(page: number): { w: number; h: number } {
    return this.sizes.get(page) ?? this.sizes.get(1)!;
  }

  /** The pixels `picture` shows (null before the first state: the frame is black). */
  async pixels(picture: Picture): Promise<SlidePixels | null> {
    const state = picture.state;
    if (!state) return null;
    if (state.notesPosition && state.notesPosition !== this.position) {
      const result = await this.renderer.setLayout(state.notesPosition);
      this.position = state.notesPosition;
      this.sizes.clear();
      this.sizes.set(1, result.firstPage);
      for (const kept of this.kept.values()) kept.image.close();
      this.kept.clear();
    }
    const page = clampPage(this.layout, state.page);
    const zoom = state.overlays.zoom;
    const key = `${page}${zoom ? `@${zoom.x},${zoom.y},${zoom.w},${zoom.h}` : ""}`;
    const hit = this.kept.get(key);
    if (hit) {
      // Most recently used last.
      this.kept.delete(key);
      this.kept.set(key, hit);
      return hit;
    }
    let size = this.size(page);
    let rendered = await this.renderer.renderOnce(page, slideBox(size, this.width, this.height).w, 100, zoom ?? undefined);
    if (rendered.w !== size.w || rendered.h !== size.h) {
      // Another size than guessed: render again at the width the slide really takes.
      size = { w: rendered.w, h: rendered.h };
      this.sizes.set(page, size);
      const width = slideBox(size, this.width, this.height).w;
      if (Math.abs(width - rendered.image.width) > 2) rendered = await this.renderer.renderOnce(page, width, 100, zoom ?? undefined);
    }
    this.sizes.set(page, size);
    const image = await createImageBitmap(rendered.image);
    const pixels = { image, page: size, view: viewOf(picture, size) };
    this.kept.set(key, pixels);
    while (this.kept.size > KEPT) {
      const oldest = this.kept.keys().next().value as string;
      this.kept.get(oldest)!.image.close();
      this.kept.delete(oldest);
    }
    return pixels;
  }

  close(): void {
    for (const kept of this.kept.values()) kept.image.close();
    this.kept.clear();
  }
}
