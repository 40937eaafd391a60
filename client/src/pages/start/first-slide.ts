/**
 * @module client/pages/start/first-slide
 * The claim page's picture of slide 1, shown the moment the probe has rendered it: whether
 * it is shown at all (not for a deck this browser presented before at another slide — its
 * presenter resumes there) and under which notes split, how wide it is rendered (the width
 * its canvas takes, so it is sharp and no larger than shown), and painting it.
 */
import type { NotesPosition } from "../../../../src/deck/notes-layout.ts";
import { $ } from "../../lib/dom.ts";
import { devicePixelRatioCapped } from "../../lib/fit.ts";
import { paint } from "../../lib/renderer.ts";
import { parseNotesPosition } from "../../model/deck-settings.ts";
import { deckIdFor, type DeckStore } from "../../storage/deck-store.ts";
import type { RenderResult } from "../../worker/protocol.ts";

/**
 * Whether the claim shows slide 1 (here and in the presenter's first paint), and the split it
 * is shown under: not for a deck this browser presented before at another slide (the
 * presenter resumes there), and under the presenter's own notes split when it set one.
 */
export async function firstSlidePlan(store: DeckStore, digest: string): Promise<{ show: boolean; notesPosition?: NotesPosition }> {
  const id = deckIdFor(digest);
  const [known, progress] = await Promise.all([store.getDeck(id).catch(() => undefined), store.getProgress(id).catch(() => undefined)]);
  const notesPosition = parseNotesPosition(known?.notesPosition) ?? undefined;
  return { show: !progress || progress.slide === 1, ...(notesPosition ? { notesPosition } : {}) };
}

/** The largest the first slide is shown on this page (the stylesheet's `.start-preview canvas`), in viewport heights. */
const PREVIEW_MAX_VH = 0.62;

/**
 * Device pixels wide for slide 1 on this page: the width its canvas will take (the card as it
 * is once the slide shows), so the slide is sharp and no larger than it is shown.
 */
export function previewWidth(page: { w: number; h: number }): number {
  const card = $("#main");
  const before = document.body.dataset.preview;
  document.body.dataset.preview = "shown";
  const style = getComputedStyle(card);
  const content = card.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  if (before === undefined) delete document.body.dataset.preview;
  const css = Math.min(content, (PREVIEW_MAX_VH * innerHeight * page.w) / page.h);
  return Math.max(16, Math.round(css * devicePixelRatioCapped()));
}

/** Paint the probe's render of slide 1 on this page; `mark` times it for the benchmark. */
export async function showFirstSlide(slide: Promise<RenderResult | null>, mark: (phase: string) => void): Promise<boolean> {
  const rendered = await slide;
  if (!rendered || document.body.dataset.screen !== "loading") return false;
  paint($("#preview-slide") as HTMLCanvasElement, rendered);
  $("#preview").hidden = false;
  document.body.dataset.preview = "shown";
  // Resolved once the frame that shows it has been produced: what comes next (storing the
  // deck) holds the main thread, and the frame would wait for it. A tab in the background
  // makes no frames (it is drawn when shown).
  if (!document.hidden) await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  mark("paintedMs");
  return true;
}
