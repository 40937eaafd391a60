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
  // As Playwright's actionability checks: the element stays where it is across 100 ms and is
  // what the point hits — a list above it that is still settling (a hidden question's row going,
  // a remote's "On the projector" line dropped at its next frame) would move it under the pointer.
  const deadline = Date.now() + 10_000;
  let last = "";
  let aimed = null as { x: number; y: number } | null;
  for (;;) {
    const at = await page.evaluate(async (s: string) => {
      const el = document.querySelector(s);
      if (!el) return { ok: false, why: "no such element" };
      el.scrollIntoView({ block: "nearest" });
      const box = () => {
        const r = el.getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2, key: `${r.x},${r.y},${r.width},${r.height}` };
      };
      const before = box();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const after = box();
      const hit = document.elementFromPoint(after.x, after.y);
      if (before.key !== after.key) return { ok: false, why: `moving (${before.key} → ${after.key})` };
      const label = hit?.closest("label");
      if (!el.isConnected || !hit || !(el.contains(hit) || label?.control === el)) return { ok: false, why: `covered by ${hit?.id || hit?.tagName || "nothing"}` };
      return { ok: true, x: after.x, y: after.y };
    }, selector);
    if (at.ok) {
      const place = { x: at.x!, y: at.y! };
      if (aimed && aimed.x === place.x && aimed.y === place.y) return page.mouse([{ type: "move", ...place }, { type: "down" }, { type: "up" }]);
      // The pointer goes there first and the place is checked again before the press, as a
      // person re-aims: the move itself can change the page (a question list the pointer leaves
      // draws the order it held back, and what stands under it moves).
      aimed = place;
      await page.mouse([{ type: "move", ...place }]);
      continue;
    }
    aimed = null;
    last = at.why!;
    if (Date.now() > deadline) throw new Error(`tap ${selector}: not ready to be clicked after 10 s (${last})`);
  }
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
