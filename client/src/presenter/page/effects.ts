/**
 * @module client/presenter/page/effects
 * What only the page can do for an action (actions.ts `effect`): full screen, the audience
 * window, the live panel, the Record panel, the theme, scrolling the notes; and the speaker's layout of this
 * window (kept per browser), which the theme and the layout editor change.
 */
import { applyLayout, renderLayoutEditor } from "../views/layout-view.ts";
import type { Effect } from "../actions.ts";
import { resetLayout, saveLayout, type PresenterLayout } from "../layout.ts";
import { els } from "./elements.ts";
import { session, storage } from "./session.ts";
import { notesView } from "./views.ts";

function toggleTheme() {
  changeLayout({ ...session.presenterLayout, theme: session.presenterLayout.theme === "dark" ? "light" : "dark" }, true);
}

/** The toolbar's *Questions and polls* says whether its panel is open. */
function showQuestionsOpen() {
  els.questionsButton.setAttribute("aria-expanded", String(!els.talkPanel.hidden));
}

function toggleFullscreen() {
  if (document.fullscreenElement) void document.exitFullscreen();
  else void document.documentElement.requestFullscreen?.().catch(() => {});
}

export function runEffect(effect: Effect) {
  if (effect === "fullscreen") toggleFullscreen();
  else if (effect === "open-audience") void session.audienceWindow?.open();
  else if (effect === "swap-screens") void session.audienceWindow?.swap();
  else if (effect === "theme") toggleTheme();
  // The live panel and the Questions panel take the same place beside the slide: one at a time.
  else if (effect === "live") {
    session.talk?.close();
    session.recording?.close();
    session.live?.toggle();
    showQuestionsOpen();
  } else if (effect === "questions") {
    session.live?.close();
    session.recording?.close();
    session.talk?.toggle();
    showQuestionsOpen();
  } else if (effect === "record") {
    session.live?.close();
    session.talk?.close();
    showQuestionsOpen();
    session.recording?.toggle();
  }
  else if (effect === "show-question") session.talk?.toggleTopQuestion();
  else if (effect === "notes-down") notesView.scroll(1);
  else if (effect === "notes-up") notesView.scroll(-1);
}

function changeLayout(next: PresenterLayout, save: boolean) {
  session.presenterLayout = next;
  applyLayout(els.stage, next);
  if (save) saveLayout(storage, next);
}

export const layoutDeps = {
  stage: els.stage,
  editor: els.layoutEditor,
  layout: () => session.presenterLayout,
  change: changeLayout,
  reset: () => {
    changeLayout(resetLayout(storage), false);
    renderLayoutEditor(layoutDeps);
  },
};
