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

/**
 * Click with the engine's real mouse at the element's centre (scrolled into view first): a
 * click by element handle fails when a re-render replaces the element between finding it and
 * clicking it (the presenter's panel re-renders on every audience message), and Firefox's waits
 * for an intersection observer that never reports in the tab behind the audience window; a
 * click at a place lands on whatever button is there then, as a person's does.
 */
export async function tap(page: EnginePage, selector: string): Promise<void> {
  const at = await page.evaluate((s: string) => {
    const el = document.querySelector(s)!;
    el.scrollIntoView({ block: "nearest" });
    const r = el.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  }, selector);
  await page.mouse([{ type: "move", ...at }, { type: "down" }, { type: "up" }]);
}

/**
 * Open handoff link `url` in `presenter`, go live, and open the *Questions and polls* panel
 * with Q&A open (the live panel hidden, no control keeping the focus: keys go to the talk).
 * Resolves with the talk's code and viewer link.
 */
export async function liveWithQuestionsOpen(presenter: EnginePage, url: string): Promise<{ code: string; viewerUrl: string }> {
  await openPresenter(presenter, url);
  await presenter.click("#btn-live");
  await presenter.waitFor("the live session", () => document.body.dataset.live === "open" && !!document.querySelector("#live-code")?.textContent, [], 30_000);
  const code = await presenter.evaluate(() => document.querySelector("#live-code")!.textContent!.trim());
  const viewerUrl = await presenter.evaluate(() => (document.querySelector("#live-viewer-url") as HTMLAnchorElement).href);
  await tap(presenter, "#live-hide");
  await presenter.press("q");
  await presenter.waitFor("the Questions and polls panel", () => document.body.dataset.talkPanel === "open" && !!document.querySelector("#talk-qa-open"));
  await tap(presenter, "#talk-qa-open");
  await presenter.waitFor("Q&A open", () => (document.querySelector("#talk-qa-open") as HTMLInputElement | null)?.checked === true);
  await presenter.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  return { code, viewerUrl };
}
