/**
 * @module client/presenter/views/toolbox-view
 * The stage-tools bar shows the state: which mode is in hand, the pen's colour and width,
 * whether ink is hidden, a zoom or a freeze is on, and whether undo or redo can act.
 */
import type { PresenterState } from "../state.ts";

export function renderToolbox(root: HTMLElement, state: PresenterState, previous: PresenterState | null): void {
  if (previous && state.mode === previous.mode && state.pen === previous.pen && state.sizes === previous.sizes && state.overlays.inkHidden === previous.overlays.inkHidden && state.overlays.zoom === previous.overlays.zoom && state.zoomSelect === previous.zoomSelect && state.frozen === previous.frozen && state.inkHistory === previous.inkHistory && state.page === previous.page && state.ink === previous.ink) return;
  const press = (selector: string, on: boolean) => root.querySelectorAll(selector).forEach((el) => el.setAttribute("aria-pressed", String(on)));
  root.querySelectorAll<HTMLElement>("[data-mode]").forEach((el) => el.setAttribute("aria-pressed", String(el.dataset.mode === state.mode)));
  root.querySelectorAll<HTMLElement>("[data-color]").forEach((el) => el.setAttribute("aria-pressed", String(el.dataset.color === state.pen.color)));
  root.querySelectorAll<HTMLElement>("[data-width]").forEach((el) => el.setAttribute("aria-pressed", String(Number(el.dataset.width) === state.sizes.pen)));
  press("#tool-hide-ink", state.overlays.inkHidden);
  press("#tool-zoom", state.zoomSelect || !!state.overlays.zoom);
  press("#tool-freeze", !!state.frozen);
  const history = state.inkHistory[state.page];
  (root.querySelector("#tool-undo") as HTMLButtonElement).disabled = !history?.undo.length;
  (root.querySelector("#tool-redo") as HTMLButtonElement).disabled = !history?.redo.length;
  (root.querySelector("#tool-clear") as HTMLButtonElement).disabled = !(state.ink[state.page]?.length);
  document.body.dataset.mode = state.mode;
  document.body.dataset.zoomSelect = String(state.zoomSelect);
  document.body.dataset.frozen = String(!!state.frozen);
}
