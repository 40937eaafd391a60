/**
 * Steps the stage suites share: move the presenter with a key and wait for its page, and wait
 * for an audience window to have painted a page.
 */
import type { EnginePage } from "./engine.ts";

/** Press `chord` in the presenter and wait until it shows PDF page `page`. */
export async function pressToPage(presenter: EnginePage, chord: string, page: number): Promise<void> {
  await presenter.press(chord);
  await presenter.waitFor(`page ${page} after ${chord}`, (p: number) => document.body.dataset.slide === String(p), [page]);
}

/** Wait until the audience window shows PDF page `page`, painted. */
export function audiencePainted(audience: EnginePage, page: number): Promise<void> {
  return audience.waitFor(`audience on page ${page}`, (p: number) => document.body.dataset.slide === String(p) && document.querySelector("#frame")?.getAttribute("data-state") === "painted", [page]);
}
