/**
 * Steps the stage suites share: open a handoff link as the presenter, open a deck's audience
 * window, move the presenter with a key and wait for its page, and wait for an audience window
 * to have painted a page.
 */
import type { EnginePage } from "./engine.ts";

/** Open handoff link `url` in `presenter` and wait for the presenter it claims, notes and media loaded. */
export async function openPresenter(presenter: EnginePage, url: string): Promise<void> {
  await presenter.goto(url);
  await presenter.waitFor("the presenter", () => document.body.dataset.ready === "true", [], 45_000);
  await presenter.waitFor("the notes and media", () => document.body.dataset.extras === "ready");
}

/** Open deck `deckId`'s audience window in `audience` and wait until it has painted page 1. */
export async function openAudience(audience: EnginePage, serverUrl: string, deckId: string): Promise<void> {
  await audience.goto(`${serverUrl}/view/${deckId}`);
  await audience.waitFor("the audience window", () => document.body.dataset.ready === "true", [], 30_000);
  await audiencePainted(audience, 1);
}

/** Press `chord` in the presenter and wait until it shows PDF page `page`. */
export async function pressToPage(presenter: EnginePage, chord: string, page: number): Promise<void> {
  await presenter.press(chord);
  await presenter.waitFor(`page ${page} after ${chord}`, (p: number) => document.body.dataset.slide === String(p), [page]);
}

/** Wait until the audience window shows PDF page `page`, painted. */
export function audiencePainted(audience: EnginePage, page: number): Promise<void> {
  return audience.waitFor(`audience on page ${page}`, (p: number) => document.body.dataset.slide === String(p) && document.querySelector("#frame")?.getAttribute("data-state") === "painted", [page]);
}
