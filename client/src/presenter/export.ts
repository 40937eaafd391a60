/**
 * @module client/presenter/export
 * Download the deck from the presenter or the library: the stored bytes as they came, or a
 * copy with the ink written as PDF Ink annotations by mupdf in the render worker. The browser
 * has the bytes; nothing goes to the server.
 */
import type { NotesPosition } from "../../../src/deck/notes-layout.ts";
import { safeFilename, saveFile } from "../lib/download.ts";
import type { Renderer } from "../lib/renderer.ts";
import type { PageInk } from "../worker/protocol.ts";
import type { Stroke } from "./ink.ts";

/** The pages that have ink, in page order, as the worker wants them. */
export function inkForExport(ink: Readonly<Record<number, readonly Stroke[]>> | ReadonlyMap<number, readonly unknown[]>): PageInk[] {
  const entries: [number, readonly unknown[]][] = ink instanceof Map ? [...ink.entries()] : Object.entries(ink).map(([p, s]) => [Number(p), s as readonly unknown[]]);
  return entries
    .filter(([, strokes]) => strokes.length)
    .sort((a, b) => a[0] - b[0])
    .map(([page, strokes]) => ({ page, strokes: (strokes as Stroke[]).map((s) => ({ color: s.color, width: s.width, points: s.points })) }));
}

export function exportName(title: string, withInk: boolean): string {
  const base = safeFilename(title.replace(/\.pdf$/i, ""));
  return withInk ? `${base} (with ink).pdf` : `${base}.pdf`;
}

/**
 * Download the deck; with ink when asked and there is any. Resolves when the file is offered.
 * `notesPosition`: the deck's notes layout in force (ink sits on the slide half, pages are
 * cropped to it); absent, the worker detects it from the file.
 */
export async function downloadDeck(options: { bytes: ArrayBuffer; title: string; ink: PageInk[]; withInk: boolean; renderer: Renderer | null; notesPosition?: NotesPosition }): Promise<void> {
  if (!options.withInk || !options.ink.length || !options.renderer) {
    saveFile(options.bytes, exportName(options.title, false), "application/pdf");
    return;
  }
  const out = await options.renderer.exportWithInk(options.bytes, options.ink, options.notesPosition);
  saveFile(out as Uint8Array<ArrayBuffer>, exportName(options.title, true), "application/pdf");
}
