/**
 * Steps the stage suites share: wait for a page to be ready, open a handoff link as the
 * presenter, open a deck's audience window, move the presenter with a key and wait for its page,
 * wait for an audience window to have painted a page, and open the library.
 */
import type { EnginePage } from "./engine.ts";

/**
 * Wait until the page in `page` says it is ready (`data-ready` on its body, which every page of
 * the client sets once it shows what it is for) — at a path starting with `path`, when given
 * (a claim that goes on to the presenter). Until then each check reads where the page stands —
 * its load state and path, its step (`data-boot`, where the page marks one), any notice, the
 * scripts it has loaded, its service worker — so a wait that runs out says why, not only "false".
 */
export function waitReady(page: EnginePage, what: string, timeoutMs: number, path = "/"): Promise<void> {
  return page.waitFor(
    what,
    (at: string) => {
      if (location.pathname.startsWith(at) && document.body?.dataset.ready === "true") return true;
      const notices = [...document.querySelectorAll(".notice, [role=alert]")].map((n) => `; notice: ${n.textContent?.trim()}`).join("");
      const scripts = performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".js")).map((e) => `${e.name.split("/").pop()} in ${Math.round(e.duration)} ms`);
      const worker = navigator.serviceWorker?.controller?.state ?? "no service worker";
      return `${document.readyState} ${location.pathname}${document.body?.dataset.ready === "true" ? " (ready)" : ""} at step "${document.body?.dataset.boot ?? "not marked"}"${notices}; scripts loaded: ${scripts.join(", ") || "none"}; ${worker}`;
    },
    [path],
    timeoutMs,
  );
}

/** Open handoff link `url` in `presenter` and wait for the presenter it claims, notes and media loaded. */
export async function openPresenter(presenter: EnginePage, url: string): Promise<void> {
  await presenter.goto(url);
  await waitReady(presenter, "the presenter", 45_000);
  await presenter.waitFor("the notes and media", () => document.body.dataset.extras === "ready");
}

/** Open deck `deckId`'s audience window in `audience` and wait until it has painted page 1. */
export async function openAudience(audience: EnginePage, serverUrl: string, deckId: string): Promise<void> {
  await audience.goto(`${serverUrl}/view/${deckId}`);
  await waitReady(audience, "the audience window", 30_000);
  await audiencePainted(audience, 1);
}

/**
 * Open the library of the server at `serverUrl` in `page` and wait until it lists the stored
 * decks; a timeout names the step the page stood at and any notice it shows (`waitReady`).
 */
export async function openLibrary(page: EnginePage, serverUrl: string): Promise<void> {
  await page.goto(`${serverUrl}/`);
  await waitReady(page, "the library", 30_000);
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
  // The 100 ms are waited here, not in the page: a page on Playwright's paused clock runs no timer.
  const place = () =>
    page.evaluate((s: string) => {
      const el = document.querySelector(s);
      if (!el) return { ok: false, why: "no such element", key: "" };
      el.scrollIntoView({ block: "nearest" });
      const r = el.getBoundingClientRect();
      const x = r.x + r.width / 2;
      const y = r.y + r.height / 2;
      const hit = document.elementFromPoint(x, y);
      const label = hit?.closest("label");
      if (!hit || !(el.contains(hit) || label?.control === el)) return { ok: false, why: `covered by ${hit?.id || hit?.tagName || "nothing"}`, key: "" };
      return { ok: true, why: "", x, y, key: `${r.x},${r.y},${r.width},${r.height}` };
    }, selector);
  const deadline = Date.now() + 10_000;
  let aimed = null as { x: number; y: number } | null;
  for (;;) {
    const before = await place();
    await Bun.sleep(100);
    const at = await place();
    const steady = before.ok && at.ok && before.key === at.key;
    if (steady) {
      const spot = { x: at.x!, y: at.y! };
      if (aimed && aimed.x === spot.x && aimed.y === spot.y) return page.mouse([{ type: "move", ...spot }, { type: "down" }, { type: "up" }]);
      // The pointer goes there first and the place is checked again before the press, as a
      // person re-aims: the move itself can change the page (a question list the pointer leaves
      // draws the order it held back, and what stands under it moves).
      aimed = spot;
      await page.mouse([{ type: "move", ...spot }]);
      continue;
    }
    aimed = null;
    if (Date.now() > deadline) throw new Error(`tap ${selector}: not ready to be clicked after 10 s (${at.ok ? `moving: ${before.key} → ${at.key}` : at.why})`);
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
