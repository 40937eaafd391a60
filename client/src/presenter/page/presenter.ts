/**
 * @module client/presenter/page/presenter
 * The presenter window's one PresenterStore (every change is a named action) with the page's
 * effects, the views that dispatch into it (the timer's away card, the overview grid), and
 * the hook the benchmarks and e2e tests read (`window.__deckhand`).
 */
import { initialState } from "../state.ts";
import { PresenterStore } from "../store.ts";
import { OverviewView } from "../views/overview-view.ts";
import { TimerAwayView } from "../views/timer-view.ts";
import { $ } from "../../lib/dom.ts";
import { runEffect } from "./effects.ts";
import { els } from "./elements.ts";
import { metrics, pageSize, preferences, session, timerSettings } from "./session.ts";

export const presenter = new PresenterStore(initialState(preferences), () => ({ layout: session.layout, now: Date.now(), pageSize }), runEffect);
(window as unknown as { __deckhand: unknown }).__deckhand = { metrics, state: () => presenter.current, layout: () => session.layout, bindings: () => session.bindings, extras: () => session.extras, timerSettings: () => timerSettings() };

// After a long gap the timer waits stopped; the speaker continues or resets it in one click.
export const timerAway = new TimerAwayView($(".clock-pane"), () => presenter.dispatch("timerReset"));
export const overviewView = new OverviewView(els.overview, $("#overview-grid"), (page) => {
  presenter.dispatch("goToPage", page);
  if (presenter.current.panel === "overview") presenter.dispatch("overview");
});
